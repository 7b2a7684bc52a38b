// The zod schemas of the platform block's values, built from the option catalog: their messages are the ones users
// read in the log. The readers above apply them one setting at a time.
import * as z from '../util/zod.js';

import { atTop, choiceProblem, fallbackSentence, OPTIONS, sectionOf } from '../option-catalog.js';
import type { ChoiceOption, GlobalOption, OptionSpec, PerDoorOption, ValueOf } from '../option-catalog.js';
import { defaultOf } from '../option-values.js';
import { nearMiss } from '../util/near-miss.js';
import { typed } from './redacted.js';

export const requiredText = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) }).check(
    z.trim(),
    // Aborts so a blank value gets one message, not also the format's.
    z.minLength(1, { error: 'is required', abort: true }),
  );

export const optionalText = z.string({ error: 'must be text' }).check(z.trim(), z.minLength(1, 'must not be empty'));

export const wholeNumber = (unit: string, min: number, max: number) =>
  z
    .number({ error: `must be a number of ${unit}` })
    .check(
      z.int(`must be a whole number of ${unit}`),
      z.minimum(min, `must be at least ${min} ${unit}`),
      z.maximum(max, `must be at most ${max} ${unit}`),
    );

export const flag = z.boolean({ error: 'must be true or false' });

/** The zod schema of one catalog option's value (option-catalog.ts). */
function valueSchema(option: OptionSpec): z.ZodMiniType {
  switch (option.kind) {
    case 'flag':
      return flag;
    case 'number':
      return wholeNumber(option.unit, option.min, option.max);
    case 'text':
      return optionalText;
    case 'choice': {
      const error = choiceProblem(option);
      const named = z.enum(option.values, { error });
      return option.booleans ? z.union([z.boolean(), named], { error }) : named;
    }
  }
}

/** The top-level options: the default filled in where the option has one. */
export type GlobalShape = {
  [O in GlobalOption as O['key']]: O extends { default: unknown }
    ? z.ZodMiniDefault<z.ZodMiniType<ValueOf<O>>>
    : z.ZodMiniOptional<z.ZodMiniType<ValueOf<O>>>;
};
/** A door entry's options: each one absent unless the entry sets it (the value for all doors applies). */
export type PerDoorShape = { [O in PerDoorOption as O['key']]: z.ZodMiniOptional<z.ZodMiniType<ValueOf<O>>> };

export function shapeOf(options: readonly OptionSpec[], withDefault: boolean): Record<string, z.ZodMiniType> {
  return Object.fromEntries(
    options.map((option) => {
      const schema = valueSchema(option);
      const unset = defaultOf(option);
      return [option.key, withDefault && unset !== undefined ? z._default(schema, unset) : z.optional(schema)];
    }),
  );
}

const inSection = (section: ReturnType<typeof sectionOf>): OptionSpec[] =>
  OPTIONS.filter((option) => atTop(option) && sectionOf(option) === section);
/** The top-level options, general ones and the doors', each with its default where it has one. */
export const generalShape = shapeOf(inSection('general'), true);
export const doorOptionsShape = shapeOf(inSection('doors'), true);

/** The catalog's top-level options by key, for the sentence that says what replaces a value that cannot be read. */
export const GLOBAL_OPTIONS = new Map<string, OptionSpec>(OPTIONS.filter(atTop).map((option) => [option.key, option]));

/** What replaces a top-level value that cannot be read, in the catalog's words. */
export function fallbackOf(key: string): string {
  const option = GLOBAL_OPTIONS.get(key);
  return option === undefined ? 'it is ignored' : fallbackSentence(option);
}

/** The catalog's choices, for the near misses of their values. */
export const CHOICES = OPTIONS.filter((option): option is Extract<typeof option, { kind: 'choice' }> => option.kind === 'choice');

/** A choice typed nearly right ("Lock", "locks", "open close") read as the value it nearly is, said in a warning. */
export function nearChoice(option: ChoiceOption, value: unknown, say: (sentence: string) => void): unknown {
  if (typeof value !== 'string' || (option.values as readonly string[]).includes(value)) return value;
  const meant = nearMiss(value, option.values);
  if (meant === undefined) return value;
  say(`${option.key} ${typed(value)} is read as "${meant}"`);
  return meant;
}

/**
 * What an HTTP header value can carry: printable ASCII and Latin-1. undici refuses anything else, so a token with a
 * line break or a curly quote pasted along would fail every request as a "network error" instead of being named here.
 */
const HEADER_SAFE_TEXT = /^[\x20-\x7e\xa0-\xff]+$/;

export const accessTokenSchema = requiredText('text').check(
  z.regex(
    HEADER_SAFE_TEXT,
    'holds a character that cannot be sent in an HTTP header (a line break, a control character, or one outside Latin-1 such as a curly quote or an emoji); paste the token again',
  ),
);

/** True when the address parses and carries a user name or password. */
function hasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.username !== '' || parsed.password !== '';
  } catch {
    return false;
  }
}

export const httpAddress = z.pipe(
  z
    .pipe(
      requiredText('text'),
      z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address, e.g. https://api.example.com' }),
    )
    .check(
      // The plugin appends /oauth/v1/... to the address: a query or fragment would swallow that path (every request a 404).
      z.refine((url) => !/[?#]/.test(url), 'must not have a query (?…) or fragment (#…)'),
      // undici drops user:pass@ without a word; the account is only ever identified by its token.
      z.refine((url) => !hasCredentials(url), 'must not hold a user name or password (user:pass@); the access token goes in accessToken'),
      z.refine((url) => !/\/oauth\/v1\/*$/i.test(url), 'must end before /oauth/v1 (the plugin adds it)'),
    ),
  // The plugin appends /oauth/v1/...; a trailing slash would double it.
  z.transform((url: string) => url.replace(/\/+$/, '')),
);

/** The messages of one value against one schema, each under the given path. */
export function issuesOf(schema: z.ZodMiniType, value: unknown, path: readonly PropertyKey[]): { path: PropertyKey[]; message: string }[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: [...path, ...issue.path], message: issue.message }));
}

// Turns the raw platform block of config.json into a typed, defaulted configuration. Only a missing or unusable
// token or address stops syncing; any other mistake is reported in one sentence and that setting is ignored,
// because a typo in an optional block must not leave every door without updates.
import * as z from './util/zod.js';

import { readKeys } from './config-keys.js';
import { peopleSchema, readPeople } from './people/people-config.js';
import { choiceProblem, fallbackSentence, OPTIONS } from './option-catalog.js';
import type { ChoiceOption, GlobalOption, OptionKey, OptionSpec, PerDoorOption, ValueOf } from './option-catalog.js';
import { nearMiss, nearSecret, quoted, REDACTED } from './util/near-miss.js';
import { DEFAULT_RECONCILE_INTERVAL_S, DEFAULT_WEBHOOK_HEADER_NAME, MIN_RECONCILE_INTERVAL_S, MAX_POLL_INTERVAL_S } from './settings.js';

const requiredText = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) }).check(
    z.trim(),
    // Aborts so a blank value gets one message, not also the format's.
    z.minLength(1, { error: 'is required', abort: true }),
  );

const optionalText = z.string({ error: 'must be text' }).check(z.trim(), z.minLength(1, 'must not be empty'));

const wholeNumber = (unit: string, min: number, max: number) =>
  z
    .number({ error: `must be a number of ${unit}` })
    .check(
      z.int(`must be a whole number of ${unit}`),
      z.minimum(min, `must be at least ${min} ${unit}`),
      z.maximum(max, `must be at most ${max} ${unit}`),
    );

const flag = z.boolean({ error: 'must be true or false' });

/** The zod schema of one catalog option's value (option-catalog.ts): its messages are the ones users read in the log. */
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
type GlobalShape = {
  [O in GlobalOption as O['key']]: O extends { default: unknown }
    ? z.ZodMiniDefault<z.ZodMiniType<ValueOf<O>>>
    : z.ZodMiniOptional<z.ZodMiniType<ValueOf<O>>>;
};
/** A door entry's options: each one absent unless the entry sets it (the value for all doors applies). */
type PerDoorShape = { [O in PerDoorOption as O['key']]: z.ZodMiniOptional<z.ZodMiniType<ValueOf<O>>> };

function shapeOf(options: readonly OptionSpec[], withDefault: boolean): Record<string, z.ZodMiniType> {
  return Object.fromEntries(
    options.map((option) => {
      const schema = valueSchema(option);
      return [option.key, withDefault && 'default' in option ? z._default(schema, option.default) : z.optional(schema)];
    }),
  );
}

const inSection = (section: OptionSpec['section']): OptionSpec[] => OPTIONS.filter((option) => option.global && option.section === section);
/** The top-level options, general ones and the doors', each with its default where it has one. */
const generalShape = shapeOf(inSection('general'), true);
const doorOptionsShape = shapeOf(inSection('doors'), true);

/**
 * What an HTTP header value can carry: printable ASCII and Latin-1. undici refuses anything else, so a token with a
 * line break or a curly quote pasted along would fail every request as a "network error" instead of being named here.
 */
const HEADER_SAFE_TEXT = /^[\x20-\x7e\xa0-\xff]+$/;

const accessTokenSchema = requiredText('text').check(
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

const httpAddress = z.pipe(
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

/** The characters a URL path keeps as they are: the listener compares the request's parsed path with this exactly. */
const WEBHOOK_PATH = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const PATH_MESSAGE = 'must start with / and hold no spaces, ? or # (such as /access-control)';

/** The optional listener for the service's webhooks (contract section 6). */
const webhookSchema = z
  .object({
    /** Off keeps the other settings without a listener; left out, the block's presence turns the listener on. */
    enabled: z.optional(flag),
    port: z
      .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a port number') })
      .check(
        z.int('must be a whole port number'),
        z.minimum(1, 'must be between 1 and 65535'),
        z.maximum(65535, 'must be between 1 and 65535'),
      ),
    host: z.optional(optionalText),
    apiKey: requiredText('text').check(z.regex(/^[0-9a-fA-F]{96}$/, 'must be the 96-character hexadecimal key the service issued')),
    path: z.optional(
      z.string({ error: 'must be text' }).check(
        z.trim(),
        z.regex(WEBHOOK_PATH, { error: PATH_MESSAGE, abort: true }),
        // A path URL parsing rewrites (dot segments) is never what a request's parsed path equals.
        z.refine((path) => new URL(path, 'http://listener.invalid').pathname === path, PATH_MESSAGE),
      ),
    ),
    headerName: z._default(
      z
        .string({ error: 'must be text' })
        .check(z.trim(), z.regex(HEADER_NAME, 'must be an HTTP header name (letters, digits and - such as X-Service-API-Key)')),
      DEFAULT_WEBHOOK_HEADER_NAME,
    ),
    tlsCertFile: z.optional(optionalText),
    tlsKeyFile: z.optional(optionalText),
    reconcileInterval: z._default(wholeNumber('seconds', MIN_RECONCILE_INTERVAL_S, MAX_POLL_INTERVAL_S), DEFAULT_RECONCILE_INTERVAL_S),
  })
  .check(
    z.refine((w) => (w.tlsCertFile === undefined) === (w.tlsKeyFile === undefined), {
      message: 'needs both tlsCertFile and tlsKeyFile, or neither',
      path: ['tlsKeyFile'],
    }),
  );

/** A null, an empty or blank string: what a form writes for a field left empty, read as "not set". */
const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/**
 * No listener when it is switched off, or when the block was never filled in (a settings form may save
 * one holding only defaults). Otherwise the block is checked in full, so a half-done setup is reported.
 */
function listenerWanted(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const block = value as Record<string, unknown>;
  if (block.enabled === false || (isBlank(block.enabled) && isBlank(block.port) && isBlank(block.apiKey))) {
    return undefined;
  }
  return value;
}

/** A list of device or door ids; empty means no filter. */
const idList = z._default(z.array(z.string().check(z.trim(), z.minLength(1)), { error: 'must be a list of ids' }), []);

/** One door's own settings, found by its id (the serial number the Home app shows). Left out: as for all doors. */
const doorSettingsSchema = z.object({
  id: requiredText('text'),
  name: z.optional(optionalText),
  ...(shapeOf(
    OPTIONS.filter((option) => option.perDoor),
    false,
  ) as PerDoorShape),
});

/** The plugin's configuration as users write it in config.json (and the settings form edits it). */
export const configSchema = z.looseObject({
  // The parser reads (and reports) in this order: the general settings, the webhook block, then the doors'.
  ...(generalShape as Pick<GlobalShape, Extract<GlobalOption, { section: 'general' }>['key']>),
  accessToken: accessTokenSchema,
  baseUrl: httpAddress,
  // What classic zod's preprocess is: a transform piped into the schema (zod/mini has no preprocess).
  webhook: z.pipe(z.transform(listenerWanted), z.optional(webhookSchema)),
  ...(doorOptionsShape as Pick<GlobalShape, Extract<GlobalOption, { section: 'doors' }>['key']>),
  doors: z._default(z.array(doorSettingsSchema, { error: 'must be a list of doors' }), []),
  // Filters to split a large account over several child bridges: each platform entry takes its share.
  includeDeviceIds: idList,
  excludeDeviceIds: idList,
  includeDoorIds: idList,
  excludeDoorIds: idList,
  // Person sensors (issue 31): who came through, for automations.
  people: peopleSchema,
});

/**
 * Read-only kept on doors because a protective setting that may concern them could not be read; it holds above each
 * door's own readOnly, since that setting may be the very one the unreadable entry was meant to override.
 */
export interface ReadOnlyLock {
  /** Every door. */
  all: boolean;
  /** Set: only these doors may be opened (an includeDoorIds with an element that cannot be read). */
  openableDoorIds?: string[];
  /** Set: only the doors of these controllers may be opened (likewise for includeDeviceIds). */
  openableDeviceIds?: string[];
}

/**
 * Kinds kept as Home (or Matter) shows them now, because the setting that chooses them could not be read: a typo must
 * not turn every lock into a garage door (Home drops its automations) or take the doors off Matter.
 */
export interface KeptAsCached {
  /** The kind for all doors (showAs) could not be read: a door without a readable kind of its own keeps its cached one. */
  showAs: boolean;
  /** Doors whose own showAs could not be read. */
  showAsDoorIds: string[];
  /** The Matter mode could not be read: the doors stay on Matter as the cache has them (none, if none is). */
  matter: boolean;
  /** A `people` entry (or the list) could not be read: no cached person sensor is removed, a typo must not drop automations. */
  people?: boolean;
}

/** The parsed configuration: every default filled in; keys Homebridge adds (such as _bridge) kept. */
export type PluginConfig = z.output<typeof configSchema> & { readOnlyLock: ReadOnlyLock; keptAsCached: KeptAsCached };
export type WebhookConfig = z.output<typeof webhookSchema>;
export type DoorSettings = z.output<typeof doorSettingsSchema>;

/**
 * `ok`: the plugin runs with `config`; each `warnings` entry is one sentence about a key or value read as the one it
 * nearly is, or a key the plugin does not know (named, never guessed at silently); each `ignored` entry is one sentence about a setting that was left out
 * (field path, what is wrong, what happens instead). Not `ok`: the token or address is missing or unusable (or the
 * block is not an object), so nothing syncs; `problems` names those and every other mistake. No value is ever quoted.
 */
export type ConfigResult = { ok: true; config: PluginConfig; ignored: string[]; warnings: string[] } | { ok: false; problems: string[] };

/** The catalog's top-level options by key, for the sentence that says what replaces a value that cannot be read. */
const GLOBAL_OPTIONS = new Map<string, OptionSpec>(OPTIONS.filter((option) => option.global).map((option) => [option.key, option]));

/** What a filter that cannot be read, or holds an element that cannot be, leaves in force (said after its problem). */
const FILTERS: Record<
  'includeDeviceIds' | 'excludeDeviceIds' | 'includeDoorIds' | 'excludeDoorIds',
  { kind: 'include' | 'exclude'; unnamed: string }
> = {
  includeDeviceIds: { kind: 'include', unnamed: 'every door of a controller it does not name is read-only' },
  excludeDeviceIds: { kind: 'exclude', unnamed: 'every door shown is read-only' },
  includeDoorIds: { kind: 'include', unnamed: 'every door it does not name is read-only' },
  excludeDoorIds: { kind: 'exclude', unnamed: 'every door shown is read-only' },
};

/** The settings that keep a door from being opened or shown: an entry that cannot be read must not drop them. */
const PROTECTIVE = ['readOnly', 'hide', 'automationSwitch'] as const satisfies readonly OptionKey[];

/** How much each automation switch value lets Home do, least first: of two, the lower is the more protective. */
const SWITCH_REACH = new Map<string, number>([
  ['false', 0],
  ['off', 0],
  ['true', 1],
  ['open', 1],
  ['open-close', 2],
]);

/** Keys of the platform block that are Homebridge's, not the plugin's: kept, never named. */
const HOMEBRIDGE_KEYS = ['platform', '_bridge'];
/** The keys a door entry may hold. */
const DOOR_KEYS = ['id', 'name', ...OPTIONS.filter((option) => option.perDoor).map((option) => option.key)];

/** How much an automation switch value lets Home do; one that cannot be read counts as least (it is read as off). */
function switchReach(value: unknown): number {
  const text = typeof value === 'string' ? (nearMiss(value, ['off', 'open', 'open-close']) ?? value) : String(value);
  return SWITCH_REACH.get(text) ?? -1;
}

/**
 * One value for a key written several ways (readOnly and "readonly") with different values: the most protective. A
 * read-only that is not plainly false wins (one that cannot be read fails closed later), the switch that opens least,
 * "owned" over "all", and exclusions add up. Undefined: no rule, the key as spelt (or first) wins.
 */
function mostProtective(key: string, values: unknown[]): unknown {
  if (key === 'readOnly' || key === 'hide') {
    return values.includes(true) ? true : (values.find((value) => !isBlank(value) && value !== false) ?? false);
  }
  if (key === 'automationSwitch') return values.reduce((a, b) => (switchReach(b) < switchReach(a) ? b : a));
  if (key === 'includeDoors') return values.find((value) => typeof value === 'string' && nearMiss(value, ['all', 'owned']) === 'owned');
  if ((key === 'excludeDeviceIds' || key === 'excludeDoorIds') && values.every(Array.isArray)) return values.flat();
  return undefined;
}

/** Whether an unknown key's value may mean protection (a read-only or a filter that is not plainly off). */
const mayProtect = (value: unknown): boolean => !isBlank(value) && value !== false && !(Array.isArray(value) && value.length === 0);

/** The access token and the webhook key, wherever a near miss of their keys put them: never quoted in a sentence. */
function secretsOf(block: Record<string, unknown>): unknown[] {
  const found: unknown[] = [];
  for (const [key, value] of Object.entries(block)) {
    const top = ['accessToken', 'webhook'].includes(key) ? key : nearMiss(key, ['accessToken', 'webhook']);
    if (top === 'accessToken') found.push(value);
    if (top === 'webhook' && isRecord(value)) {
      found.push(...Object.entries(value).flatMap(([k, v]) => (k === 'apiKey' || nearMiss(k, ['apiKey']) === 'apiKey' ? [v] : [])));
    }
  }
  return found;
}

/** A choice typed nearly right ("Lock", "locks", "open close") read as the value it nearly is, said in a warning. */
function nearChoice(option: ChoiceOption, value: unknown, say: (sentence: string) => void, secrets: unknown[]): unknown {
  if (typeof value !== 'string' || (option.values as readonly string[]).includes(value)) return value;
  const meant = nearMiss(value, option.values);
  if (meant === undefined) return value;
  say(`${option.key} ${quoted(value, secrets)} is read as "${meant}"`);
  return meant;
}

function fallbackOf(key: string): string {
  const option = GLOBAL_OPTIONS.get(key);
  return option === undefined ? 'it is ignored' : fallbackSentence(option);
}

const WEBHOOKS_OFF = 'webhooks are off until it is fixed';

/** The catalog's choices, for the near misses of their values. */
const CHOICES = OPTIONS.filter((option): option is Extract<typeof option, { kind: 'choice' }> => option.kind === 'choice');

/** What a top-level value that cannot be read is read as (the catalog's `unreadable`): undefined leaves it out. */
function unreadableValue(key: string, findings: Findings): unknown {
  const unreadable = GLOBAL_OPTIONS.get(key)?.unreadable;
  if (unreadable !== 'as-cached') return unreadable;
  if (key === 'showAs' || key === 'matter') findings.kept[key] = true;
  return undefined;
}

type Path = readonly PropertyKey[];

/** The messages of one value against one schema, each as "<path> <message>" under the given path. */
function issuesOf(schema: z.ZodMiniType, value: unknown, path: Path): { path: Path; message: string }[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => ({ path: [...path, ...issue.path], message: issue.message }));
}

const dotted = (path: Path): string => (path.length > 0 ? path.map(String).join('.') : 'configuration');

/** "a", "a and b", "a, b and c": several mistakes of one block in one sentence. */
function listing(all: string[]): string {
  const parts = [...new Set(all)];
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** A copy of an object without the keys whose value is blank: a form's empty field means "not set". */
function withoutBlanks(block: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(block).filter(([, value]) => !isBlank(value)));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Collects, while the block is read, the sentences for the log and the plain problems for a refused block. */
class Findings {
  readonly ignored: string[] = [];
  /** Near misses read as what they nearly are, and keys the plugin does not know. */
  readonly warnings: string[] = [];
  /** Doors kept read-only because something protective could not be read. */
  readonly lock: ReadOnlyLock = { all: false };
  readonly kept: KeptAsCached = { showAs: false, showAsDoorIds: [], matter: false, people: false };
  /** Every mistake as "<path> <message>", for the one line of a config that cannot run at all. */
  readonly plain: string[] = [];

  add(issues: { path: Path; message: string }[], sentence: string): void {
    this.plain.push(...issues.map((issue) => `${dotted(issue.path)} ${issue.message}`));
    this.ignored.push(sentence);
  }
}

/**
 * An id as written: text, or a whole number (the service's ids may be numbers, and it reads them as their text, so the
 * two must match). A number JSON cannot hold exactly (beyond 2^53, where 9007199254740993 reads as ...992) is no id:
 * it may name another door than the one meant. Undefined: not an id. The settings page reads ids with this too.
 */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** What is wrong with a value that is no id, in the parser's words. */
function idProblem(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) && Number.isInteger(value)
    ? 'is a number too large to be read exactly (beyond 2^53); write the id in quotes, as text'
    : 'must be an id (text or a number)';
}

/** The protective settings an entry holds: a readOnly or hide that is not false, any automationSwitch (off is one). */
function protectionIn(entry: Record<string, unknown>): string[] {
  return PROTECTIVE.filter((key) => !isBlank(entry[key]) && (key === 'automationSwitch' || entry[key] !== false));
}

/**
 * What is left of an entry that cannot be read but names its door: read-only, no automation switch, hidden only when it
 * says so plainly (a door is never taken out of Home on a guess).
 */
function protectiveReading(id: string, entry: Record<string, unknown>): Record<string, unknown> {
  return { id, readOnly: true, automationSwitch: 'off', ...(entry.hide === true ? { hide: true } : {}) };
}

/** Two entries for one door as one: the more protective readOnly, hide and switch win; for the rest, the first. */
function merged(first: Record<string, unknown>, second: Record<string, unknown>): Record<string, unknown> {
  const entry = { ...second, ...first };
  for (const key of ['readOnly', 'hide'] as const) {
    if (first[key] === true || second[key] === true) entry[key] = true;
  }
  // Both entries are already read, so each switch is a boolean or a mode.
  const reach = (value: unknown): number =>
    SWITCH_REACH.get(typeof value === 'string' || typeof value === 'boolean' ? String(value) : 'off') ?? 0;
  const switches = [first.automationSwitch, second.automationSwitch].filter((value) => value !== undefined);
  if (switches.length > 0) {
    entry.automationSwitch = switches.reduce((a, b) => (reach(b) < reach(a) ? b : a));
  }
  return entry;
}

/**
 * A door's id as it may appear in a sentence, in quotes: only a plain id (the service's are UUIDs), never text that
 * could forge a log line, and [redacted] for anything near a secret (the token pasted with a character more or less).
 */
function quotableId(id: unknown, secrets: unknown[]): string | undefined {
  const trimmed = idOf(id);
  if (trimmed === undefined) return undefined;
  if (nearSecret(trimmed, secrets)) return REDACTED;
  return /^[\w.:-]{1,64}$/.test(trimmed) ? `"${trimmed}"` : undefined;
}

function readWebhook(value: unknown, findings: Findings, secrets: unknown[]): unknown {
  if (isBlank(value)) return undefined;
  if (!isRecord(value)) {
    findings.add(
      [{ path: ['webhook'], message: 'must be a block of settings' }],
      `webhook must be a block of settings ({ … }); ${WEBHOOKS_OFF}`,
    );
    return undefined;
  }
  // Its keys first: "Enabled": false must turn the listener off as "enabled" does.
  const keys = readKeys(value, { known: Object.keys(webhookSchema.shape), secrets });
  findings.warnings.push(...keys.sentences.map((sentence) => `in webhook, ${sentence}`));
  const wanted = listenerWanted(keys.block);
  if (!isRecord(wanted)) return undefined;
  const block = withoutBlanks(wanted);
  const issues = issuesOf(webhookSchema, block, ['webhook']);
  const [rest, pace] = [issues.filter((i) => i.path[1] !== 'reconcileInterval'), issues.filter((i) => i.path[1] === 'reconcileInterval')];
  if (rest.length > 0) {
    findings.add(issues, `${listing(issues.map((i) => `${dotted(i.path)} ${i.message}`))}; ${WEBHOOKS_OFF}`);
    return undefined;
  }
  if (pace.length > 0) {
    // A bad safety-net pace alone is no reason to lose real-time updates.
    findings.add(
      pace,
      `${listing(pace.map((i) => `${dotted(i.path)} ${i.message}`))}; the default, ${DEFAULT_RECONCILE_INTERVAL_S} seconds, is used`,
    );
    delete block.reconcileInterval;
  }
  return block;
}

const LOCK_ALL = 'every door is read-only until it is fixed';

/** Says which protective settings an entry sets for a door it does not name, and locks every door. */
function lockForUnnamed(entry: Record<string, unknown>, findings: Findings): string | undefined {
  const protection = protectionIn(entry);
  if (protection.length === 0) return undefined;
  findings.lock.all = true;
  return `as it sets ${listing(protection)} for a door that cannot be told, ${LOCK_ALL}`;
}

/** "doors" written as one entry, not a list: only its protection is kept, for the door it names or, unnamed, for all. */
function readLoneDoor(value: unknown, findings: Findings, secrets: unknown[]): Record<string, unknown>[] {
  const problem = [{ path: ['doors'], message: 'must be a list of doors' }];
  const start = 'doors must be a list of door settings';
  if (!isRecord(value)) {
    findings.add(problem, `${start}; every door uses the settings for all doors`);
    return [];
  }
  const keys = readKeys(value, { known: DOOR_KEYS, secrets, combine: mostProtective });
  findings.warnings.push(...keys.sentences.map((sentence) => `in doors, ${sentence}`));
  const entry = withoutBlanks(keys.block);
  const lead = `${start} ([{ "id": … }]), not one door's settings`;
  const id = idOf(entry.id);
  if (id === undefined) {
    findings.add(problem, `${lead}; ${lockForUnnamed(entry, findings) ?? 'it is ignored, so every door uses the settings for all doors'}`);
    return [];
  }
  if (protectionIn(entry).length === 0) {
    findings.add(problem, `${lead}; it is ignored, so every door uses the settings for all doors`);
    return [];
  }
  const shownId = quotableId(id, secrets);
  const door = shownId === undefined ? 'the door it names' : `door ${shownId}`;
  const state = entry.hide === true ? 'hidden' : 'read-only, without an automation switch,';
  findings.add(problem, `${lead}; only its protection is kept: ${door} is ${state} until it is fixed`);
  return [protectiveReading(id, entry)];
}

/** What an entry's unreadable settings leave: protective ones fail closed, the kind stays as Home shows it, others are dropped. */
function consequenceOf(bad: string[]): string {
  const kept = [
    bad.includes('readOnly') || bad.includes('hide') ? 'is read-only' : undefined,
    bad.includes('automationSwitch') ? 'has no automation switch' : undefined,
    bad.includes('showAs') ? 'keeps the kind Home shows now' : undefined,
  ].filter((part) => part !== undefined);
  const others = bad.filter((key) => !(PROTECTIVE as readonly string[]).includes(key) && key !== 'showAs').length;
  if (kept.length === 0) {
    return others === 1 ? 'that setting is ignored for this door' : 'those settings are ignored for this door';
  }
  const head = `this door ${listing(kept)} until it is fixed`;
  return others === 0 ? head : `${head}, and the other ${others === 1 ? 'setting is' : 'settings are'} ignored`;
}

/**
 * Each door entry on its own: an entry without a usable id is dropped; otherwise only its bad settings are, so the
 * rest of what the user set for that door (read-only above all) still holds. A protective setting that cannot be read
 * fails closed: an unreadable readOnly or hide makes the door read-only, an unreadable switch gives it none, and an
 * entry that cannot be told from others keeps every door read-only.
 */
function readDoors(value: unknown, findings: Findings, secrets: unknown[]): unknown {
  if (isBlank(value)) return undefined;
  if (!Array.isArray(value)) {
    return readLoneDoor(value, findings, secrets);
  }
  const doors: Record<string, unknown>[] = [];
  const firstIndex = new Map<string, number>();
  value.forEach((raw: unknown, index) => {
    const at = `doors.${index}`;
    if (isBlank(raw) || (isRecord(raw) && Object.keys(withoutBlanks(raw)).length === 0)) {
      return; // An entry the form opened and nobody filled in: nothing was meant.
    }
    if (!isRecord(raw)) {
      findings.add(
        [{ path: ['doors', index], message: "must be one door's settings" }],
        `${at} must be one door's settings ({ "id": … }); it is ignored`,
      );
      return;
    }
    const keys = readKeys(raw, {
      known: DOOR_KEYS,
      secrets,
      combine: mostProtective,
      doubt: (key, value) =>
        (key === 'readOnly' || key === 'hide') && mayProtect(value) ? 'this door is read-only until it is fixed' : undefined,
    });
    const entry = withoutBlanks(keys.block);
    const writtenId = entry.id;
    const doorId = idOf(writtenId);
    if (doorId !== undefined) entry.id = doorId;
    const id = quotableId(doorId, secrets);
    const named = id === undefined ? at : `${at} (id ${id})`;
    const say = (sentence: string): void => void findings.warnings.push(`${named}: ${sentence}`);
    keys.sentences.forEach(say);
    for (const option of CHOICES) {
      if (option.perDoor && option.key in entry) entry[option.key] = nearChoice(option, entry[option.key], say, secrets);
    }
    const fieldIssues = Object.entries(doorSettingsSchema.shape).flatMap(([key, schema]) =>
      key === 'id' && writtenId !== undefined && doorId === undefined
        ? [{ path: ['doors', index, 'id'], message: idProblem(writtenId) }]
        : key in entry
          ? issuesOf(schema, entry[key], ['doors', index, key])
          : key === 'id'
            ? [{ path: ['doors', index, 'id'], message: 'is required' }]
            : [],
    );
    const said = (issues: typeof fieldIssues): string => listing(issues.map((i) => `${String(i.path[2])} ${i.message}`));
    if (doorId === undefined || fieldIssues.some((i) => i.path[2] === 'id')) {
      const locked = lockForUnnamed(entry, findings);
      findings.add(fieldIssues, `${named} ${said(fieldIssues)}; this entry is ignored${locked === undefined ? '' : `, and ${locked}`}`);
      return;
    }
    if (fieldIssues.length > 0) {
      const bad = [...new Set(fieldIssues.map((i) => String(i.path[2])))];
      findings.add(fieldIssues, `${named} ${said(fieldIssues)}; ${consequenceOf(bad)}`);
      for (const key of bad) delete entry[key];
      // Same reason as the global readOnly: an entry meant to protect a door must not leave it openable (a hide that
      // cannot be read keeps the door shown, but read-only: it is never taken out of Home on a guess).
      if (bad.includes('readOnly') || bad.includes('hide')) entry.readOnly = true;
      // The switch that opens least, not the global one: the entry was there to set this door apart.
      if (bad.includes('automationSwitch')) entry.automationSwitch = 'off';
      // Not the kind for all doors either: the one Home shows now, so the door's automations stay.
      if (bad.includes('showAs')) findings.kept.showAsDoorIds.push(doorId);
    }
    // An unknown key that may have meant readOnly or hide: the door is not left openable on a guess.
    if (keys.doubts.length > 0) entry.readOnly = true;
    const first = firstIndex.get(doorId);
    if (first !== undefined) {
      findings.add(
        [{ path: ['doors', index, 'id'], message: `repeats doors.${first}` }],
        `${named} is a second entry for the same door as doors.${first}; they are merged: the more protective readOnly, hide and automationSwitch win, and doors.${first} comes first for the other settings`,
      );
      const slot = doors.findIndex((door) => door.id === doorId);
      doors[slot] = merged(doors[slot] ?? {}, entry);
      return;
    }
    firstIndex.set(doorId, index);
    doors.push(entry);
  });
  return doors;
}

/**
 * A filter, element by element: blank ones are dropped, numbers read as ids. One that cannot be read must not widen
 * what Home may open: an exclude list keeps its readable ids and every door shown becomes read-only; an include list
 * hides nothing (it might hide the very door the bad element named) and the doors it does not name become read-only.
 */
function readFilter(key: keyof typeof FILTERS, value: unknown, findings: Findings): unknown {
  if (isBlank(value)) return undefined;
  const { kind } = FILTERS[key];
  const unreadable = (sentence: string, issues: { path: Path; message: string }[], readable: string[]): string[] => {
    findings.add(issues, sentence);
    if (kind === 'exclude') {
      findings.lock.all = true;
      return readable;
    }
    const openable = key === 'includeDoorIds' ? 'openableDoorIds' : 'openableDeviceIds';
    findings.lock[openable] = readable;
    return [];
  };
  if (!Array.isArray(value)) {
    const lone = idOf(value);
    const problem = [{ path: [key], message: 'must be a list of ids' }];
    if (lone !== undefined) {
      findings.add(problem, `${key} must be a list of ids ([ … ]); the one id it holds is used`);
      return [lone];
    }
    // Not even a list: no door can be placed, so none may be opened.
    findings.add(
      problem,
      `${key} must be a list of ids ([ … ]); this filter ${kind === 'exclude' ? 'keeps' : 'leaves'} no door out, and ${LOCK_ALL}`,
    );
    findings.lock.all = true;
    return [];
  }
  const ids: string[] = [];
  const bad: number[] = [];
  value.forEach((element: unknown, index) => {
    if (isBlank(element)) return;
    const id = idOf(element);
    if (id === undefined) bad.push(index);
    else ids.push(id);
  });
  if (bad.length === 0) return ids;
  const paths = bad.map((index) => `${key}.${index}`);
  const must = bad.length === 1 ? idProblem(value[bad[0] ?? 0]) : 'must be ids (text or a number)';
  const issues = bad.map((index) => ({ path: [key, index], message: idProblem(value[index]) }));
  const { unnamed } = FILTERS[key];
  const then =
    kind === 'exclude'
      ? `the other ids still apply, and ${unnamed} until it is fixed`
      : `this filter leaves no door out until it is fixed, and ${unnamed}`;
  return unreadable(`${listing(paths)} ${must}; ${then}`, issues, ids);
}

/**
 * Reads the platform block. Never throws, never quotes a value (the token is secret, and a value pasted in the
 * wrong field may be the token): each message names the field and what is wrong.
 */
export function parseConfig(raw: unknown): ConfigResult {
  const block: unknown = raw ?? {};
  if (!isRecord(block)) {
    return { ok: false, problems: ['the configuration must be an object ({ … }) with accessToken and baseUrl'] };
  }
  const findings = new Findings();
  const secrets = secretsOf(block);
  // Every key known, read as the known key it nearly is, or named; an unknown one that may mean protection fails closed.
  const keys = readKeys(block, {
    known: Object.keys(configSchema.shape),
    others: HOMEBRIDGE_KEYS,
    secrets,
    combine: mostProtective,
    doubt: (key, value) => ((key === 'readOnly' || key in FILTERS) && mayProtect(value) ? LOCK_ALL : undefined),
  });
  findings.warnings.push(...keys.sentences);
  if (keys.doubts.length > 0) findings.lock.all = true;
  const read = keys.block;
  const fatal = [
    ...issuesOf(accessTokenSchema, read.accessToken ?? undefined, ['accessToken']),
    ...issuesOf(httpAddress, read.baseUrl ?? undefined, ['baseUrl']),
  ].map((issue) => `${dotted(issue.path)} ${issue.message}`);

  // Unknown keys (settings of a newer version, named above) and Homebridge's _bridge are kept as they are.
  const input: Record<string, unknown> = { ...read };
  for (const key of Object.keys(configSchema.shape) as (keyof typeof configSchema.shape)[]) {
    const value = read[key];
    if (key === 'accessToken' || key === 'baseUrl') continue;
    if (key === 'webhook') {
      input[key] = readWebhook(value, findings, secrets);
    } else if (key === 'doors') {
      input[key] = readDoors(value, findings, secrets);
    } else if (key === 'people') {
      input[key] = readPeople(
        value,
        {
          add: (issues, sentence) => findings.add(issues, sentence),
          warn: (sentence) => findings.warnings.push(sentence),
          keepCached: () => (findings.kept.people = true),
        },
        secrets,
      );
    } else if (key in FILTERS) {
      input[key] = readFilter(key as keyof typeof FILTERS, value, findings);
    } else if (isBlank(value)) {
      input[key] = undefined;
    } else {
      const option = GLOBAL_OPTIONS.get(key);
      const typed = option?.kind === 'choice' ? nearChoice(option, value, (sentence) => findings.warnings.push(sentence), secrets) : value;
      input[key] = typed;
      const issues = issuesOf(configSchema.shape[key], typed, [key]);
      if (issues.length > 0) {
        findings.add(issues, `${listing(issues.map((i) => `${dotted(i.path)} ${i.message}`))}; ${fallbackOf(key)}`);
        input[key] = unreadableValue(key, findings);
      }
    }
  }

  if (fatal.length > 0) {
    // Nothing runs, so the user gets every mistake at once, the blocking ones first.
    return { ok: false, problems: [...fatal, ...findings.plain] };
  }
  const result = configSchema.safeParse(input);
  if (!result.success) {
    // Unreachable while every field above is checked on its own; kept so a schema change can never throw or pass silently.
    return { ok: false, problems: result.error.issues.map((issue) => `${dotted(issue.path)} ${issue.message}`) };
  }
  return {
    ok: true,
    config: { ...result.data, readOnlyLock: findings.lock, keptAsCached: findings.kept },
    ignored: findings.ignored,
    warnings: findings.warnings,
  };
}

// What the settings page may send its server, and a short sentence naming each wrong field by the label the page shows.
import * as z from '../../util/zod.js';

import { ACTIVITY_DOORS_PER_REQUEST } from '../../settings.js';
import { oneLine } from '../../util/log-text.js';
import { withoutSecrets } from '../../util/redact.js';
import type { Secrets } from '../../util/redact.js';
import { LABELS } from '../shared/labels.js';

interface Field<T> {
  schema: z.ZodMiniType<T>;
  /** Said after the label when the value does not fit; never quotes the value (it may be a secret typed in the wrong field). */
  problem: string;
}

const field = <T>(schema: z.ZodMiniType<T>, problem: string): Field<T> => ({ schema, problem });

const port = z.number().check(z.int(), z.minimum(1), z.maximum(65535));
const PORT_PROBLEM = 'must be a whole number from 1 to 65535';
const text = field(z.optional(z.string()), 'must be text');
/** A door id as the sync gave it (the page sends back ids it got); the ids of one request, a few at a time. */
const doorIds = z
  .array(z.string().check(z.trim(), z.minLength(1), z.maxLength(200)))
  .check(z.minLength(1), z.maxLength(ACTIVITY_DOORS_PER_REQUEST));

type Shape = Record<string, Field<unknown>>;
type Data<S extends Shape> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

/** Each request's fields; the server answers anything else with a sentence, never an exception. */
export const REQUESTS = {
  // Checked by the plugin's own parser in signIn, which names a missing or malformed value itself.
  signIn: { baseUrl: field(z.unknown(), ''), accessToken: field(z.unknown(), '') },
  checkPort: {
    port: field(port, PORT_PROBLEM),
    host: text,
    entryIndex: field(z.optional(z.number().check(z.int(), z.minimum(0))), 'must be the number of an entry'),
    savedPort: field(z.optional(port), PORT_PROBLEM),
  },
  testEvent: {
    port: field(port, PORT_PROBLEM),
    host: text,
    path: text,
    apiKey: field(z.string(), 'must be text'),
    headerName: text,
    tls: field(z.boolean(), 'must be a file name, or empty'),
  },
  activity: {
    baseUrl: field(z.unknown(), ''),
    accessToken: field(z.unknown(), ''),
    doorIds: field(doorIds, `must be a list of 1 to ${ACTIVITY_DOORS_PER_REQUEST} door ids`),
  },
} satisfies Record<string, Shape>;

export type RequestRead<T> = { ok: true; data: T } | { ok: false; message: string };

export const UNREADABLE_REQUEST = 'The settings page sent a request the settings server cannot read; reload the page.';

/** The request's fields, or one sentence per wrong field ("Listener port must be …."); unknown keys are left out. */
export function readRequest<S extends Shape>(shape: S, payload: unknown): RequestRead<Data<S>> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { ok: false, message: UNREADABLE_REQUEST };
  }
  const given = payload as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, { schema, problem }] of Object.entries(shape)) {
    const parsed = schema.safeParse(given[key]);
    if (parsed.success) {
      data[key] = parsed.data;
    } else {
      problems.push(`${Object.hasOwn(LABELS, key) ? LABELS[key as keyof typeof LABELS] : key} ${problem}.`);
    }
  }
  return problems.length > 0 ? { ok: false, message: problems.join(' ') } : { ok: true, data: data as Data<S> };
}

/** The secrets a request carries (a sign-in's access token, a test event's webhook key): its answer repeats neither. */
export function secretsIn(payload: unknown): unknown[] {
  return typeof payload === 'object' && payload !== null ? [Reflect.get(payload, 'accessToken'), Reflect.get(payload, 'apiKey')] : [];
}

/**
 * Runs one request's handler so that it answers whatever happens. A handler that throws would reach the page as a
 * rejected request (the page waits on "Signing in…" for ever) and the UI utilities print its stack on stderr; what it
 * threw is said without `secrets`, in any spelling.
 */
export async function answer<T>(work: () => T | Promise<T>, failed: (message: string) => T, secrets: Secrets): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const said = withoutSecrets(error instanceof Error ? error.message : String(error), secrets);
    return failed(`The settings server could not answer: ${oneLine(said)}.`);
  }
}

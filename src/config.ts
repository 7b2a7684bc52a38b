// Turns the raw platform block of config.json into a typed, defaulted configuration. Only a missing or unusable
// token or address stops syncing; any other mistake is reported in one sentence and that setting is ignored,
// because a typo in an optional block must not leave every door without updates.
import { z } from 'zod';

import {
  DEFAULT_ACCESS_ALERT_DURATION_S,
  MAX_ACCESS_ALERT_DURATION_S,
  MIN_ACCESS_ALERT_DURATION_S,
  DEFAULT_LOW_BATTERY_THRESHOLD_PCT,
  DEFAULT_RECONCILE_INTERVAL_S,
  DEFAULT_WEBHOOK_HEADER_NAME,
  MAX_LEFT_OPEN_AFTER_S,
  MIN_LEFT_OPEN_AFTER_S,
  MIN_RECONCILE_INTERVAL_S,
  DEFAULT_POLL_INTERVAL_S,
  DEFAULT_TRANSITION_TIMEOUT_S,
  MAX_POLL_INTERVAL_S,
  MAX_TRANSITION_TIMEOUT_S,
  MIN_POLL_INTERVAL_S,
  MIN_TRANSITION_TIMEOUT_S,
} from './settings.js';

const DEFAULT_NAME = 'Access Control';

const requiredText = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) })
    .trim()
    // Aborts so a blank value gets one message, not also the format's.
    .min(1, { error: 'is required', abort: true });

const optionalText = z.string({ error: 'must be text' }).trim().min(1, 'must not be empty');

const wholeNumber = (unit: string, min: number, max: number) =>
  z
    .number({ error: `must be a number of ${unit}` })
    .int(`must be a whole number of ${unit}`)
    .min(min, `must be at least ${min} ${unit}`)
    .max(max, `must be at most ${max} ${unit}`);

const flag = z.boolean({ error: 'must be true or false' });

/**
 * The automation switch: off (false, "off"), open only (true, "open": on opens, the switch turns itself off again,
 * off sends nothing) or open and close ("open-close": on opens, off closes). `true` once meant open and close; it
 * now means open only, the safe choice, so a "turn everything off" scene can never close a gate.
 */
export const AUTOMATION_SWITCH_MODES = ['off', 'open', 'open-close'] as const;
const switchMode = z.union([z.boolean(), z.enum(AUTOMATION_SWITCH_MODES)], {
  error: 'must be "off", "open" (open only) or "open-close" (open and close)',
});

/**
 * What an HTTP header value can carry: printable ASCII and Latin-1. undici refuses anything else, so a token with a
 * line break or a curly quote pasted along would fail every request as a "network error" instead of being named here.
 */
const HEADER_SAFE_TEXT = /^[\x20-\x7e\xa0-\xff]+$/;

const accessTokenSchema = requiredText('text').regex(
  HEADER_SAFE_TEXT,
  'holds a character that cannot be sent in an HTTP header (a line break, a control character, or one outside Latin-1 such as a curly quote or an emoji); paste the token again',
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

const httpAddress = requiredText('text')
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address, e.g. https://api.example.com' }))
  // The plugin appends /oauth/v1/... to the address: a query or fragment would swallow that path (every request a 404).
  .refine((url) => !/[?#]/.test(url), 'must not have a query (?…) or fragment (#…)')
  // undici drops user:pass@ without a word; the account is only ever identified by its token.
  .refine((url) => !hasCredentials(url), 'must not hold a user name or password (user:pass@); the access token goes in accessToken')
  .refine((url) => !/\/oauth\/v1\/*$/i.test(url), 'must end before /oauth/v1 (the plugin adds it)')
  // The plugin appends /oauth/v1/...; a trailing slash would double it.
  .transform((url) => url.replace(/\/+$/, ''));

/** The characters a URL path keeps as they are: the listener compares the request's parsed path with this exactly. */
const WEBHOOK_PATH = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const PATH_MESSAGE = 'must start with / and hold no spaces, ? or # (such as /access-control)';

/** The optional listener for the service's webhooks (contract section 6). */
const webhookSchema = z
  .object({
    /** Off keeps the other settings without a listener; left out, the block's presence turns the listener on. */
    enabled: flag.optional(),
    port: z
      .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a port number') })
      .int('must be a whole port number')
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535'),
    host: optionalText.optional(),
    apiKey: requiredText('text').regex(/^[0-9a-fA-F]{96}$/, 'must be the 96-character hexadecimal key the service issued'),
    path: z
      .string({ error: 'must be text' })
      .trim()
      .regex(WEBHOOK_PATH, { error: PATH_MESSAGE, abort: true })
      // A path URL parsing rewrites (dot segments) is never what a request's parsed path equals.
      .refine((path) => new URL(path, 'http://listener.invalid').pathname === path, PATH_MESSAGE)
      .optional(),
    headerName: z
      .string({ error: 'must be text' })
      .trim()
      .regex(HEADER_NAME, 'must be an HTTP header name (letters, digits and - such as X-Service-API-Key)')
      .default(DEFAULT_WEBHOOK_HEADER_NAME),
    tlsCertFile: optionalText.optional(),
    tlsKeyFile: optionalText.optional(),
    reconcileInterval: wholeNumber('seconds', MIN_RECONCILE_INTERVAL_S, MAX_POLL_INTERVAL_S).default(DEFAULT_RECONCILE_INTERVAL_S),
  })
  .refine((w) => (w.tlsCertFile === undefined) === (w.tlsKeyFile === undefined), {
    message: 'needs both tlsCertFile and tlsKeyFile, or neither',
    path: ['tlsKeyFile'],
  });

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
const idList = z.array(z.string().trim().min(1), { error: 'must be a list of ids' }).default([]);

/** One door's own settings, found by its id (the serial number the Home app shows). Left out: as for all doors. */
const doorSettingsSchema = z.object({
  id: requiredText('text'),
  name: optionalText.optional(),
  hide: flag.optional(),
  readOnly: flag.optional(),
  automationSwitch: switchMode.optional(),
  leftOpenSensor: flag.optional(),
  leftOpenAfter: wholeNumber('seconds', MIN_LEFT_OPEN_AFTER_S, MAX_LEFT_OPEN_AFTER_S).optional(),
  contactSensor: flag.optional(),
  hideBattery: flag.optional(),
  accessAlert: flag.optional(),
});

/** The plugin's configuration as users write it in config.json (and the settings form edits it). */
export const configSchema = z.looseObject({
  name: optionalText.default(DEFAULT_NAME),
  accessToken: accessTokenSchema,
  baseUrl: httpAddress,
  pollInterval: wholeNumber('seconds', MIN_POLL_INTERVAL_S, MAX_POLL_INTERVAL_S).default(DEFAULT_POLL_INTERVAL_S),
  transitionTimeout: wholeNumber('seconds', MIN_TRANSITION_TIMEOUT_S, MAX_TRANSITION_TIMEOUT_S).default(
    DEFAULT_TRANSITION_TIMEOUT_S,
  ),
  lowBatteryThreshold: wholeNumber('percent', 0, 100).default(DEFAULT_LOW_BATTERY_THRESHOLD_PCT),
  webhook: z.preprocess(listenerWanted, webhookSchema.optional()),
  includeDoors: z.enum(['all', 'owned'], { error: 'must be "all" or "owned"' }).default('all'),
  readOnly: flag.default(false),
  automationSwitch: switchMode.default(false),
  leftOpenSensor: flag.default(false),
  leftOpenAfter: wholeNumber('seconds', MIN_LEFT_OPEN_AFTER_S, MAX_LEFT_OPEN_AFTER_S).optional(),
  contactSensor: flag.default(false),
  hideBattery: flag.default(false),
  accessAlert: flag.default(false),
  accessAlertDuration: wholeNumber('seconds', MIN_ACCESS_ALERT_DURATION_S, MAX_ACCESS_ALERT_DURATION_S).default(DEFAULT_ACCESS_ALERT_DURATION_S),
  doors: z.array(doorSettingsSchema, { error: 'must be a list of doors' }).default([]),
  // Filters to split a large account over several child bridges: each platform entry takes its share.
  includeDeviceIds: idList,
  excludeDeviceIds: idList,
  includeDoorIds: idList,
  excludeDoorIds: idList,
});

/** The parsed configuration: every default filled in; keys Homebridge adds (such as _bridge) kept. */
export type PluginConfig = z.output<typeof configSchema>;
export type WebhookConfig = z.output<typeof webhookSchema>;
export type DoorSettings = z.output<typeof doorSettingsSchema>;

/**
 * `ok`: the plugin runs with `config`; each `ignored` entry is one sentence about a setting that was left out
 * (field path, what is wrong, what happens instead). Not `ok`: the token or address is missing or unusable (or the
 * block is not an object), so nothing syncs; `problems` names those and every other mistake. No value is ever quoted.
 */
export type ConfigResult = { ok: true; config: PluginConfig; ignored: string[] } | { ok: false; problems: string[] };

/** What replaces a top-level setting that cannot be read, said after its problem. */
const FALLBACKS: Partial<Record<keyof typeof configSchema.shape, string>> = {
  name: `"${DEFAULT_NAME}" is used`,
  pollInterval: `the default, ${DEFAULT_POLL_INTERVAL_S} seconds, is used`,
  transitionTimeout: `the default, ${DEFAULT_TRANSITION_TIMEOUT_S} seconds, is used`,
  lowBatteryThreshold: `the default, ${DEFAULT_LOW_BATTERY_THRESHOLD_PCT} percent, is used`,
  includeDoors: 'the default, "all", is used',
  // Read-only exists to keep doors from being opened from Home; a value that cannot be read must not open them up.
  readOnly: 'every door is read-only until it is fixed',
  automationSwitch: 'the default, off, is used',
  leftOpenSensor: 'the default, off, is used',
  contactSensor: 'the default, off, is used',
  hideBattery: 'battery information is shown',
  leftOpenAfter: "each controller's own open-door alert time is used",
  accessAlert: 'the default, off, is used',
  accessAlertDuration: `the default, ${DEFAULT_ACCESS_ALERT_DURATION_S} seconds, is used`,
};

const FILTERS = {
  includeDeviceIds: 'this filter is ignored, so it does not limit the doors shown',
  excludeDeviceIds: 'this filter is ignored, so it keeps no door out',
  includeDoorIds: 'this filter is ignored, so it does not limit the doors shown',
  excludeDoorIds: 'this filter is ignored, so it keeps no door out',
} as const;

const WEBHOOKS_OFF = 'webhooks are off until it is fixed';

type Path = readonly PropertyKey[];

/** The messages of one value against one schema, each as "<path> <message>" under the given path. */
function issuesOf(schema: z.ZodType, value: unknown, path: Path): { path: Path; message: string }[] {
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
  /** Every mistake as "<path> <message>", for the one line of a config that cannot run at all. */
  readonly plain: string[] = [];

  add(issues: { path: Path; message: string }[], sentence: string): void {
    this.plain.push(...issues.map((issue) => `${dotted(issue.path)} ${issue.message}`));
    this.ignored.push(sentence);
  }
}

/**
 * A door's id as it may appear in a sentence: only a plain id (the service's are UUIDs), never a secret pasted in
 * the wrong field, and never text that could forge a log line.
 */
function quotableId(id: unknown, secrets: unknown[]): string | undefined {
  if (typeof id !== 'string') return undefined;
  const trimmed = id.trim();
  return /^[\w.:-]{1,64}$/.test(trimmed) && !secrets.some((secret) => typeof secret === 'string' && secret.trim() === trimmed) ? trimmed : undefined;
}

function readWebhook(value: unknown, findings: Findings): unknown {
  const wanted = isBlank(value) ? undefined : listenerWanted(value);
  if (wanted === undefined) return undefined;
  if (!isRecord(wanted)) {
    findings.add([{ path: ['webhook'], message: 'must be a block of settings' }], `webhook must be a block of settings ({ … }); ${WEBHOOKS_OFF}`);
    return undefined;
  }
  const block = withoutBlanks(wanted);
  const issues = issuesOf(webhookSchema, block, ['webhook']);
  const [rest, pace] = [issues.filter((i) => i.path[1] !== 'reconcileInterval'), issues.filter((i) => i.path[1] === 'reconcileInterval')];
  if (rest.length > 0) {
    findings.add(issues, `${listing(issues.map((i) => `${dotted(i.path)} ${i.message}`))}; ${WEBHOOKS_OFF}`);
    return undefined;
  }
  if (pace.length > 0) {
    // A bad safety-net pace alone is no reason to lose real-time updates.
    findings.add(pace, `${listing(pace.map((i) => `${dotted(i.path)} ${i.message}`))}; the default, ${DEFAULT_RECONCILE_INTERVAL_S} seconds, is used`);
    delete block.reconcileInterval;
  }
  return block;
}

/**
 * Each door entry on its own: an entry without a usable id is dropped; otherwise only its bad settings are, so the
 * rest of what the user set for that door (read-only above all) still holds.
 */
function readDoors(value: unknown, findings: Findings, secrets: unknown[]): unknown {
  if (isBlank(value)) return undefined;
  if (!Array.isArray(value)) {
    findings.add([{ path: ['doors'], message: 'must be a list of doors' }], 'doors must be a list of door settings; every door uses the settings for all doors');
    return undefined;
  }
  const doors: Record<string, unknown>[] = [];
  const firstIndex = new Map<string, number>();
  value.forEach((raw: unknown, index) => {
    const at = `doors.${index}`;
    if (isBlank(raw) || (isRecord(raw) && Object.keys(withoutBlanks(raw)).length === 0)) {
      return; // An entry the form opened and nobody filled in: nothing was meant.
    }
    if (!isRecord(raw)) {
      findings.add([{ path: ['doors', index], message: 'must be one door\'s settings' }], `${at} must be one door's settings ({ "id": … }); it is ignored`);
      return;
    }
    const entry = withoutBlanks(raw);
    const id = quotableId(entry.id, secrets);
    const named = id === undefined ? at : `${at} (id "${id}")`;
    const fieldIssues = Object.entries(doorSettingsSchema.shape).flatMap(([key, schema]) =>
      key in entry ? issuesOf(schema, entry[key], ['doors', index, key]) : key === 'id' ? [{ path: ['doors', index, 'id'], message: 'is required' }] : [],
    );
    const said = (issues: typeof fieldIssues): string => listing(issues.map((i) => `${String(i.path[2])} ${i.message}`));
    if (fieldIssues.some((i) => i.path[2] === 'id')) {
      findings.add(fieldIssues, `${named} ${said(fieldIssues)}; this entry is ignored`);
      return;
    }
    const doorId = (entry.id as string).trim();
    const first = firstIndex.get(doorId);
    if (first !== undefined) {
      findings.add([{ path: ['doors', index, 'id'], message: `repeats doors.${first}` }], `${named} is a second entry for the same door; only doors.${first} is used`);
      return;
    }
    firstIndex.set(doorId, index);
    if (fieldIssues.length > 0) {
      const unreadableReadOnly = fieldIssues.some((i) => i.path[2] === 'readOnly');
      const consequence = unreadableReadOnly
        ? 'this door is read-only until it is fixed'
        : fieldIssues.length === 1
          ? 'that setting is ignored for this door'
          : 'those settings are ignored for this door';
      findings.add(fieldIssues, `${named} ${said(fieldIssues)}; ${consequence}`);
      for (const issue of fieldIssues) delete entry[String(issue.path[2])];
      // Same reason as the global readOnly: an entry meant to protect a door must not leave it openable.
      if (unreadableReadOnly) entry.readOnly = true;
    }
    doors.push(entry);
  });
  return doors;
}

function readFilter(key: keyof typeof FILTERS, value: unknown, findings: Findings): unknown {
  if (isBlank(value)) return undefined;
  const list = Array.isArray(value) ? value.filter((id) => !isBlank(id)) : value;
  const issues = issuesOf(configSchema.shape[key], list, [key]);
  if (issues.length > 0) {
    // One sentence for the list: the filter holds as a whole or not at all.
    findings.add(issues, `${key} must be a list of ids; ${FILTERS[key]}`);
    return undefined;
  }
  return list;
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
  const fatal = [
    ...issuesOf(accessTokenSchema, block.accessToken ?? undefined, ['accessToken']),
    ...issuesOf(httpAddress, block.baseUrl ?? undefined, ['baseUrl']),
  ].map((issue) => `${dotted(issue.path)} ${issue.message}`);

  const findings = new Findings();
  // Unknown keys (Homebridge's _bridge, settings of a newer version) are kept as they are.
  const input: Record<string, unknown> = { ...block };
  for (const key of Object.keys(configSchema.shape) as (keyof typeof configSchema.shape)[]) {
    const value = block[key];
    if (key === 'accessToken' || key === 'baseUrl') continue;
    if (key === 'webhook') {
      input[key] = readWebhook(value, findings);
    } else if (key === 'doors') {
      input[key] = readDoors(value, findings, [block.accessToken, isRecord(block.webhook) ? block.webhook.apiKey : undefined]);
    } else if (key in FILTERS) {
      input[key] = readFilter(key as keyof typeof FILTERS, value, findings);
    } else if (isBlank(value)) {
      input[key] = undefined;
    } else {
      const issues = issuesOf(configSchema.shape[key], value, [key]);
      if (issues.length > 0) {
        findings.add(issues, `${listing(issues.map((i) => `${dotted(i.path)} ${i.message}`))}; ${FALLBACKS[key] ?? 'it is ignored'}`);
        input[key] = key === 'readOnly' ? true : undefined;
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
  return { ok: true, config: result.data, ignored: findings.ignored };
}

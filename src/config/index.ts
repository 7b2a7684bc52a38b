// Turns the raw platform block of config.json into a typed, defaulted configuration: the one reader of the settings,
// for the plugin and its settings page alike. Only a missing or unusable token or address stops syncing; any other
// mistake is reported in one sentence, with the path it is about, and that setting is ignored or fails closed,
// because a typo in an optional block must not leave every door without updates, nor open one.
import * as z from '../util/zod.js';

import { LOCK_ALL, mayProtect, mostProtective } from './fail-closed.js';
import { Findings } from './findings.js';
import type { Finding, KeptAsCached, ReadOnlyLock } from './findings.js';
import { FILTERS, isFilterKey, readFilter } from './filters.js';
import { readDoors, doorSettingsSchema } from './doors.js';
import { readKeys } from './keys.js';
import type { ReadKeys } from './keys.js';
import { peopleSchema, readPeople } from './people-list.js';
import {
  accessTokenSchema,
  doorOptionsShape,
  fallbackOf,
  generalShape,
  GLOBAL_OPTIONS,
  httpAddress,
  issuesOf,
  nearChoice,
} from './schemas.js';
import type { GlobalShape } from './schemas.js';
import type { SectionOption } from '../option-catalog.js';
import { cutSentence, mentionOf, speaksOfLeavingOut, textsOf } from './mentions.js';
import type { Mention } from './mentions.js';
import { dotted, isBlank, isRecord, listing } from './values.js';
import type { Spellings } from './values.js';
import { listenerWanted, readWebhook, webhookSchema } from './webhook.js';
import { redactedResult } from './redacted.js';
import { heldSecretIn } from './secret-values.js';

export type { Finding, KeptAsCached, ReadOnlyLock } from './findings.js';
export type { DoorSettings } from './doors.js';
export type { WebhookConfig } from './webhook.js';
export { idOf } from './values.js';
export { readDoorKeys } from './doors.js';
export { readWebhookKeys } from './webhook.js';

/** A list of device or door ids; empty means no filter. */
const idList = z._default(z.array(z.string().check(z.trim(), z.minLength(1)), { error: 'must be a list of ids' }), []);

/** The plugin's configuration as users write it in config.json (and the settings form edits it). */
export const configSchema = z.looseObject({
  // The parser reads (and reports) in this order: the general settings, the webhook block, then the doors'.
  ...(generalShape as Pick<GlobalShape, SectionOption<'general'>['key']>),
  accessToken: accessTokenSchema,
  baseUrl: httpAddress,
  // What classic zod's preprocess is: a transform piped into the schema (zod/mini has no preprocess).
  webhook: z.pipe(z.transform(listenerWanted), z.optional(webhookSchema)),
  ...(doorOptionsShape as Pick<GlobalShape, SectionOption<'doors'>['key']>),
  doors: z._default(z.array(doorSettingsSchema, { error: 'must be a list of doors' }), []),
  // Filters to split a large account over several child bridges: each platform entry takes its share.
  includeDeviceIds: idList,
  excludeDeviceIds: idList,
  includeDoorIds: idList,
  excludeDoorIds: idList,
  // Person sensors (issue 31): who came through, for automations.
  people: peopleSchema,
});

/** The parsed configuration: every default filled in; keys Homebridge adds (such as _bridge) kept. */
export type PluginConfig = z.output<typeof configSchema> & {
  readOnlyLock: ReadOnlyLock;
  keptAsCached: KeptAsCached;
  /** Values the plugin does not read, for the doors they name (src/config/protection.ts). */
  mentions: Mention[];
  /** How each id of a door entry or a filter was written, in its own case, where look-alike letters are told. */
  spellings: Spellings;
};

/**
 * `ok`: the plugin runs with `config`; each `warnings` entry is one sentence about a key or value read as the one it
 * nearly is, or a key the plugin does not know (named, never guessed at silently); each `ignored` entry is one sentence
 * about a setting that was left out (field path, what is wrong, what happens instead); `findings` holds both, each with
 * the dotted path of the setting it is about, for the settings page to place. Not `ok`: the token or address is missing
 * or unusable (or the block is not an object), so nothing syncs; `problems` names those and every other mistake. No
 * value is ever quoted.
 */
export type ConfigResult =
  | { ok: true; config: PluginConfig; ignored: string[]; warnings: string[]; findings: Finding[]; notes?: string[] }
  | { ok: false; problems: string[] };

/** Keys of the platform block that are Homebridge's, not the plugin's: kept, never named. */
const HOMEBRIDGE_KEYS = ['platform', '_bridge'];

/** What a top-level value that cannot be read is read as (the catalog's `unreadable`): undefined leaves it out. */
function unreadableValue(key: string, findings: Findings): unknown {
  const unreadable = GLOBAL_OPTIONS.get(key)?.unreadable;
  if (unreadable !== 'as-cached') return unreadable;
  if (key === 'showAs' || key === 'matter') findings.kept[key] = true;
  return undefined;
}

/** The platform block's keys as the plugin reads them (near misses as the key they nearly are): the page reads them too. */
export function readTopKeys(block: Record<string, unknown>): ReadKeys {
  return readKeys(block, {
    known: Object.keys(configSchema.shape),
    others: HOMEBRIDGE_KEYS,
    notes: true,
    combine: mostProtective,
    narrowing: (key) => NARROWING.includes(key),
    // An unknown key nearest readOnly with a value that names no door ("readOnlyAll": true) speaks of every door.
    doubt: (key, value) => (key === 'readOnly' && mayProtect(value) && textsOf(value).length === 0 ? LOCK_ALL : undefined),
    unknown: (key, value) => (isBlank(value) || value === false ? undefined : NAMED_STAYS(speaksOfLeavingOut(key))),
  });
}

/** The top-level settings that narrow what Home shows or may do: a key as near to two of them is read as both. */
const NARROWING = ['readOnly', 'includeDoors', ...Object.keys(FILTERS)];

/** What an unknown key still does, after "is not a setting the plugin knows, so it is ignored". */
export const NAMED_STAYS = (leaveOut: boolean): string =>
  `but a door of the account it names stays ${leaveOut ? 'out of Home' : 'read-only'} until it is fixed`;

/**
 * Reads the platform block. Never throws, never says a secret (the token, and a value pasted in the wrong field may be
 * the token): each message names the field and what is wrong, and every text of the result leaves through
 * redactedResult, so no sentence of the readers has to know the secrets.
 */
export function parseConfig(raw: unknown): ConfigResult {
  const block: unknown = raw ?? {};
  if (!isRecord(block)) {
    return { ok: false, problems: ['the configuration must be an object ({ … }) with accessToken and baseUrl'] };
  }
  return redactedResult(readBlock(block), block);
}

/** parseConfig's reading of a block, its sentences as the readers wrote them (a typed value quoted as typed). */
function readBlock(block: Record<string, unknown>): ConfigResult {
  const findings = new Findings(heldSecretIn(block));
  // Every key known, read as the known key it nearly is, or named; an unknown one that may mean protection fails closed.
  const keys = readTopKeys(block);
  for (const { key, sentence } of keys.sentences) findings.warn([key], sentence);
  if (keys.doubts.length > 0) findings.lock.all = true;
  const read = keys.block;
  findings.notes.push(...keys.notes);
  // What the plugin does not read still protects the doors it names, once the account says which (protection.ts).
  for (const [key, value] of Object.entries(read)) {
    if (Object.hasOwn(configSchema.shape, key) || HOMEBRIDGE_KEYS.includes(key) || keys.notes.includes(key)) continue;
    const mention = mentionOf(key, value, speaksOfLeavingOut(key), key);
    if (mention) findings.mentions.push(mention);
  }
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
      input[key] = readWebhook(value, findings);
    } else if (key === 'doors') {
      input[key] = readDoors(value, findings);
    } else if (key === 'people') {
      input[key] = readPeople(value, {
        add: (issues, sentence) => findings.add(issues, sentence),
        warn: (path, sentence) => findings.warn(path, sentence),
        keepCached: () => (findings.kept.people = true),
        heldSecret: findings.heldSecret,
      });
    } else if (isFilterKey(key)) {
      input[key] = readFilter(key, value, findings);
    } else if (isBlank(value)) {
      input[key] = undefined;
    } else {
      const option = GLOBAL_OPTIONS.get(key);
      const typed = option?.kind === 'choice' ? nearChoice(option, value, (sentence) => findings.warn([key], sentence)) : value;
      input[key] = typed;
      const issues = issuesOf(configSchema.shape[key], typed, [key]);
      if (issues.length > 0) {
        findings.add(issues, `${listing(issues.map((i) => `${dotted(i.path)} ${i.message}`))}; ${fallbackOf(key)}`);
        input[key] = unreadableValue(key, findings);
      }
    }
  }

  // A value too large to read in full is named, with how far it was read (src/config/mentions.ts).
  for (const mention of findings.mentions) {
    if (mention.cut) findings.warn(pathOf(mention.path), cutSentence(mention));
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
    config: {
      ...result.data,
      readOnlyLock: findings.lock,
      keptAsCached: findings.kept,
      mentions: findings.mentions,
      spellings: findings.spellings,
    },
    ignored: findings.ignored.map((finding) => finding.sentence),
    warnings: findings.warnings.map((finding) => finding.sentence),
    findings: [...findings.ignored, ...findings.warnings],
    ...(findings.notes.length > 0 ? { notes: findings.notes } : {}),
  };
}

/** A mention's dotted path ("doors.2.automation") as the findings' path, its numbers as indexes. */
function pathOf(dotted: string): (string | number)[] {
  return dotted.split('.').map((part) => (/^\d+$/u.test(part) ? Number(part) : part));
}

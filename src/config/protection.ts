// What the settings protect once the account is known: an id that names no door exactly protects each door it could
// mean (look-alike letters, a few edits, a list in one id), a value the plugin does not read protects each door it
// names, and doors whose ids the plugin cannot tell apart are read-only. Each such id is said, with what to write.
import { canonicalId } from '../util/canonical-id.js';
import type { Skeleton } from '../util/skeleton.js';
import { CHARS_PER_EDIT, IdIndex, MAX_COULD_MEAN_EDITS, MIN_CORE_PART, partsOf } from './could-mean.js';
import type { CouldMean, Likeness } from './could-mean.js';
import type { Finding } from './findings.js';
import type { PluginConfig } from './index.js';
import { couldBeNumber, listing } from './values.js';
import { redactedProtection, typedId } from './redacted.js';

/**
 * The rule, in the words docs/configuration.md and the settings page give it (a test keeps the two the same): what the
 * plugin does with any setting that names a door.
 */
export const PROTECTIVE_RULE =
  'A setting is either understood, or every door it names is protected (read-only, and left out of Home where it was an exclusion) until it is fixed, and a line says which key, which door, and what to write instead.';

/** How far an id may be from a door's and still name it, in the same words. */
export const COULD_MEAN_RULE = `An id names the doors it could mean: the same letters and digits (without dashes, behind a prefix such as urn:uuid:, pasted twice, or ${MIN_CORE_PART} or more of them held in one door's id alone), the same once look-alike letters of other scripts are read as the letters they look like, else the nearest doors within one typing slip per ${CHARS_PER_EDIT} characters (${MAX_COULD_MEAN_EDITS} at most: a 36-character id may be ${MAX_COULD_MEAN_EDITS} characters off; doors as near as each other all count), or held in it (a list written as one id).`;

/** The account as the check needs it: each door with its controller, ids as the service sends them. */
export interface AccountIds {
  doors: readonly { id: string; deviceId: string }[];
  /** Door ids the service sent as numbers too large to read exactly (beyond 2^53), as they were read. */
  unsafeDoorNumbers?: readonly number[];
}

/** What the settings protect beyond what they say plainly: by canonical door id. */
export interface Protection {
  /** Every door is read-only: which doors the settings name cannot be told yet (the look-alike data is loading). */
  everyDoor: boolean;
  /** Doors read-only until a setting is fixed, and why. */
  readOnly: ReadonlyMap<string, string>;
  /** Doors kept out of Home until a setting is fixed, and why. */
  leftOut: ReadonlyMap<string, string>;
  /** Doors an include list could mean: shown (read-only), as the include list was meant to show them. */
  letIn: ReadonlySet<string>;
  /** One sentence for each id that names no door exactly, each value that names doors, each pair of ids that collide. */
  findings: Finding[];
}

export const NO_PROTECTION: Protection = { everyDoor: false, readOnly: new Map(), leftOut: new Map(), letIn: new Set(), findings: [] };
/** While the doors the settings name cannot be told: every door read-only, none taken out of Home on a guess. */
export const UNTIL_TOLD: Protection = { ...NO_PROTECTION, everyDoor: true };

type Checked = Pick<
  PluginConfig,
  | 'doors'
  | 'includeDoorIds'
  | 'excludeDoorIds'
  | 'includeDeviceIds'
  | 'excludeDeviceIds'
  | 'mentions'
  | 'spellings'
  | 'accessToken'
  | 'webhook'
>;

/** What an id of a setting does to the door it names. */
type Effect = 'read-only' | 'left out' | 'let in' | 'none';

/** One id a setting names, canonical. */
interface Claim {
  path: string;
  id: string;
  of: 'door' | 'controller';
  effect: Effect;
  /** What it does when it names nothing: "it keeps no door out". */
  idle: string;
  /** How to write a list: "give each door an entry of its own". */
  eachOwn: string;
}

/** What each id a door entry or a filter names does, in the order config.json has them. */
function claimsOf(config: Checked): Claim[] {
  const entries = config.doors.map((entry): Claim => {
    const protects = entry.readOnly === true || entry.automationSwitch === 'off' || entry.automationSwitch === false;
    return {
      path: 'doors',
      id: entry.id,
      of: 'door',
      effect: entry.hide === true ? 'left out' : protects ? 'read-only' : 'none',
      idle: "that entry's settings apply to no door",
      eachOwn: 'give each door an entry of its own',
    };
  });
  const filter = (path: keyof Checked & `${string}Ids`, of: Claim['of'], effect: Effect, idle: string) =>
    config[path].map((id): Claim => ({ path, id, of, effect, idle, eachOwn: 'write each id as an element of the list' }));
  return [
    ...entries,
    ...filter('excludeDoorIds', 'door', 'left out', 'it keeps no door out'),
    ...filter('includeDoorIds', 'door', 'let in', 'it lets no door in'),
    ...filter('excludeDeviceIds', 'controller', 'left out', 'it keeps no door out'),
    ...filter('includeDeviceIds', 'controller', 'let in', 'it lets no door in'),
  ];
}

/**
 * What a reading of protection depends on: the set of doors (each with its controller, in any order), the numbers the
 * service sent too large to read, and whether look-alike letters were known. The same key, the same reading.
 */
export function readingKey(known: AccountIds, lookAlikes: boolean): string {
  return [
    lookAlikes ? 'look-alikes' : '',
    [...new Set(known.doors.map((door) => `${door.id}\u0000${door.deviceId}`))].sort().join('\u0001'),
    [...new Set(known.unsafeDoorNumbers ?? [])].sort().join(','),
  ].join('\u0002');
}

/** Whether a look-alike letter could change what the settings protect: some id they name matches nothing exactly. */
export function needsLookAlikes(config: Checked, account: AccountIds): boolean {
  if (config.mentions.length > 0) return true;
  const doors = new Set(account.doors.map((door) => canonicalId(door.id)));
  const devices = new Set(account.doors.map((door) => canonicalId(door.deviceId)));
  return claimsOf(config).some((claim) => !(claim.of === 'door' ? doors : devices).has(claim.id));
}

const LIKENESS: Record<Likeness, string> = {
  'look-alike': 'written with look-alike letters',
  edits: 'a few characters off',
  held: 'held in it',
  'letters and digits': 'the same letters and digits',
};

/** The most candidates a line names; the rest are counted ("and 4 more"). */
const MAX_NAMED_CANDIDATES = 3;

/** Ids for a line: at most MAX_NAMED_CANDIDATES, then how many more. */
function fewOf(ids: string[]): string {
  const unique = [...new Set(ids)];
  if (unique.length <= MAX_NAMED_CANDIDATES) return listing(unique);
  return `${unique.slice(0, MAX_NAMED_CANDIDATES).join(', ')} and ${unique.length - MAX_NAMED_CANDIDATES} more`;
}

/**
 * What the settings protect in this account. Without `skeleton` (src/util/skeleton.ts), look-alike letters are not
 * looked for: the caller loads it first when needsLookAlikes says so, and until then protects every door (UNTIL_TOLD).
 */
export function protectionFor(config: Checked, account: AccountIds, skeleton?: Skeleton): Protection {
  const byId = new Map<string, { raw: string[]; deviceIds: Set<string> }>();
  const byDevice = new Map<string, string[]>();
  for (const { id, deviceId } of account.doors) {
    const [door, device] = [canonicalId(id), canonicalId(deviceId)];
    const known = byId.get(door) ?? { raw: [], deviceIds: new Set<string>() };
    if (!known.raw.includes(id)) known.raw.push(id);
    known.deviceIds.add(device);
    byId.set(door, known);
    const ofDevice = byDevice.get(device);
    if (ofDevice) ofDevice.push(door);
    else byDevice.set(device, [door]);
  }
  const doorIndex = new IdIndex(
    account.doors.map((door) => door.id),
    skeleton,
  );
  const deviceIndex = new IdIndex(
    account.doors.map((door) => door.deviceId),
    skeleton,
  );
  const readOnly = new Map<string, string>();
  const leftOut = new Map<string, string>();
  const letIn = new Set<string>();
  const findings: Finding[] = [];
  const shown = (id: string): string => typedId(id) ?? 'an id not shown here';
  const doorsOf = (match: CouldMean, of: Claim['of']): string[] => (of === 'door' ? [match.id] : (byDevice.get(match.id) ?? []));
  const apply = (doors: string[], effect: Effect, why: string): void => {
    for (const door of doors) {
      if (effect === 'none') continue;
      if (!readOnly.has(door)) readOnly.set(door, why);
      if (effect === 'left out') leftOut.set(door, why);
      if (effect === 'let in') letIn.add(door);
    }
  };

  for (const claim of claimsOf(config)) {
    const index = claim.of === 'door' ? doorIndex : deviceIndex;
    if (index.has(claim.id)) continue;
    // Each way the id was written, in its own case: a look-alike letter is told from what was typed, not its lower case.
    const spellings = config.spellings.get(claim.id);
    // Its letters and digits first (a door's id without dashes, behind a prefix, twice, or half of it), then could-mean.
    const byCore = index.byCore(claim.id);
    // Several ids in it are a list written as one id; one is that id written another way.
    const cored = byCore.map((id): CouldMean => ({ id, how: byCore.length > 1 ? 'held' : 'letters and digits' }));
    const meant =
      cored.length > 0
        ? cored
        : spellings === undefined || spellings.length === 1
          ? index.couldMean(spellings?.[0] ?? claim.id)
          : uniqueIds(spellings.flatMap((written) => index.couldMean(written)));
    const named = `${claim.path} names ${claim.of} ${shown(claim.id)}, which the account does not have`;
    if (meant.length === 0) {
      const near = index.closest(claim.id);
      const hint = near === undefined ? '' : `; the account's closest ${claim.of} id is ${shown(near)}`;
      findings.push({ path: claim.path, sentence: `${named}, so ${claim.idle}${hint}` });
      continue;
    }
    apply(
      meant.flatMap((match) => doorsOf(match, claim.of)),
      claim.effect,
      `the id ${shown(claim.id)} in ${claim.path} could mean it`,
    );
    const ids = fewOf(meant.map((match) => shown(match.id)));
    const held = meant.every((match) => match.how === 'held');
    const fix = held ? claim.eachOwn : `write ${meant.length > 1 ? 'the one you meant of ' : ''}${ids}`;
    const what = `it could mean ${claim.of} ${ids} (${LIKENESS[meant[0]?.how ?? 'edits']})`;
    const result = claim.effect === 'none' ? claim.idle : `${effectWords(claim.effect, claim.of, meant.length > 1)} until it is fixed`;
    findings.push({ path: claim.path, sentence: `${named}; ${what}, so ${result}: ${fix}` });
  }

  for (const mention of config.mentions) {
    const doors = new Set<string>();
    for (const text of mention.texts) {
      for (const part of [canonicalId(text), ...partsOf(text)]) {
        if (doorIndex.has(part)) doors.add(part);
        for (const door of byDevice.get(part) ?? []) doors.add(door);
      }
      for (const door of doorIndex.byCore(text)) doors.add(door);
      for (const match of doorIndex.couldMean(text)) doors.add(match.id);
    }
    if (doors.size === 0) continue;
    const effect: Effect = mention.leaveOut ? 'left out' : 'read-only';
    apply([...doors], effect, `${mention.path} names it, and the plugin does not read it`);
    const ids = [...doors].map((door) => shown(byId.get(door)?.raw[0] ?? door));
    const fix = mention.leaveOut
      ? `write it as excludeDoorIds: [${ids.join(', ')}]`
      : `write it in ${doors.size > 1 ? "those doors' entries" : "that door's entry"} (doors: [{ "id": ${ids[0] ?? ''}, "readOnly": true }])`;
    findings.push({
      path: mention.path,
      sentence: `${mention.path} is not a setting the plugin reads, and it names door ${listing(ids)}, so ${effectWords(effect, 'door', doors.size > 1)} until it is fixed: ${fix}`,
    });
  }

  for (const [door, { raw }] of byId) {
    if (raw.length < 2) continue;
    readOnly.set(door, 'another door of the account has an id that reads the same');
    findings.push({
      path: 'doors',
      sentence: `The account has doors whose ids differ only in case, width or invisible characters (${listing(raw.map(shown))}); they are read-only, since a setting that names one names them all`,
    });
  }
  for (const number of account.unsafeDoorNumbers ?? []) {
    for (const door of byId.keys()) {
      if (couldBeNumber(door, number))
        readOnly.set(door, `its id could be the number ${String(number)} the service sent, which cannot be read exactly`);
    }
  }
  // The ids and paths said above are quoted as written: a token pasted as one is taken out as the text leaves.
  return redactedProtection({ everyDoor: false, readOnly, leftOut, letIn, findings }, config);
}

/** Each id once, with the first reason found for it. */
function uniqueIds(found: CouldMean[]): CouldMean[] {
  const byId = new Map<string, CouldMean>();
  for (const match of found) if (!byId.has(match.id)) byId.set(match.id, match);
  return [...byId.values()];
}

function effectWords(effect: Exclude<Effect, 'none'>, of: Claim['of'], several: boolean): string {
  const subject =
    of === 'controller'
      ? several
        ? "those controllers' doors are"
        : "that controller's doors are"
      : several
        ? 'those doors are'
        : 'that door is';
  return `${subject} ${effect === 'read-only' ? 'read-only' : effect === 'left out' ? 'left out of Home' : 'shown, read-only,'}`;
}

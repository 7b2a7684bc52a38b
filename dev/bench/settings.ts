// Section 11 of BENCHMARKS.md: the cost of reading the settings, in process: the plugin's parser on a 149-door config
// (what a start and every settings-page edit pay), and the page's check of that block against a signed-in account.
import { parseConfig } from '../../src/config/index.js';
import { protectionFor } from '../../src/config/protection.js';
import type { AccountIds } from '../../src/config/protection.js';
import { skeleton } from '../../src/util/skeleton.js';
import { checkBlock } from '../../src/ui/shared/check-config.js';
import type { AccountSummary } from '../../src/ui/shared/messages.js';
import { timeRuns } from './probes.js';
import type { Summary } from './probes.js';
import { SUMMARY_HEADER, summaryRow } from './report.js';

export const SETTINGS_TITLE = '## 11. Reading the settings: the parser and the page check on a 149-door config';

/** Doors in the config: one bridge's whole share. */
const DOORS = 149;
/** Runs of each measurement after the warm-up; a run is well under a millisecond to a few, so many are cheap. */
const RUNS = 400;
/** Runs first, so the JIT has compiled the parser before any run counts. */
const WARM_UP_RUNS = 50;

/** The "could mean" check's worst case the issue set (42.6): read-only entries that name no door, against a large account. */
const UNMATCHED_ENTRIES = 10_000;
const ACCOUNT_DOORS = 2_000;
/** It takes milliseconds to tens of them: fewer runs than the rest. */
const PROTECTION_RUNS = 40;
const PROTECTION_WARM_UP_RUNS = 5;
/** Goals of issue 42, medians in milliseconds: a parse each sync pays; the could-mean check at its largest. */
const PARSE_GOAL_MS = 5;
const COULD_MEAN_GOAL_MS = 50;
/** Issue 50's case: a config large for no reason, two unknown keys of 1,000 texts of 4,096 characters (9.8 s before it). */
const BLOATED_KEYS = 2;
const BLOATED_TEXTS = 1000;
const BLOATED_CHARS = 4096;
/** Issue 50's goal for the parse of any config, in milliseconds. */
const ANY_PARSE_GOAL_MS = 100;
/** Each run reads 8 MB of config text: fewer runs than the rest. */
const BLOATED_RUNS = 40;
const BLOATED_WARM_UP_RUNS = 5;

export interface SettingsRuns {
  parse: Summary;
  check: Summary;
  doors: number;
  /** protectionFor with the look-alike data loaded, and the index of the account's ids built each run. */
  protection: Summary;
  /** parseConfig on issue 50's bloated config. */
  bloated: Summary;
}

/** The bloated config's parse: values the plugin does not read, looked at up to their bounds (src/config/mentions.ts). */
function measureBloated(): Summary {
  const texts = (key: number): string[] => Array.from({ length: BLOATED_TEXTS }, (_, i) => `${key}-${i}-`.padEnd(BLOATED_CHARS, 'x'));
  const config = {
    accessToken: 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b',
    baseUrl: 'https://api.example.com',
    ...Object.fromEntries(Array.from({ length: BLOATED_KEYS }, (_, key) => [`exportedData${key}`, texts(key)])),
  };
  return timeRuns(() => parseConfig(config), BLOATED_RUNS, BLOATED_WARM_UP_RUNS);
}

const doorId = (index: number): string => `${index.toString(16).padStart(8, '0')}-9d4a-4e6b-8a7c-1d2e3f4a5b6c`;

/** A config as a careful user with many doors writes it: each door its own entry, some ids pasted in upper case, some near misses. */
function bigConfig(): Record<string, unknown> {
  return {
    platform: 'AccessControl',
    accessToken: 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b',
    baseUrl: 'https://api.example.com',
    automationSwitch: 'open',
    excludeDoorIds: `${doorId(0)}, ${doorId(1)}`,
    people: [{ name: 'Grace', user: 'grace@example.com', doors: [doorId(2), doorId(3)] }],
    doors: Array.from({ length: DOORS }, (_, index) => ({
      id: index % 3 === 0 ? doorId(index).toUpperCase() : doorId(index),
      name: `Door ${index}`,
      ...(index % 5 === 0 ? { readonly: true } : { readOnly: index % 2 === 0 }),
      leftOpenSensor: true,
      leftOpenAfter: 300,
    })),
  };
}

function account(): AccountSummary {
  return {
    controllers: [{ id: 'dev-1', owner: 'Ada', active: true, softwareVersion: '1.0' }],
    doors: Array.from({ length: DOORS }, (_, index) => ({
      id: doorId(index),
      name: `Door ${index}`,
      controllerId: 'dev-1',
      state: 'CLOSED' as const,
      active: true,
      owned: true,
      relationship: 'owner',
      sensor: false,
      batteryPct: undefined,
    })),
    unreadable: [],
  };
}

const timed = (run: () => unknown): Summary => timeRuns(run, RUNS, WARM_UP_RUNS);

/** A random-looking UUID, the same each run for the same `seed` (mulberry32: the low bits of a plain LCG repeat every 16). */
export function uuidOf(seed: number): string {
  let state = seed + 0x6d2b79f5;
  const hex = Array.from({ length: 32 }, () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) % 16).toString(16);
  }).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** 10,000 read-only entries that match none of 2,000 doors: each one goes through the whole "could mean" check. */
function measureProtection(): Summary {
  const parsed = parseConfig({
    accessToken: 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b',
    baseUrl: 'https://api.example.com',
    doors: Array.from({ length: UNMATCHED_ENTRIES }, (_, index) => ({ id: uuidOf(ACCOUNT_DOORS + index), readOnly: true })),
  });
  if (!parsed.ok) throw new Error(`the bench config does not run: ${parsed.problems.join('; ')}`);
  const ids: AccountIds = {
    doors: Array.from({ length: ACCOUNT_DOORS }, (_, index) => ({ id: uuidOf(index), deviceId: `dev-${index % 20}` })),
  };
  return timeRuns(() => protectionFor(parsed.config, ids, skeleton), PROTECTION_RUNS, PROTECTION_WARM_UP_RUNS);
}

export function measureSettings(): SettingsRuns {
  const config = bigConfig();
  const signedIn = account();
  const parsed = parseConfig(config);
  if (!parsed.ok) throw new Error(`the bench config does not run: ${parsed.problems.join('; ')}`);
  // Each edit on the page makes a new block, whose reading the page has not cached (ui/shared/block.ts readingOf): each run
  // checks its own copy, made before the timing starts, or the runs after the first would time a cache hit.
  const copies = Array.from({ length: WARM_UP_RUNS + RUNS }, () => structuredClone(config));
  const check = timed(() => checkBlock(copies.pop() ?? structuredClone(config), signedIn));
  return { parse: timed(() => parseConfig(config)), check, doors: DOORS, protection: measureProtection(), bloated: measureBloated() };
}

export function settingsSection(runs: SettingsRuns, when = new Date()): string[] {
  return [
    SETTINGS_TITLE,
    '',
    `Measured ${when.toISOString()} on Node ${process.version}, in process (no Homebridge): ${RUNS} runs each after ${WARM_UP_RUNS} to warm up.`,
    `The config has ${runs.doors} door entries (a third of the ids in upper case, a fifth with "readonly" for readOnly, each with a name and`,
    'left-open settings), an exclusion written as one text and a person with two doors. *Parse* is `parseConfig` (src/config/), what a',
    "start and every sync's reading of the settings pay; *page check* is the settings page's `checkBlock` on a copy of that block with a",
    `signed-in account of ${runs.doors} doors (the parser, every door's filters, and the ids that name nothing), what each edit on the page pays`,
    '(a new copy each run: the page caches the reading of a block it has seen).',
    `*Could mean* is what the plugin does after each sync that read the account (src/config/protection.ts): ${UNMATCHED_ENTRIES.toLocaleString('en')}`,
    `read-only entries whose ids name none of ${ACCOUNT_DOORS.toLocaleString('en')} doors, each looked up by canonical id, by skeleton and by the slices of`,
    `the ids a few edits away, the index built anew each run (${PROTECTION_RUNS} runs after ${PROTECTION_WARM_UP_RUNS}). Before issue 42 the same check compared`,
    'every entry with every door (about 2 s for 1,000 entries on 149 doors).',
    `*Parse, bloated* is issue 50's config large for no reason: ${String(BLOATED_KEYS)} unknown keys of ${BLOATED_TEXTS.toLocaleString('en')} texts of ${BLOATED_CHARS.toLocaleString('en')}`,
    `characters (${String(BLOATED_RUNS)} runs after ${String(BLOATED_WARM_UP_RUNS)}); 9.8 s when each such value was walked and kept in full.`,
    `The goals: a parse under ${String(PARSE_GOAL_MS)} ms; the could-mean check under ${String(COULD_MEAN_GOAL_MS)} ms; the parse of any config under ${String(ANY_PARSE_GOAL_MS)} ms.`,
    '',
    SUMMARY_HEADER,
    summaryRow(`Parse, ${runs.doors} doors`, runs.parse),
    summaryRow(`Page check, ${runs.doors} doors, signed in`, runs.check),
    summaryRow(
      `Could mean, ${UNMATCHED_ENTRIES.toLocaleString('en')} entries × ${ACCOUNT_DOORS.toLocaleString('en')} doors`,
      runs.protection,
    ),
    summaryRow(
      `Parse, bloated: ${String(BLOATED_KEYS)} unknown keys × ${BLOATED_TEXTS.toLocaleString('en')} texts × ${BLOATED_CHARS.toLocaleString('en')} characters`,
      runs.bloated,
    ),
    '',
    `Against the goals: the parse's median is ${verdict(runs.parse.median, PARSE_GOAL_MS)}, the could-mean check's ${verdict(runs.protection.median, COULD_MEAN_GOAL_MS)}, the bloated config's parse ${verdict(runs.bloated.median, ANY_PARSE_GOAL_MS)}.`,
  ];
}

/** How a median stands against its goal, in words the reader does not have to work out. */
const verdict = (median: number, goalMs: number): string =>
  `${median.toFixed(1)} ms, ${median <= goalMs ? 'within' : `${(median / goalMs).toFixed(2)}× over`} its ${String(goalMs)} ms goal`;

// The rules that keep a door closed when a setting that protects it cannot be read: which settings protect, which of two
// values protects more, and what is left of an entry that cannot be read. Doubt never opens a door.
import { nearMiss } from '../util/near-miss.js';
import type { OptionKey } from '../option-catalog.js';
import type { Findings } from './findings.js';
import type { Combined } from './keys.js';
import { isBlank, listing, readIdList } from './values.js';

/** The settings that keep a door from being opened or shown: an entry that cannot be read must not drop them. */
export const PROTECTIVE = ['readOnly', 'hide', 'automationSwitch'] as const satisfies readonly OptionKey[];

export const LOCK_ALL = 'every door is read-only until it is fixed';

/** How much each automation switch value lets Home do, least first: of two, the lower is the more protective. */
const SWITCH_REACH = new Map<string, number>([
  ['false', 0],
  ['off', 0],
  ['true', 1],
  ['open', 1],
  ['open-close', 2],
]);

/** How much an automation switch value lets Home do; one that cannot be read counts as least (it is read as off). */
function switchReach(value: unknown): number {
  const text = typeof value === 'string' ? (nearMiss(value, ['off', 'open', 'open-close']) ?? value) : String(value);
  return SWITCH_REACH.get(text) ?? -1;
}

/** Of several automation switch values, the one that lets Home do least. */
export const leastSwitch = (values: unknown[]): unknown => values.reduce((a, b) => (switchReach(b) < switchReach(a) ? b : a));

/** The values of an id list written several ways, as elements: a list as its elements, a lone value as one. */
const elementsOf = (values: unknown[]): unknown[] =>
  values.flatMap((value): unknown[] => (Array.isArray(value) ? (value as unknown[]) : isBlank(value) ? [] : [value]));

/**
 * Include lists written several ways: the ids all of them list (an include list narrows, so two narrow more). When they
 * have none in common, which was meant cannot be told: all of their doors are shown and none opens until it is fixed.
 * One that cannot be read is used as it is, so it fails closed as it would alone.
 */
function commonIncluded(values: unknown[]): Combined {
  const readings = values.map(readIdList);
  const unreadable = readings.findIndex((reading) => reading.bad.length > 0 || reading.numbers.length > 0);
  if (unreadable >= 0) return { value: values[unreadable], how: 'the one that cannot be read is used, and fails closed' };
  const lists = readings.map((reading) => reading.ids).filter((ids) => ids.length > 0);
  const [first = [], ...rest] = lists;
  const common = first.filter((id) => rest.every((ids) => ids.includes(id)));
  if (common.length > 0) return { value: common, how: 'only the ids all of them list are used' };
  return {
    value: [...new Set(lists.flat())],
    how: `they have no id in common, so the doors of all of them are shown and ${LOCK_ALL}`,
    doubt: true,
  };
}

/**
 * One value for a key written several ways (readOnly and "readonly") with different values: the most protective. A
 * read-only that is not plainly false wins (one that cannot be read fails closed later), the switch that opens least,
 * "owned" over "all", exclusions add up and include lists keep what they have in common. Undefined: no rule, the key as
 * spelt (or first) wins.
 */
export function mostProtective(key: string, values: unknown[]): Combined | undefined {
  const most = (value: unknown): Combined => ({ value, how: 'the most protective of them is used' });
  if (key === 'readOnly' || key === 'hide') {
    return most(values.includes(true) ? true : (values.find((value) => !isBlank(value) && value !== false) ?? false));
  }
  if (key === 'automationSwitch') return most(leastSwitch(values));
  if (key === 'includeDoors') {
    const owned = values.find((value) => typeof value === 'string' && nearMiss(value, ['all', 'owned']) === 'owned');
    return owned === undefined ? undefined : most(owned);
  }
  if (key === 'excludeDeviceIds' || key === 'excludeDoorIds')
    return { value: elementsOf(values), how: 'every id any of them lists is kept out' };
  if (key === 'includeDeviceIds' || key === 'includeDoorIds') return commonIncluded(values);
  return undefined;
}

/** Whether an unknown key's value may mean protection (a read-only or a filter that is not plainly off). */
export const mayProtect = (value: unknown): boolean => !isBlank(value) && value !== false && !(Array.isArray(value) && value.length === 0);

/** The protective settings an entry holds: a readOnly or hide that is not false, any automationSwitch (off is one). */
export function protectionIn(entry: Record<string, unknown>): string[] {
  return PROTECTIVE.filter((key) => !isBlank(entry[key]) && (key === 'automationSwitch' || entry[key] !== false));
}

/**
 * What is left of an entry that cannot be read but names its door: read-only, no automation switch, hidden only when it
 * says so plainly (a door is never taken out of Home on a guess).
 */
export function protectiveReading(id: string, entry: Record<string, unknown>): Record<string, unknown> {
  return { id, readOnly: true, automationSwitch: 'off', ...(entry.hide === true ? { hide: true } : {}) };
}

/** Two entries for one door as one: the more protective readOnly, hide and switch win; for the rest, the first. */
export function merged(first: Record<string, unknown>, second: Record<string, unknown>): Record<string, unknown> {
  const entry = { ...second, ...first };
  for (const key of ['readOnly', 'hide'] as const) {
    if (first[key] === true || second[key] === true) entry[key] = true;
  }
  const switches = [first.automationSwitch, second.automationSwitch].filter((value) => value !== undefined);
  if (switches.length > 0) entry.automationSwitch = leastSwitch(switches);
  return entry;
}

/** Says which protective settings an entry sets for a door it does not name, and locks every door. */
export function lockForUnnamed(entry: Record<string, unknown>, findings: Findings): string | undefined {
  const protection = protectionIn(entry);
  if (protection.length === 0) return undefined;
  findings.lock.all = true;
  return `as it sets ${listing(protection)} for a door that cannot be told, ${LOCK_ALL}`;
}

/** What an entry's unreadable settings leave: protective ones fail closed, the kind stays as Home shows it, others are dropped. */
export function consequenceOf(bad: string[]): string {
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

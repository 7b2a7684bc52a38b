// "Add an entry for the rest": a second entry for the controllers this one leaves out, carrying every setting that protects their doors.
import { readDoorKeys, readTopKeys } from '../../config/index.js';
import { idOf, isRecord } from '../../config/values.js';
import { canonicalId } from '../../util/canonical-id.js';
import { optionSpec } from '../../option-catalog.js';
import type { Block } from './block.js';
import type { AccountSummary } from './messages.js';

/** What the new entry is, and what it took from the entry it came from, in words for the page's summary. */
export interface Split {
  block: Block;
  /** Each kind of setting carried over, with how many ("2 door entries (Read-only for 1, hidden 1)"). */
  carried: string[];
  /** What was deliberately left behind, and why ("the webhook listener: …"). */
  left: string[];
}

/** Keys of the entry the split writes anew: the new entry has its own name, controllers, listener and child bridge. */
const REWRITTEN = ['name', 'includeDeviceIds', 'excludeDeviceIds', 'webhook'] as const;
/** Keys whose elements name doors: only the ones about the doors that move (or about no door of the account) go along. */
const BY_DOOR = ['doors', 'includeDoorIds', 'excludeDoorIds'] as const;

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

/** The keys `key` is written as in `block`: itself, and the near misses the plugin reads as it ("ExcludeDoorIds"). */
function spellings(block: Block, key: string): string[] {
  return [...(Object.hasOwn(block, key) ? [key] : []), ...(readTopKeys(block).aliases.get(key) ?? [])];
}

/**
 * The block for the controllers `rest` (the ones `base` leaves out): a copy of `base` (every setting for all doors, Read-only,
 * the automation switch, Matter, people and what the page cannot read included), with its own name and `rest` as its
 * only controllers. Door entries and door lists keep the elements about the doors that move, and those that name no
 * door of the account (a protective id the plugin reads as the door it could mean must not be lost); the ones about
 * doors that stay are left out, so they cannot name a door of the new entry by mistake. Its webhook listener and child
 * bridge are not copied: two entries cannot share one port or one bridge.
 */
export function splitEntry(base: Block, account: AccountSummary, rest: readonly string[], name: string): Split {
  const restKeys = new Set(rest.map(canonicalId));
  const moving = new Set(account.doors.filter((door) => restKeys.has(canonicalId(door.controllerId))).map((door) => canonicalId(door.id)));
  const staying = new Set(account.doors.map((door) => canonicalId(door.id)).filter((id) => !moving.has(id)));
  // An element goes along unless it names, as the plugin reads ids, a door that stays; one that cannot be read goes too.
  const goes = (id: string | undefined): boolean => id === undefined || !staying.has(id);
  const block: Block = structuredClone(base);
  const carried: string[] = [];
  const left: string[] = [];

  for (const key of REWRITTEN) for (const written of spellings(block, key)) delete block[written];
  delete block._bridge;
  if (spellings(base, 'webhook').length > 0) left.push('the webhook listener: give this entry its own port, or leave it to polling');
  block.name = name;
  block.includeDeviceIds = [...rest];

  for (const key of BY_DOOR) {
    for (const written of spellings(block, key)) {
      const value = block[written];
      // A list the page cannot read element by element goes as written: it may protect a door that moves.
      if (!Array.isArray(value)) {
        carried.push(`${written} as written`);
        continue;
      }
      const elements = value as unknown[];
      const kept = elements.filter((element) => goes(key === 'doors' ? doorIdOf(element) : idOf(element)));
      // An include list left empty would show every door that moves: kept whole, it shows none of them, as before.
      const next = key === 'includeDoorIds' && kept.length === 0 && elements.length > 0 ? elements : kept;
      if (next.length === 0) delete block[written];
      else block[written] = next;
      const dropped = elements.length - next.length;
      const what = key === 'doors' ? plural(dropped, 'door entry', 'door entries') : `${plural(dropped, 'id', 'ids')} of ${written}`;
      if (dropped > 0) left.push(`${what} about doors that stay`);
      if (next.length > 0) carried.push(describe(key, next));
    }
  }
  for (const key of ['readOnly', 'automationSwitch', 'matter', 'includeDoors'] as const) {
    if (spellings(block, key).length > 0) carried.push(`${optionSpec(key).label} for all doors`);
  }
  const people = spellings(block, 'people').map((key) => block[key]);
  const persons = people.reduce<number>((sum, list) => sum + (Array.isArray(list) ? list.length : 1), 0);
  if (persons > 0) carried.push(plural(persons, 'person sensor', 'person sensors'));
  return { block, carried, left };
}

/** A door entry's id as the plugin reads it ("ID" as id); undefined when it has none it can read. */
function doorIdOf(entry: unknown): string | undefined {
  return isRecord(entry) ? idOf(readDoorKeys(entry).block.id) : undefined;
}

/** A carried list in words: door entries with the protection they hold, or a count of ids. */
function describe(key: (typeof BY_DOOR)[number], elements: unknown[]): string {
  if (key === 'includeDoorIds') return `the doors to show (${plural(elements.length, 'id', 'ids')})`;
  if (key === 'excludeDoorIds') return plural(elements.length, 'excluded door', 'excluded doors');
  const entries = elements.filter(isRecord).map((entry) => readDoorKeys(entry).block);
  const count = (test: (entry: Record<string, unknown>) => boolean): number => entries.filter(test).length;
  const protections = [
    [count((entry) => entry.readOnly !== undefined && entry.readOnly !== false), 'Read-only'],
    [count((entry) => entry.hide !== undefined && entry.hide !== false), 'hidden'],
    [count((entry) => entry.automationSwitch === false || entry.automationSwitch === 'off'), 'automation switch off'],
  ] as const;
  const said = protections.filter(([n]) => n > 0).map(([n, words]) => `${words} for ${n}`);
  return `${plural(elements.length, 'door entry', 'door entries')}${said.length > 0 ? ` (${said.join(', ')})` : ''}`;
}

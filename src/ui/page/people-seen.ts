// The people the shown doors' history names, grouped for "People and activity", and the `people` entry each one's tick edits.
import { homeKitName } from '../../util/homekit-name.js';
import { names, userKey } from '../../people/match.js';
import { isBlank, isRecord } from '../../config/values.js';
import { setField } from '../shared/block.js';
import type { Block } from '../shared/block.js';
import type { DoorActivity, PersonSeen } from '../shared/messages.js';

/** One person across the doors: how many entries name them, how many of those were refused, and at which doors. */
export interface PersonSummary extends PersonSeen {
  /** Who they are, as `people` matches: their e-mail's key, else their name's. */
  key: string;
  times: number;
  refused: number;
  /** The names of the doors, each once, in the order given. */
  doors: string[];
  /** Another person seen has the same name: only then does the page show their e-mail address. */
  showEmail: boolean;
}

/** The key a person is told apart by: the e-mail as userKey reads it; without one, their name (never equal to an e-mail's key). */
function personKey(person: PersonSeen): string {
  return person.email !== undefined ? userKey(person.email) : `name:${userKey(person.name)}`;
}

/** The name keys two or more different people seen share: their e-mails are shown, to tell them apart. */
export function sharedNames(people: readonly PersonSeen[]): Set<string> {
  const byName = new Map<string, Set<string>>();
  for (const person of people) {
    const name = userKey(person.name);
    const keys = byName.get(name) ?? new Set<string>();
    keys.add(personKey(person));
    byName.set(name, keys);
  }
  return new Set([...byName].filter(([, keys]) => keys.size > 1).map(([name]) => name));
}

/**
 * Everyone the doors' entries name, most often seen first (then by name). `doorName` gives a door's name from its id.
 * A person is counted under their first name seen, the newest: the history lists newest first.
 */
export function peopleSeen(activity: readonly DoorActivity[], doorName: (doorId: string) => string): PersonSummary[] {
  const people = new Map<string, PersonSummary>();
  for (const door of activity) {
    if (!door.ok) continue;
    // Counted by the settings server over every entry it read, not only the newest shown.
    for (const { person, times, refused } of door.people) {
      const key = personKey(person);
      const summary = people.get(key) ?? { ...person, key, times: 0, refused: 0, doors: [], showEmail: false };
      summary.times += times;
      summary.refused += refused;
      const where = doorName(door.doorId);
      if (!summary.doors.includes(where)) summary.doors.push(where);
      people.set(key, summary);
    }
  }
  const list = [...people.values()];
  const shared = sharedNames(list);
  for (const person of list) person.showEmail = person.email !== undefined && shared.has(userKey(person.name));
  return list.sort((a, b) => b.times - a.times || a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
}

/** Whether the page can add to and remove from `people`: absent (or blank), or a list. Else it is kept as written. */
export function peopleEditable(block: Block): boolean {
  return isBlank(block.people) || Array.isArray(block.people);
}

/** The `user` of each entry of `people` that has one written as text. */
function usersOf(block: Block): string[] {
  return Array.isArray(block.people)
    ? block.people.flatMap((entry: unknown) => (isRecord(entry) && typeof entry.user === 'string' ? [entry.user] : []))
    : [];
}

/**
 * How `people` lists the person: by their e-mail (the tick's own entry, which it can take away), only by their name
 * (written by hand: ticked, but kept as written), or not at all.
 */
export function listingOf(block: Block, person: PersonSeen): 'email' | 'name' | 'none' {
  const users = usersOf(block);
  if (person.email !== undefined && users.some((user) => userKey(user) === userKey(person.email ?? ''))) return 'email';
  return users.some((user) => names({ user }, { name: person.name })) ? 'name' : 'none';
}

/**
 * Adds the person's entry `{ name, user: <e-mail> }` at the end of `people`, or removes the entries whose `user` is
 * their e-mail (as userKey reads it); every other entry, and every other key, stays as written. Nothing changes for a
 * person without an e-mail, a `people` the page cannot edit, or an entry that is already as asked.
 */
export function setPersonListed(block: Block, person: PersonSeen, listed: boolean): Block {
  const email = person.email;
  if (email === undefined || !peopleEditable(block) || (listingOf(block, person) === 'email') === listed) return block;
  const current: unknown[] = Array.isArray(block.people) ? (block.people as unknown[]) : [];
  if (listed) {
    return setField(block, 'people', [...current, { name: homeKitName(person.name, email), user: email }]);
  }
  const key = userKey(email);
  const rest = current.filter((entry) => !(isRecord(entry) && typeof entry.user === 'string' && userKey(entry.user) === key));
  return setField(block, 'people', rest.length > 0 ? rest : undefined);
}

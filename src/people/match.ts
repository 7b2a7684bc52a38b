// Who a move names, and whose person sensors it concerns: the config's `user` against the service's user, by e-mail or name.
import type { DoorState } from '../client/types.js';
import { ANYONE_ELSE, userKey } from '../config/people.js';
import { idKey } from '../config/values.js';

/** The service's user as a webhook or the toggle history names them; every field is the service's text. */
export interface ServiceUser {
  email?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  /** A whole name, when the service gives one instead of first and last names. */
  name?: string | undefined;
}

/** One `people` entry as matching needs it. */
export interface PersonRule {
  /** An e-mail address, "First Last", or "*" for anyone not listed. */
  user: string;
  /** The door ids the entry counts; undefined: every door shown. */
  doors?: readonly string[] | undefined;
}

/** One successful move of a door, and who made it (undefined: the service named nobody). */
export interface PersonMove {
  doorId: string;
  state: DoorState;
  /** When the door moved (ms), as the service says; part of the move's key, so the same move from two sources is one. */
  atMs: number;
  user: ServiceUser | undefined;
}

// How `user` is written and compared is the config reader's (src/config/people.ts): one rule for both.
export { ANYONE_ELSE, userKey } from '../config/people.js';

/** Every key a service user may be written as in `people`: their e-mail, their "First Last" (or whole name). */
function keysOf(user: ServiceUser): string[] {
  const keys: string[] = [];
  if (user.email?.includes('@')) keys.push(userKey(user.email));
  const full = [user.firstName, user.lastName].filter((part) => part !== undefined && part.trim() !== '').join(' ');
  for (const name of [full, user.name ?? '']) {
    const key = userKey(name);
    // A name holding "@" is no e-mail: it must not match an entry's e-mail.
    if (key !== '' && !name.includes('@')) keys.push(key);
  }
  return keys;
}

/** Whether `rule.user` (not "*") names `user`. */
export function names(rule: PersonRule, user: ServiceUser): boolean {
  const key = userKey(rule.user);
  return key !== ANYONE_ELSE && keysOf(user).includes(key);
}

/**
 * The indexes of the entries a move detects for: each listed entry naming the user and counting the door; failing any
 * listed entry naming the user (whatever their doors), the "*" entry when it counts the door. A move naming nobody
 * detects nothing.
 */
export function detectsFor(rules: readonly PersonRule[], move: Pick<PersonMove, 'doorId' | 'user'>): number[] {
  const user = move.user;
  if (user === undefined || keysOf(user).length === 0) return [];
  const counts = (rule: PersonRule): boolean => rule.doors === undefined || rule.doors.includes(idKey(move.doorId));
  const listed = rules.map((rule, index) => ({ rule, index })).filter(({ rule }) => names(rule, user));
  if (listed.length > 0) {
    return listed.filter(({ rule }) => counts(rule)).map(({ index }) => index);
  }
  return rules.flatMap((rule, index) => (rule.user.trim() === ANYONE_ELSE && counts(rule) ? [index] : []));
}

/** One key per move: the same move told by a webhook and by the history (or by two syncs) detects once. */
export function moveKey(move: Pick<PersonMove, 'doorId' | 'state' | 'atMs'>): string {
  // The service's times are whole seconds in the history; a webhook's may carry more.
  return `${move.doorId}\u0000${move.state}\u0000${Math.floor(move.atMs / 1000)}`;
}

/** The toggle history's time (`YYYY-MM-DD HH:MM:SS`, UTC without a zone, or ISO with one) in ms; undefined without a time of day. */
export function serviceTimeMs(text: string | undefined): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(text?.trim() ?? '');
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}${match[3] ?? 'Z'}`);
  return Number.isNaN(ms) ? undefined : ms;
}

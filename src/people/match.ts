// Who a move names, and whose person sensors it concerns: the config's `user` against the service's user, by e-mail or name.
import type { DoorState } from '../client/types.js';
import { ANYONE_ELSE, userKey } from '../config/people-list.js';
import { canonicalId } from '../util/canonical-id.js';
import { PERSON_DIRECTORY_MAX } from '../settings.js';

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
  /** When the door moved (ms): a webhook's `eventOccurred`, or when a sync saw the move. */
  atMs: number;
  user: ServiceUser | undefined;
  /** The webhook's toggleID: the same toggle told twice (two event types) is one move. */
  toggleId?: string | undefined;
  /** Told by a webhook (not found in the history): its history entry is this move, not another. */
  byWebhook?: boolean | undefined;
}

// How `user` is written and compared is the config reader's (src/config/people-list.ts): one rule for both.
export { ANYONE_ELSE, userKey } from '../config/people-list.js';

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
 * Names paired with e-mails as the service writes them together (the history always, a webhook mostly), so a user named
 * by one alone can be told listed or not. Bounded: past PERSON_DIRECTORY_MAX e-mails, new pairs are not learnt.
 */
export class PeopleDirectory {
  private readonly namesOf = new Map<string, Set<string>>();

  /** Learns the pair a service user gives, when it gives both an e-mail and a name. */
  learn(user: ServiceUser | undefined): void {
    const email = user?.email?.includes('@') === true ? userKey(user.email) : undefined;
    const names = user ? keysOf(user).filter((key) => key !== email) : [];
    if (email === undefined || names.length === 0) return;
    const known = this.namesOf.get(email);
    if (known === undefined && this.namesOf.size >= PERSON_DIRECTORY_MAX) return;
    const set = known ?? new Set<string>();
    for (const name of names) set.add(name);
    this.namesOf.set(email, set);
  }

  /** The names the service gave with this e-mail (keys). */
  namesFor(emailKey: string): ReadonlySet<string> {
    return this.namesOf.get(emailKey) ?? new Set();
  }

  /** The e-mails the service gave with this name (keys). */
  emailsFor(nameKey: string): string[] {
    return [...this.namesOf].flatMap(([email, names]) => (names.has(nameKey) ? [email] : []));
  }
}

const isEmailKey = (key: string): boolean => key.includes('@');

/**
 * The indexes of the entries a move detects for: each listed entry naming the user and counting the door; failing any,
 * the "*" entry when it counts the door and the user is surely not listed. A user named by e-mail alone, or by name
 * alone, is looked up in `directory` (the pairs the service wrote): an entry keyed the other way names them when the
 * pair says so; when it cannot be told whether they are listed (a name two e-mails carry, an e-mail without a known
 * name while entries list names, a name without a known e-mail while entries list e-mails), nobody detects.
 */
export function detectsFor(
  rules: readonly PersonRule[],
  move: Pick<PersonMove, 'doorId' | 'user'>,
  directory: PeopleDirectory = new PeopleDirectory(),
): number[] {
  const user = move.user;
  if (user === undefined) return [];
  const own = keysOf(user);
  if (own.length === 0) return [];
  const emails = own.filter(isEmailKey);
  const names = own.filter((key) => !isEmailKey(key));
  // What the pairs add: the names of an e-mail, the e-mails of a name (only when one e-mail carries it).
  const pairedNames = emails.flatMap((email) => [...directory.namesFor(email)]);
  const pairedEmails = names.flatMap((name) => directory.emailsFor(name));
  if (emails.length === 0 && new Set(pairedEmails).size > 1) {
    return [];
  }
  const keys = new Set([...own, ...pairedNames, ...(emails.length === 0 ? pairedEmails : [])]);
  const counts = (rule: PersonRule): boolean => rule.doors === undefined || rule.doors.includes(canonicalId(move.doorId));
  const listed = rules.map((rule, index) => ({ rule, index })).filter(({ rule }) => keys.has(userKey(rule.user)));
  if (listed.length > 0) {
    return listed.filter(({ rule }) => counts(rule)).map(({ index }) => index);
  }
  const keyed = rules.map((rule) => userKey(rule.user)).filter((key) => key !== ANYONE_ELSE);
  // Not listed, surely: every entry keyed by e-mail is told apart by an e-mail (or by names the pairs give it), and every
  // entry keyed by name by a name.
  const allNames = new Set([...names, ...pairedNames]);
  const toldApart = keyed.every((key) =>
    isEmailKey(key)
      ? emails.length > 0 || (directory.namesFor(key).size > 0 && !names.some((n) => directory.namesFor(key).has(n)))
      : allNames.size > 0,
  );
  if (!toldApart) return [];
  return rules.flatMap((rule, index) => (rule.user.trim() === ANYONE_ELSE && counts(rule) ? [index] : []));
}

// The `people` list of config.json read entry by entry: a bad entry is said and left out, one user listed twice is
// merged, and a person whose doors cannot be read detects nothing: a typo must not make a sensor count at every door.
import * as z from '../util/zod.js';

import { MAX_PEOPLE, PERSON_USER_MAX_CHARS } from '../settings.js';
import type { Issue } from './findings.js';
import { mayProtect } from './fail-closed.js';
import { secretRefusal } from './secret-values.js';
import { typed } from './redacted.js';
import type { HeldSecret } from './secret-values.js';
import { readKeys } from './keys.js';
import { fold } from '../util/near-miss.js';
import { idProblem, isBlank, isRecord, listing, readIdList } from './values.js';

const text = (what: string) =>
  z
    .string({ error: `must be text (${what})` })
    .check(
      z.trim(),
      z.minLength(1, 'must not be empty'),
      z.maxLength(PERSON_USER_MAX_CHARS, `must be at most ${PERSON_USER_MAX_CHARS} characters`),
    );

/** One person as config.json holds them; `doors` left out: every door shown counts. */
export const personSchema = z.object({
  name: text('the name Home shows'),
  user: text('an e-mail address, "First Last", or "*"'),
  doors: z.optional(z.array(z.string().check(z.trim(), z.minLength(1)), { error: 'must be a list of door ids' })),
});

export type PersonConfig = z.infer<typeof personSchema>;

export const peopleSchema = z._default(z.array(personSchema, { error: 'must be a list of people' }), []);

const PERSON_KEYS = ['name', 'user', 'doors'];

/** The `user` that stands for anyone not listed. */
export const ANYONE_ELSE = '*';

/** The form `user` is compared in: an e-mail lower-cased and trimmed; a name lower-cased with every space dropped. */
export function userKey(user: string): string {
  const trimmed = user.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : trimmed.toLowerCase().replace(/\s+/gu, '');
}

export interface PeopleFindings {
  /** A setting left out, and why: one sentence (the plain issues for a refused block). */
  add(issues: Issue[], sentence: string): void;
  /** A key read as what it nearly is, an unknown key, a merge: one sentence about the key at `path`, the entry still counts. */
  warn(path: readonly PropertyKey[], sentence: string): void;
  /** An entry (or the list) could not be read: the person sensors in the cache stay, whoever they are for. */
  keepCached(): void;
  /** Which secret a name holds (src/config/secret-values.ts): such a person is refused. */
  heldSecret: HeldSecret;
}

const DETECTS_NOTHING = 'this person detects nothing until it is fixed';

/** What a key's name holds when it may name a person's doors however far it is from "doors" ("doorsIds", "myDoorList"). */
const DOOR_WORD = fold('door');

/**
 * A person's `doors` as the plugin counts them: the ids as the service means them (a list written as one text split).
 * `ids` undefined: no list, every door counts. `problem`: the list cannot be read (an element that is no id, a
 * shape that is no list), said with its path; the person then counts no door.
 */
function readPersonDoors(value: unknown): { ids?: string[]; problem?: { path: PropertyKey[]; sentence: string } } {
  if (isBlank(value)) return {};
  const reading = readIdList(value);
  if (reading.bad.length === 0 && reading.numbers.length === 0) return { ids: reading.ids };
  if (!Array.isArray(value)) return { problem: { path: ['doors'], sentence: 'doors must be a list of door ids ([ "…" ])' } };
  const index = reading.numbers[0]?.index ?? reading.bad[0] ?? 0;
  return { problem: { path: ['doors', index], sentence: `doors.${index} ${idProblem(value[index])}` } };
}

/** Reads `people`; never throws. A person sensor protects nothing: a bad entry is left out, nothing fails closed. */
export function readPeople(value: unknown, findings: PeopleFindings): PersonConfig[] | undefined {
  if (isBlank(value)) return undefined;
  if (!Array.isArray(value)) {
    findings.add(
      [{ path: ['people'], message: 'must be a list of people' }],
      'people must be a list of people ([ { "name": …, "user": … } ]); it is ignored',
    );
    return [];
  }
  const people: PersonConfig[] = [];
  const firstIndex = new Map<string, number>();
  value.forEach((raw: unknown, index) => {
    const at = `people.${index}`;
    if (isBlank(raw) || (isRecord(raw) && Object.values(raw).every(isBlank))) return; // An entry the form opened and nobody filled in.
    if (!isRecord(raw)) {
      findings.keepCached();
      findings.add(
        [{ path: ['people', index], message: 'must be one person' }],
        `${at} must be one person ({ "name": …, "user": … }); it is ignored`,
      );
      return;
    }
    const keys = readKeys(raw, {
      known: PERSON_KEYS,
      // "doorIds": ["…"] meant a list of doors: read as none, not as every door.
      doubt: (key, value) => (key === 'doors' && mayProtect(value) ? DETECTS_NOTHING : undefined),
    });
    for (const { key, sentence } of keys.sentences) findings.warn(['people', index, key], `${at}: ${sentence}`);
    const block = keys.block;
    // Another unknown key may be doors however far its name is: one holding a list or an object ("onlyAt": { … }), or
    // one whose name holds "door" ("doorsIds": "…"). The person counts no door rather than every door.
    const said = new Set(keys.sentences.filter(({ sentence }) => sentence.endsWith(DETECTS_NOTHING)).map(({ key }) => key));
    const maybeDoors = Object.keys(block).filter(
      (key) =>
        !PERSON_KEYS.includes(key) &&
        mayProtect(block[key]) &&
        (Array.isArray(block[key]) || isRecord(block[key]) || fold(key).includes(DOOR_WORD) || said.has(key)),
    );
    const unsaid = maybeDoors.filter((key) => !said.has(key));
    if (unsaid.length > 0) {
      findings.warn(
        ['people', index, unsaid[0] ?? ''],
        `${at}: as ${listing(unsaid.map((key) => typed(key)))} may be its doors, ${DETECTS_NOTHING}`,
      );
    }
    const read = readPersonDoors(block.doors);
    if (read.problem !== undefined) {
      findings.warn(['people', index, ...read.problem.path], `${at}: ${read.problem.sentence}; ${DETECTS_NOTHING}`);
    }
    const doors = maybeDoors.length > 0 || read.problem !== undefined ? [] : read.ids;
    if (doors !== undefined && doors.length > 0 && !Array.isArray(block.doors)) {
      findings.warn(
        ['people', index, 'doors'],
        `${at}: doors is written as one value, not a list ([ … ]); it is read as the list of the ${doors.length} door ids it holds`,
      );
    }
    // A secret is never a person's name (secret-values.ts): the person is left out, as a name is what it is shown as.
    const nameSecret = findings.heldSecret(block.name) ?? findings.heldSecret(block.user);
    if (nameSecret !== undefined) {
      const key = findings.heldSecret(block.name) === undefined ? 'user' : 'name';
      findings.add(
        [{ path: ['people', index, key], message: `holds the secret of ${nameSecret}` }],
        secretRefusal(`${at}.${key}`, nameSecret, 'this person is left out'),
      );
      return;
    }
    const entry = { name: block.name, user: block.user, ...(doors === undefined ? {} : { doors }) };
    const parsed = personSchema.safeParse(entry);
    if (!parsed.success) {
      findings.keepCached();
      const issues = parsed.error.issues.map((issue) => ({ path: ['people', index, ...issue.path], message: issue.message }));
      const said = [...new Set(issues.map((issue) => `${issue.path.slice(2).map(String).join('.')} ${issue.message}`))].join(', ');
      findings.add(issues, `${at} ${said}; this person is left out`);
      return;
    }
    const person = parsed.data;
    if (people.length >= MAX_PEOPLE) {
      findings.add(
        [{ path: ['people', index], message: `is past the ${MAX_PEOPLE} people the plugin shows` }],
        `${at} is past the ${MAX_PEOPLE} people the plugin shows; it is left out`,
      );
      return;
    }
    const key = userKey(person.user);
    const first = firstIndex.get(key);
    if (first !== undefined) {
      const slot = people.findIndex((p) => userKey(p.user) === key);
      const earlier = people[slot];
      if (earlier) {
        // Every door either entry counts; no list in either means every door.
        const merged =
          earlier.doors === undefined || person.doors === undefined ? undefined : [...new Set([...earlier.doors, ...person.doors])];
        people[slot] = { name: earlier.name, user: earlier.user, ...(merged ? { doors: merged } : {}) };
      }
      const whom = key === ANYONE_ELSE ? 'the "*" entry (anyone not listed)' : 'the same user';
      findings.warn(
        ['people', index],
        `${at} is a second entry for ${whom} as people.${first}; they are merged: people.${first}'s name, and the doors of both`,
      );
      return;
    }
    firstIndex.set(key, index);
    people.push(person);
  });
  return people;
}

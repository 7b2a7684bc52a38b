// The `people` list of config.json read entry by entry: a bad entry is said and left out, one user listed twice is merged.
import * as z from '../util/zod.js';

import { readKeys } from '../config-keys.js';
import { MAX_PEOPLE, PERSON_USER_MAX_CHARS } from '../settings.js';
import { ANYONE_ELSE, userKey } from './match.js';

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

interface Issue {
  path: readonly PropertyKey[];
  message: string;
}

export interface PeopleFindings {
  /** A setting left out, and why: one sentence (the plain issues for a refused block). */
  add(issues: Issue[], sentence: string): void;
  /** A key read as what it nearly is, an unknown key, a merge: one sentence, the entry still counts. */
  warn(sentence: string): void;
  /** An entry (or the list) could not be read: the person sensors in the cache stay, whoever they are for. */
  keepCached(): void;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isBlank = (v: unknown): boolean => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A door id as written (text or a whole number), or undefined. */
function doorIdOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Reads `people`; never throws. A person sensor protects nothing: a bad entry is left out, nothing fails closed. */
export function readPeople(value: unknown, findings: PeopleFindings, secrets: unknown[]): PersonConfig[] | undefined {
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
    const keys = readKeys(raw, { known: PERSON_KEYS, secrets });
    keys.sentences.forEach((sentence) => findings.warn(`${at}: ${sentence}`));
    const block = keys.block;
    const doors: unknown = Array.isArray(block.doors) ? block.doors.map((door: unknown) => doorIdOf(door) ?? door) : block.doors;
    const entry = { name: block.name, user: block.user, ...(isBlank(doors) ? {} : { doors }) };
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
        `${at} is a second entry for ${whom} as people.${first}; they are merged: people.${first}'s name, and the doors of both`,
      );
      return;
    }
    firstIndex.set(key, index);
    people.push(person);
  });
  return people;
}

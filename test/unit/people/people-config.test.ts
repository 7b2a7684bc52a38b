import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import { detectsFor } from '../../../src/people/match.js';

const valid = { accessToken: 'token', baseUrl: 'https://api.example.com' };

function read(people: unknown): { people: unknown; ignored: string[]; warnings: string[] } {
  const result = parseConfig({ ...valid, people });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return { people: result.config.people, ignored: result.ignored, warnings: result.warnings };
}

describe('the people setting', () => {
  it('reads each person, doors optional, none by default', () => {
    expect(read(undefined).people).toEqual([]);
    expect(
      read([
        { name: 'Grace', user: 'grace@example.com', doors: ['gate', 42] },
        { name: 'Anyone', user: '*' },
      ]).people,
    ).toEqual([
      { name: 'Grace', user: 'grace@example.com', doors: ['gate', '42'] },
      { name: 'Anyone', user: '*' },
    ]);
  });

  it('leaves out a bad entry with one sentence, and keeps the others', () => {
    const { people, ignored } = read([
      { name: 'Grace' },
      'Alan',
      { name: 'Ada', user: 'ada@example.com' },
      { name: 'X', user: 'x@y', doors: 'gate' },
    ]);
    // Deliberate change (issue 36): doors written as one text is the list of the ids it holds, as for the filters.
    expect(people).toEqual([
      { name: 'Ada', user: 'ada@example.com' },
      { name: 'X', user: 'x@y', doors: ['gate'] },
    ]);
    expect(ignored).toEqual([
      'people.0 user must be text (an e-mail address, "First Last", or "*"); this person is left out',
      'people.1 must be one person ({ "name": …, "user": … }); it is ignored',
    ]);
  });

  it('says a people value that is no list', () => {
    expect(read({ name: 'Grace', user: 'grace@example.com' })).toMatchObject({
      people: [],
      ignored: ['people must be a list of people ([ { "name": …, "user": … } ]); it is ignored'],
    });
  });

  it('reads a misspelt key as what it nearly is, and names an unknown one', () => {
    const { people, warnings } = read([{ name: 'Grace', uesr: 'grace@example.com', colour: 'red' }]);
    expect(people).toEqual([{ name: 'Grace', user: 'grace@example.com' }]);
    expect(warnings).toEqual([
      'people.0: "uesr" is read as user',
      'people.0: "colour" is not a setting the plugin knows, so it is ignored',
    ]);
  });

  it('merges a user listed twice (any case), and a second "*" entry', () => {
    const { people, warnings } = read([
      { name: 'Grace', user: 'grace@example.com', doors: ['gate'] },
      { name: 'G', user: 'GRACE@example.com ', doors: ['garage'] },
      { name: 'Anyone', user: '*' },
      { name: 'Others', user: '*', doors: ['gate'] },
    ]);
    expect(people).toEqual([
      { name: 'Grace', user: 'grace@example.com', doors: ['gate', 'garage'] },
      { name: 'Anyone', user: '*' },
    ]);
    expect(warnings).toEqual([
      "people.1 is a second entry for the same user as people.0; they are merged: people.0's name, and the doors of both",
      'people.3 is a second entry for the "*" entry (anyone not listed) as people.2; they are merged: people.2\'s name, and the doors of both',
    ]);
  });

  it('reads personSensorDuration from 1 to 3600 seconds, 60 by default', () => {
    const result = parseConfig({ ...valid, personSensorDuration: 0 });
    expect(result.ok && result.config.personSensorDuration).toBe(60);
    expect(result.ok && result.ignored).toEqual(['personSensorDuration must be at least 1 seconds; the default, 60 seconds, is used']);
    const set = parseConfig({ ...valid, personSensorDuration: 3600 });
    expect(set.ok && set.config.personSensorDuration).toBe(3600);
  });
});

describe("a person's doors the plugin cannot read (issue 43)", () => {
  const grace = { email: 'grace@example.com' };
  /** The doors the person's sensor detects at, of two: "gate" and "garage". */
  const detectsAt = (entry: Record<string, unknown>): { at: string[]; warnings: string[] } => {
    const { people, warnings } = read([{ name: 'Grace', user: 'grace@example.com', ...entry }]);
    const rules = people as Parameters<typeof detectsFor>[0];
    return { at: ['gate', 'garage'].filter((doorId) => detectsFor(rules, { doorId, user: grace }).length > 0), warnings };
  };

  it.each([
    [{ doorsIds: 'gate' }, 'people.0: as "doorsIds" may be its doors, this person detects nothing until it is fixed'],
    [{ doorList: 'gate, other' }, 'people.0: as "doorList" may be its doors, this person detects nothing until it is fixed'],
    [{ allowedDoorIds: 42 }, 'people.0: as "allowedDoorIds" may be its doors, this person detects nothing until it is fixed'],
    [{ onlyAt: { gate: true } }, 'people.0: as "onlyAt" may be its doors, this person detects nothing until it is fixed'],
    [{ doors: { id: 'gate' } }, 'people.0: doors must be a list of door ids ([ "…" ]); this person detects nothing until it is fixed'],
    [{ doors: true }, 'people.0: doors must be a list of door ids ([ "…" ]); this person detects nothing until it is fixed'],
    // A text that is no list of plain ids is one id (issue 42): no door has it, so the person counts none.
    [
      { doors: 'gate <b>' },
      'people.0: doors is written as one value, not a list ([ … ]); it is read as the list of the 1 door ids it holds',
    ],
    [
      { doors: ['gate', { id: 'garage' }] },
      'people.0: doors.1 must be an id (text or a number); this person detects nothing until it is fixed',
    ],
    [
      { doors: [Number('9007199254740993')] },
      'people.0: doors.0 is a number too large to be read exactly (beyond 2^53); write the id in quotes, as text; this person detects nothing until it is fixed',
    ],
  ])('%j: the person detects nothing, with a line, never at every door', (entry, line) => {
    const { at, warnings } = detectsAt(entry);
    expect(at).toEqual([]);
    expect(warnings).toContain(line);
  });

  it('keeps the person in Home (its automations stay) and reads a readable list as before', () => {
    expect(read([{ name: 'Grace', user: 'grace@example.com', doors: true }]).people).toEqual([
      { name: 'Grace', user: 'grace@example.com', doors: [] },
    ]);
    expect(detectsAt({ doors: 'gate' }).at).toEqual(['gate']);
    expect(detectsAt({ doors: ['gate', 42] }).at).toEqual(['gate']);
    expect(detectsAt({}).at).toEqual(['gate', 'garage']);
    // A key that cannot be doors (a text under a name without "door") is only named.
    expect(detectsAt({ note: 'my wife' })).toEqual({
      at: ['gate', 'garage'],
      warnings: ['people.0: "note" is not a setting the plugin knows, so it is ignored; the closest setting is name'],
    });
  });

  it('detects nothing when doors is readable but another key may be its doors too, as the line says', () => {
    const { at, warnings } = detectsAt({ doors: ['gate'], doorIds: ['garage'] });
    expect(at).toEqual([]);
    expect(warnings.join(' ')).toMatch(/this person detects nothing until it is fixed/);
  });

  it('never counts every door for doors written in any shape, or any key holding "door" (property)', () => {
    const doorKey = fc
      .tuple(fc.string({ maxLength: 6 }), fc.constantFrom('door', 'Door', 'DOOR', 'door_'), fc.string({ maxLength: 6 }))
      .map(([a, door, b]) => `${a}${door}${b}`)
      .filter((key) => !['name', 'user', 'doors'].includes(key));
    const value = fc.jsonValue({ maxDepth: 2 });
    fc.assert(
      fc.property(
        fc.oneof(
          value.map((v) => ({ doors: v })),
          fc.tuple(doorKey, value).map(([k, v]) => ({ [k]: v })),
        ),
        (entry) => {
          const { people } = read([{ name: 'Grace', user: 'grace@example.com', ...entry }]);
          const person = (people as { doors?: string[] }[])[0];
          const blank = (v: unknown): boolean =>
            v === null || v === false || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
          const written = Object.values(entry)[0];
          // Every door only where nothing was written that may be doors.
          if (person?.doors === undefined) expect(blank(written) || written === undefined).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';

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

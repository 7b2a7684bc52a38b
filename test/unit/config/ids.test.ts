// Ids as the service means them (issue 36): one reader of ids for every setting that names a door or a controller, so
// an id in upper case, pasted with an invisible character, or a list written as one text protects what it names.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import type { PluginConfig } from '../../../src/config/index.js';
import { idsInText, readIdList } from '../../../src/config/values.js';
import { protectionFor } from '../../../src/config/protection.js';
import { doorOptions, exclusionReason } from '../../../src/config/door-options.js';
import { skeleton } from '../../../src/util/skeleton.js';
import { detectsFor } from '../../../src/people/match.js';

const valid = { accessToken: 'ac_live_4f9b8e2d7c1a6b3f', baseUrl: 'https://api.example.com' };
const A = '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c';
const B = 'a7c9e1f3-5b2d-4c8e-9f1a-3b5d7e9f1a2c';
const C = 'c0ffee00-1234-4abc-9def-000000000003';

function read(raw: Record<string, unknown>): { config: PluginConfig; ignored: string[]; warnings: string[] } {
  const result = parseConfig({ ...valid, ...raw });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result;
}

const shown = (config: PluginConfig, id: string, controller = 'dev-1'): boolean =>
  exclusionReason(config, { id, relationship: 'owner' }, controller) === undefined;
const opens = (config: PluginConfig, id: string, controller = 'dev-1'): boolean =>
  shown(config, id, controller) && !doorOptions(config, id, controller).readOnly;

describe('a list written as one text (finding 1)', () => {
  it('is split on commas, semicolons and white space when every part is an id', () => {
    expect(idsInText(`${A}, ${B}`)).toEqual([A, B]);
    expect(idsInText(`${A};${B}\n${C}`)).toEqual([A, B, C]);
    expect(idsInText(`${A}\u00a0${B}`)).toEqual([A, B]);
    expect(idsInText('a, b/c')).toBeUndefined();
    expect(readIdList(`${A},${B}`)).toMatchObject({ ids: [A, B], bad: [], lone: true });
  });

  it('excludes every door it names, and says how it was read', () => {
    const { config, ignored } = read({ excludeDoorIds: `${A}, ${B}` });
    expect(opens(config, A)).toBe(false);
    expect(opens(config, B)).toBe(false);
    expect(opens(config, C)).toBe(true);
    expect(ignored).toEqual(['excludeDoorIds must be a list of ids ([ … ]); it is read as the list of the 2 ids it holds']);
  });

  it('as an include list shows the doors it names, not none', () => {
    const { config } = read({ includeDoorIds: `${A},${B}` });
    expect(shown(config, A)).toBe(true);
    expect(shown(config, B)).toBe(true);
    expect(shown(config, C)).toBe(false);
  });

  it('reads a text that is no list of ids as one id, which keeps out the door it holds (issue 42)', () => {
    const { config } = read({ excludeDoorIds: `${A}, the gate/back` });
    const protection = protectionFor(config, { doors: [A, B, C].map((id) => ({ id, deviceId: 'dev-1' })) }, skeleton);
    expect(exclusionReason(config, { id: A, relationship: 'owner' }, 'dev-1', protection)).toMatch(/could mean it/);
    expect(opens(config, C)).toBe(true);
  });
});

describe('an id in another case or with an invisible character (finding 2)', () => {
  it.each([
    ['upper case', A.toUpperCase()],
    ['a zero-width space', `${A}\u200b`],
    ['a byte order mark', `\ufeff${A}`],
    ['a no-break space', `${A}\u00a0`],
  ])('in doors[].id with readOnly keeps the door closed: %s', (_, written) => {
    const { config } = read({ doors: [{ id: written, readOnly: true }] });
    expect(doorOptions(config, A).readOnly).toBe(true);
    expect(doorOptions(config, B).readOnly).toBe(false);
  });

  it('matches in hide, the filters (doors and controllers) and a door the service writes in upper case', () => {
    expect(shown(read({ doors: [{ id: A.toUpperCase(), hide: true }] }).config, A)).toBe(false);
    expect(shown(read({ excludeDoorIds: [`${A.toUpperCase()}\u200b`] }).config, A)).toBe(false);
    expect(shown(read({ excludeDeviceIds: ['DEV-1'] }).config, A, 'dev-1')).toBe(false);
    expect(shown(read({ includeDeviceIds: ['Dev-1'] }).config, A, 'DEV-1')).toBe(true);
    expect(doorOptions(read({ doors: [{ id: A, readOnly: true }] }).config, A.toUpperCase()).readOnly).toBe(true);
  });

  it("counts in a person's doors", () => {
    const { config } = read({ people: [{ name: 'Grace', user: 'grace@example.com', doors: [A.toUpperCase()] }] });
    const rules = config.people;
    expect(detectsFor(rules, { doorId: A, user: { email: 'grace@example.com' } })).toEqual([0]);
    expect(detectsFor(rules, { doorId: B, user: { email: 'grace@example.com' } })).toEqual([]);
  });
});

describe('a number id too large to hold exactly (finding 3)', () => {
  it('locks only the doors whose id could be that number, never a UUID', () => {
    const { config } = read({ doors: [{ id: Number('9007199254740993'), readOnly: true }] });
    expect(opens(config, A)).toBe(true);
    expect(opens(config, '9007199254740993')).toBe(false);
    expect(opens(config, '9007199254740992')).toBe(false);
  });
});

describe('near misses between a widening and a narrowing key (finding 4)', () => {
  it('"excludeDoors" keeps the door it names out of Home, and only that door (issue 42)', () => {
    const { config, warnings } = read({ excludeDoors: [A] });
    const protection = protectionFor(config, { doors: [A, B, C].map((id) => ({ id, deviceId: 'dev-1' })) }, skeleton);
    expect(exclusionReason(config, { id: A, relationship: 'owner' }, 'dev-1', protection)).toMatch(/excludeDoors names it/);
    expect(opens(config, B)).toBe(true);
    expect(warnings[0]).toBe(
      '"excludeDoors" is not a setting the plugin knows, so it is ignored; the closest setting is includeDoors; but a door of the account it names stays out of Home until it is fixed',
    );
  });
});

describe("a near miss of a person's doors (finding 5)", () => {
  it.each(['doorIds', 'door_ids', 'Door_IDs', 'doorList'])(
    '%s makes the person detect nothing, with a line, instead of at every door',
    (key) => {
      const { config, warnings } = read({ people: [{ name: 'Grace', user: 'grace@example.com', [key]: [A] }] });
      const grace = { email: 'grace@example.com' };
      expect(detectsFor(config.people, { doorId: B, user: grace })).toEqual([]);
      expect(warnings.join(' ')).toMatch(/this person detects nothing until it is fixed/);
    },
  );
});

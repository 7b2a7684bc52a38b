// The one gate (issue 49): every command asks it, from the settings and the doors known now; ids are compared by their
// letters and digits too; a typo protects the nearest doors only; a door no setting names is let through.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import type { PluginConfig } from '../../../src/config/index.js';
import { knownDoorMap, READ_ONLY_REFUSAL, refusalFor } from '../../../src/config/gate.js';
import type { KnownDoor } from '../../../src/config/gate.js';
import { NO_PROTECTION, protectionFor, UNTIL_TOLD } from '../../../src/config/protection.js';
import { skeleton } from '../../../src/util/skeleton.js';

const valid = { accessToken: 'ac_live_gate_7d1e0b9c2a', baseUrl: 'https://api.example.com' };
const A = '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c';
const B = 'a7c9e1f3-5b2d-4c8e-9f1a-3b5d7e9f1a2c';
const C = 'c0ffee00-1234-4abc-9def-000000000003';
const DOORS: KnownDoor[] = [
  { id: A, deviceId: 'dev-1', relationship: 'owner' },
  { id: B, deviceId: 'dev-1', relationship: 'owner' },
  { id: C, deviceId: 'dev-2', relationship: 'owner' },
];

const config = (raw: Record<string, unknown>): PluginConfig => {
  const result = parseConfig({ ...valid, ...raw });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
};

/** Which of `doors` the gate refuses under `raw`, with the protection the platform reads for them. */
function refused(raw: Record<string, unknown>, doors: KnownDoor[] = DOORS): string[] {
  const parsed = config(raw);
  const view = { config: parsed, protection: protectionFor(parsed, { doors }, skeleton), known: knownDoorMap(doors) };
  return doors.filter((door) => refusalFor(view, door.id) !== undefined).map((door) => door.id);
}

describe('the gate', () => {
  it('refuses a read-only door with the line users know, and lets every other through', () => {
    const parsed = config({ doors: [{ id: A, readOnly: true }] });
    const view = { config: parsed, protection: NO_PROTECTION, known: knownDoorMap(DOORS) };
    expect(refusalFor(view, A)).toBe(READ_ONLY_REFUSAL);
    expect(refusalFor(view, B)).toBeUndefined();
  });

  it.each([
    ['hidden', { doors: [{ id: A, hide: true }] }, 'it is kept out of Home: it is hidden in the plugin settings'],
    ['excluded', { excludeDoorIds: [A] }, 'it is kept out of Home: it is filtered out in the plugin settings'],
    ['left out by an include list', { includeDoorIds: [B] }, 'it is kept out of Home: it is filtered out in the plugin settings'],
    [
      'its controller filtered out',
      { excludeDeviceIds: ['dev-1'] },
      'it is kept out of Home: its controller is filtered out in the plugin settings',
    ],
  ])('refuses a door %s, not waiting for a sync to remove it', (_, raw, why) => {
    const parsed = config(raw);
    expect(refusalFor({ config: parsed, protection: NO_PROTECTION, known: knownDoorMap(DOORS) }, A)).toBe(why);
  });

  it('names the setting that could mean a door in its refusal, never "read-only in the plugin settings"', () => {
    const parsed = config({ doors: [{ id: `${A}x`, readOnly: true }] });
    const view = { config: parsed, protection: protectionFor(parsed, { doors: DOORS }, skeleton), known: knownDoorMap(DOORS) };
    expect(refusalFor(view, A)).toBe(`it is read-only until a setting is fixed: the id "${A}x" in doors could mean it`);
    expect(refusalFor({ ...view, protection: UNTIL_TOLD }, B)).toBe(
      'every door is read-only until the plugin has read which doors the settings name',
    );
  });

  it('refuses a door it does not know now, and every door when the settings cannot be read', () => {
    const known = knownDoorMap(DOORS.slice(1));
    expect(refusalFor({ config: config({}), protection: NO_PROTECTION, known }, A)).toBe('the account, as last read, does not list it');
    expect(refusalFor({ config: undefined, protection: NO_PROTECTION, known }, B)).toBe('the plugin settings cannot be read');
  });

  it('finds the door by its canonical id, as the service may send it in another case', () => {
    expect(
      refusalFor({ config: config({ excludeDoorIds: [A] }), protection: NO_PROTECTION, known: knownDoorMap(DOORS) }, A.toUpperCase()),
    ).toMatch(/filtered out/);
  });
});

describe('ids by their letters and digits (item 2)', () => {
  const core = A.replaceAll('-', '');
  it.each([
    ['without dashes', core],
    ['as urn:uuid:', `urn:uuid:${A}`],
    ['as door:', `door:${A}`],
    ['pasted twice', `${A}${A}`],
    ['with a literal escape for its first letter', `3\\u0066${A.slice(2)}`],
    ['upper case, no dashes', core.toUpperCase()],
  ])('a read-only entry or an exclusion written %s protects that door only', (_, written) => {
    expect(refused({ doors: [{ id: written, readOnly: true }] })).toEqual([A]);
    expect(refused({ excludeDoorIds: [written] })).toEqual([A]);
  });

  it('an id split over two entries protects its door: each half is held in exactly one door', () => {
    expect(refused({ excludeDoorIds: [A.slice(0, 18), A.slice(18)] })).toEqual([A]);
  });

  it('a part held in several doors, or shorter than 8 letters and digits, names none of them', () => {
    const doors = [...DOORS, { id: `${A.slice(0, 30)}ffffff`, deviceId: 'dev-3' }];
    expect(refused({ excludeDoorIds: [A.slice(0, 20)] }, doors)).toEqual([]);
    expect(refused({ excludeDoorIds: ['3f2b8c1'] })).toEqual([]);
  });
});

describe('could mean is the nearest, not every near (item 3)', () => {
  /** 149 time-based ids: all but the first 8 hex digits shared. */
  const timeBased = Array.from({ length: 149 }, (_, i) => ({
    id: `${(0x1ec9a3b0 + i * 0x1f).toString(16).padStart(8, '0')}-6d2e-11ee-8c90-0242ac120002`,
    deviceId: 'dev-1',
  }));
  const sequential = Array.from({ length: 149 }, (_, i) => ({ id: `door-${i + 1}`, deviceId: 'dev-1' }));

  it('one typo in the shared part of 149 time-based ids protects at most three doors, and the one meant', () => {
    fc.assert(
      fc.property(
        fc.nat(148),
        fc.integer({ min: 8, max: 35 }),
        fc.constantFrom(...Array.from('0123456789abcdefxz-')),
        (door, at, letter) => {
          const id = timeBased[door]?.id ?? '';
          const typo = `${id.slice(0, at)}${letter}${id.slice(at + 1)}`;
          fc.pre(!timeBased.some((other) => other.id === typo));
          const locked = refused({ doors: [{ id: typo, readOnly: true }] }, timeBased);
          expect(locked.length).toBeLessThanOrEqual(3);
          expect(locked).toContain(id);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('a typo where the ids differ protects every door as near as the one meant (ties all), never the farther ones', () => {
    const [first, second] = [timeBased[0]?.id ?? '', timeBased[1]?.id ?? ''];
    const typo = `${first.slice(0, 7)}x${first.slice(8)}`;
    const locked = refused({ doors: [{ id: typo, readOnly: true }] }, timeBased);
    expect(locked).toContain(first);
    expect(locked).not.toContain(second.slice(0, 7) === first.slice(0, 7) ? '' : second);
    expect(locked.length).toBeLessThan(timeBased.length / 8);
  });

  it('door-12x among door-1 … door-149 protects door-12 alone, and a typo in a shared part its one door', () => {
    expect(refused({ doors: [{ id: 'door-12x', readOnly: true }] }, sequential)).toEqual(['door-12']);
    const parsed = config({ doors: [{ id: 'dor-149', readOnly: true }] });
    expect(protectionFor(parsed, { doors: sequential }, skeleton).readOnly.size).toBe(1);
  });

  it('names at most three candidates, then how many more', () => {
    const tied = Array.from({ length: 6 }, (_, i) => ({ id: `gate-0000-${i}`, deviceId: 'dev-1' }));
    const [sentence] = protectionFor(config({ doors: [{ id: 'gate-0000-x', readOnly: true }] }), { doors: tied }, skeleton).findings;
    expect(sentence?.sentence).toMatch(/could mean door "gate-0000-0", "gate-0000-1", "gate-0000-2" and 3 more \(a few characters off\)/);
  });
});

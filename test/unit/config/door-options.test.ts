// Door options: global defaults, per-door overrides, hidden doors and the relationship filter.
import { describe, expect, it } from 'vitest';

import type { Door } from '../../../src/client/types.js';
import { parseConfig } from '../../../src/config/index.js';
import type { PluginConfig } from '../../../src/config/index.js';
import { DEFAULT_DOOR_OPTIONS, doorOptions, exclusionReason } from '../../../src/config/door-options.js';
import { doorReads, OPTIONS } from '../../../src/option-catalog.js';
import type { OptionSpec } from '../../../src/option-catalog.js';
import { reportedDoor } from '../../support/door-fixtures.js';

function config(extra: Record<string, unknown>): PluginConfig {
  const result = parseConfig({ accessToken: 't', baseUrl: 'https://api.example.com', ...extra });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
}

const door = (id: string, relationship: string | undefined): Door => reportedDoor({ id, name: id, relationship });

describe('doorOptions', () => {
  it('gives every door the global options, and a door its own where set', () => {
    const c = config({
      readOnly: true,
      contactSensor: true,
      doors: [{ id: 'b', name: 'Back Gate', readOnly: false, automationSwitch: true, leftOpenAfter: 45, showAs: 'lock' }],
    });
    // Every field not set is the catalog's default (the test below), so a new option needs no line here.
    const plain = doorOptions(config({}), 'a');
    expect(doorOptions(c, 'a')).toEqual({ ...plain, readOnly: true, contactSensor: true });
    expect(doorOptions(c, 'b')).toEqual({
      ...plain,
      name: 'Back Gate',
      showAs: 'lock',
      readOnly: false,
      automationSwitch: 'open',
      leftOpenAfter: 45,
      contactSensor: true,
    });
  });

  it('shows every door as a garage door by default, as a lock for all doors, and a door as its own entry says', () => {
    expect(doorOptions(config({}), 'a').showAs).toBe('garage-door');
    const c = config({ showAs: 'lock', doors: [{ id: 'b', showAs: 'garage-door' }] });
    expect(doorOptions(c, 'a').showAs).toBe('lock');
    expect(doorOptions(c, 'b').showAs).toBe('garage-door');
  });

  it("gives a door each option's default from the catalog when nothing is set: every extra off, not read-only", () => {
    const plain: Partial<Record<string, unknown>> = { ...doorOptions(config({}), 'a') };
    // Each under its catalog key, so that grepping an option finds the code that reads it.
    for (const option of (OPTIONS as readonly OptionSpec[]).filter(doorReads)) {
      // The automation switch's default, false, is its mode off (the catalog's booleans).
      const expected =
        option.kind === 'choice' && option.booleans && option.default === false
          ? option.booleans.false
          : 'default' in option
            ? option.default
            : undefined;
      expect({ key: option.key, value: plain[option.key] }).toEqual({ key: option.key, value: expected });
    }
    expect(DEFAULT_DOOR_OPTIONS).toEqual({ ...plain, name: undefined });
    expect(plain).toMatchObject({
      readOnly: false,
      automationSwitch: 'off',
      leftOpenSensor: false,
      contactSensor: false,
      accessAlert: false,
    });
  });

  it("repeats the left-open sensor as set for all doors, unless a door's own value (0 included) says otherwise", () => {
    expect(doorOptions(config({}), 'a').leftOpenRepeat).toBe(0);
    const c = config({
      leftOpenRepeat: 30,
      doors: [
        { id: 'b', leftOpenRepeat: 0 },
        { id: 'c', leftOpenRepeat: 5 },
      ],
    });
    expect(['a', 'b', 'c'].map((id) => doorOptions(c, id).leftOpenRepeat)).toEqual([30, 0, 5]);
    expect(doorOptions(config({ doors: [{ id: 'a', leftOpenRepeat: 10 }] }), 'a').leftOpenRepeat).toBe(10);
  });

  it('turns the access alert on for all doors or per door, with one duration for all', () => {
    const c = config({
      accessAlert: true,
      accessAlertDuration: 90,
      doors: [
        { id: 'b', accessAlert: false },
        { id: 'c', readOnly: true },
      ],
    });
    expect([doorOptions(c, 'a'), doorOptions(c, 'b'), doorOptions(c, 'c')].map((o) => [o.accessAlert, o.accessAlertDuration])).toEqual([
      [true, 90],
      [false, 90],
      [true, 90],
    ]);
    expect(doorOptions(config({ doors: [{ id: 'a', accessAlert: true }] }), 'a').accessAlert).toBe(true);
  });

  it("reads an old config's automationSwitch true as open only, and each mode by name, globally and per door", () => {
    expect(doorOptions(config({ automationSwitch: true }), 'a').automationSwitch).toBe('open');
    for (const [value, mode] of [
      [false, 'off'],
      [true, 'open'],
      ['off', 'off'],
      ['open', 'open'],
      ['open-close', 'open-close'],
    ] as const) {
      expect({ value, mode: doorOptions(config({ automationSwitch: value }), 'a').automationSwitch }).toEqual({ value, mode });
      const perDoor = config({ automationSwitch: 'open-close', doors: [{ id: 'a', automationSwitch: value }] });
      expect({ value, mode: doorOptions(perDoor, 'a').automationSwitch }).toEqual({ value, mode });
      expect(doorOptions(perDoor, 'b').automationSwitch).toBe('open-close');
    }
  });
  it('hides battery information for all doors or for one door, and a door can show it against the global option', () => {
    expect(doorOptions(config({ hideBattery: true }), 'a').hideBattery).toBe(true);
    const perDoor = config({
      doors: [
        { id: 'a', hideBattery: true },
        { id: 'b', hideBattery: false },
      ],
    });
    expect([doorOptions(perDoor, 'a').hideBattery, doorOptions(perDoor, 'b').hideBattery]).toEqual([true, false]);
    const shownForOne = config({ hideBattery: true, doors: [{ id: 'b', hideBattery: false }] });
    expect([doorOptions(shownForOne, 'a').hideBattery, doorOptions(shownForOne, 'b').hideBattery]).toEqual([true, false]);
  });
});

describe('exclusionReason', () => {
  it('includes owned and shared doors by default', () => {
    expect(exclusionReason(config({}), door('a', 'Has Access'), 'dev')).toBeUndefined();
  });

  it('keeps shared doors out with includeDoors "owned", but not a door whose relationship is unknown', () => {
    const c = config({ includeDoors: 'owned' });
    expect(exclusionReason(c, door('a', 'Owner'), 'dev')).toBeUndefined();
    expect(exclusionReason(c, door('b', 'Has Access'), 'dev')).toMatch(/only owned doors/);
    expect(exclusionReason(c, door('c', undefined), 'dev')).toBeUndefined();
  });

  it('hides a door hidden in its own settings', () => {
    expect(exclusionReason(config({ doors: [{ id: 'a', hide: true }] }), door('a', 'Owner'), 'dev')).toMatch(/hidden/);
  });

  it('filters by controller and by door id, to split an account over child bridges', () => {
    const byDevice = config({ includeDeviceIds: ['dev-1'] });
    expect(exclusionReason(byDevice, door('a', 'Owner'), 'dev-1')).toBeUndefined();
    expect(exclusionReason(byDevice, door('a', 'Owner'), 'dev-2')).toMatch(/controller is filtered out/);
    expect(exclusionReason(config({ excludeDeviceIds: ['dev-2'] }), door('a', 'Owner'), 'dev-2')).toMatch(/controller is filtered out/);
    const byDoor = config({ includeDoorIds: ['a', 'b'], excludeDoorIds: ['b'] });
    expect(exclusionReason(byDoor, door('a', 'Owner'), 'dev-1')).toBeUndefined();
    expect(exclusionReason(byDoor, door('b', 'Owner'), 'dev-1')).toMatch(/filtered out/);
    expect(exclusionReason(byDoor, door('c', 'Owner'), 'dev-1')).toMatch(/filtered out/);
  });

  it('reports bad door settings by path, and ignores only them', () => {
    // Deliberate change (issue 8 C): these mistakes no longer stop syncing; each is one sentence and is ignored.
    expect(parseConfig({ accessToken: 't', baseUrl: 'https://x.example', includeDoors: 'mine', doors: [{ hide: 'yes' }] })).toEqual({
      ok: true,
      // Deliberate change (issue 29): an includeDoors that is no near miss fails closed, to the doors the account owns.
      config: expect.objectContaining({ includeDoors: 'owned', doors: [] }) as unknown,
      // Deliberate change (issue 19.3): an entry that sets hide for a door it does not name keeps every door read-only.
      ignored: [
        'includeDoors must be "all" or "owned"; only the doors you own are shown until it is fixed',
        'doors.0 id is required and hide must be true or false; this entry is ignored, and as it sets hide for a door that cannot be told, every door is read-only until it is fixed',
      ],
      warnings: [],
      findings: [expect.objectContaining({ path: 'includeDoors' }) as unknown, expect.objectContaining({ path: 'doors.0.id' }) as unknown],
    });
    // With the token missing nothing runs, and the problems still name every bad field by its path.
    expect(parseConfig({ baseUrl: 'https://x.example', includeDoors: 'mine', doors: [{ hide: 'yes' }] })).toEqual({
      ok: false,
      problems: [
        'accessToken is required',
        'includeDoors must be "all" or "owned"',
        'doors.0.id is required',
        'doors.0.hide must be true or false',
      ],
    });
  });
});

describe('protection that could not be read (issue 19.3)', () => {
  const openable = (c: PluginConfig, doorId: string, deviceId = 'dev'): boolean => !doorOptions(c, doorId, deviceId).readOnly;

  it('keeps the door a lone entry (doors not a list) names read-only and without a switch, the others as before', () => {
    const c = config({ automationSwitch: 'open-close', doors: { id: 'a', readOnly: true } });
    expect(doorOptions(c, 'a')).toMatchObject({ readOnly: true, automationSwitch: 'off' });
    expect(doorOptions(c, 'b')).toMatchObject({ readOnly: false, automationSwitch: 'open-close' });
    expect(exclusionReason(config({ doors: { id: 'a', hide: true } }), door('a', 'Owner'), 'dev')).toMatch(/hidden/);
  });

  it('makes every door read-only, whatever its own readOnly, when a lone entry with protection names no door it can tell', () => {
    const c = config({ doors: { readOnly: true, id: true } });
    expect([openable(c, 'a'), openable(c, 'b')]).toEqual([false, false]);
    const withOwn = config({ doors: [{ id: 'a', readOnly: false }, { readOnly: true }] });
    expect(openable(withOwn, 'a')).toBe(false);
    expect(exclusionReason(c, door('a', 'Owner'), 'dev')).toBeUndefined();
  });

  it('matches a door whose id was written as a number', () => {
    expect(openable(config({ doors: [{ id: 424242, readOnly: true }] }), '424242')).toBe(false);
    expect(exclusionReason(config({ excludeDoorIds: [424242] }), door('424242', 'Owner'), 'dev')).toMatch(/filtered out/);
    expect(exclusionReason(config({ doors: [{ id: 424242, hide: true }] }), door('424242', 'Owner'), 'dev')).toMatch(/hidden/);
  });

  it('lets the read-only of a second entry for the same door win', () => {
    const c = config({
      doors: [
        { id: 'a', readOnly: false },
        { id: 'a', readOnly: true },
      ],
    });
    expect(openable(c, 'a')).toBe(false);
    expect(
      exclusionReason(
        config({
          doors: [
            { id: 'a', name: 'A' },
            { id: 'a', hide: true },
          ],
        }),
        door('a', 'Owner'),
        'dev',
      ),
    ).toMatch(/hidden/);
  });

  it('gives a door with an unreadable automationSwitch no switch under a global open-close', () => {
    const c = config({ automationSwitch: 'open-close', doors: [{ id: 'a', automationSwitch: 'none' }] });
    expect([doorOptions(c, 'a').automationSwitch, doorOptions(c, 'b').automationSwitch]).toEqual(['off', 'open-close']);
  });

  it('keeps the excluded door out when another element of excludeDoorIds is bad, and every other door read-only', () => {
    const c = config({ excludeDoorIds: ['a', { id: 'b' }] });
    expect(exclusionReason(c, door('a', 'Owner'), 'dev')).toMatch(/filtered out/);
    expect(exclusionReason(c, door('b', 'Owner'), 'dev')).toBeUndefined();
    expect(openable(c, 'b')).toBe(false);
  });

  it('shows every door when an include list has a bad element, the ones it does not name read-only', () => {
    const byDoor = config({ includeDoorIds: ['a', false] });
    expect([exclusionReason(byDoor, door('a', 'Owner'), 'dev'), exclusionReason(byDoor, door('b', 'Owner'), 'dev')]).toEqual([
      undefined,
      undefined,
    ]);
    expect([openable(byDoor, 'a'), openable(byDoor, 'b')]).toEqual([true, false]);
    const byDevice = config({ includeDeviceIds: ['dev-1', {}] });
    expect([openable(byDevice, 'a', 'dev-1'), openable(byDevice, 'a', 'dev-2')]).toEqual([true, false]);
    expect(doorOptions(byDevice, 'a').readOnly).toBe(true);
  });
});

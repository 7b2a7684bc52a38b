// parseConfig: a protective setting that cannot be read keeps its doors protected (issue 19.3).
import { describe, expect, it } from 'vitest';

import { checkBlock } from '../../../src/ui/shared/check-config.js';
import { configOf, ignoredOf, VALID_CONFIG } from '../../support/config-fixtures.js';

describe('parseConfig: a protective setting that cannot be read keeps its doors protected (issue 19.3)', () => {
  const SWITCH_MESSAGE = 'automationSwitch must be "off", "open" (open only) or "open-close" (open and close)';

  it('keeps the protection of a lone door entry written where the list belongs, for the door it names', () => {
    const raw = { doors: { id: 'gate-1', readOnly: true, name: 'Gate' } };
    expect(ignoredOf(raw)).toEqual([
      'doors must be a list of door settings ([{ "id": … }]), not one door\'s settings; only its protection is kept: door "gate-1" is read-only, without an automation switch, until it is fixed',
    ]);
    const config = configOf(raw);
    expect(config.doors).toEqual([{ id: 'gate-1', readOnly: true, automationSwitch: 'off' }]);
    expect(config.readOnlyLock).toEqual({ all: false });
    expect(configOf({ doors: { id: 'gate-1', hide: true } }).doors).toEqual([
      { id: 'gate-1', readOnly: true, automationSwitch: 'off', hide: true },
    ]);
  });

  it('makes every door read-only for a lone entry with protection whose door cannot be told, and ignores one without protection', () => {
    expect(ignoredOf({ doors: { readOnly: true } })).toEqual([
      'doors must be a list of door settings ([{ "id": … }]), not one door\'s settings; as it sets readOnly for a door that cannot be told, every door is read-only until it is fixed',
    ]);
    expect(configOf({ doors: { readOnly: true } }).readOnlyLock).toEqual({ all: true });
    expect(ignoredOf({ doors: { id: 'gate-1', name: 'Gate', readOnly: false } })).toEqual([
      'doors must be a list of door settings ([{ "id": … }]), not one door\'s settings; it is ignored, so every door uses the settings for all doors',
    ]);
    expect(configOf({ doors: { id: 'gate-1', name: 'Gate', readOnly: false } })).toMatchObject({ doors: [], readOnlyLock: { all: false } });
  });

  it('makes every door read-only for a list entry with protection but no usable id', () => {
    expect(
      ignoredOf({
        doors: [
          { hide: 'yes', readOnly: true },
          { id: 'b', readOnly: false },
        ],
      }),
    ).toEqual([
      'doors.0 id is required and hide must be true or false; this entry is ignored, and as it sets readOnly and hide for a door that cannot be told, every door is read-only until it is fixed',
    ]);
    expect(
      configOf({
        doors: [
          { hide: 'yes', readOnly: true },
          { id: 'b', readOnly: false },
        ],
      }).readOnlyLock,
    ).toEqual({ all: true });
  });

  it('reads a numeric door id as the text of that number, in a door entry and in every id list, without a word', () => {
    const raw = {
      doors: [{ id: 424242, readOnly: true }],
      excludeDoorIds: [424243],
      includeDeviceIds: [7, 'dev-1'],
      includeDoorIds: [424242, 424243],
      excludeDeviceIds: [8],
    };
    expect(ignoredOf(raw)).toEqual([]);
    expect(configOf(raw)).toMatchObject({
      doors: [{ id: '424242', readOnly: true }],
      excludeDoorIds: ['424243'],
      includeDeviceIds: ['7', 'dev-1'],
      includeDoorIds: ['424242', '424243'],
      excludeDeviceIds: ['8'],
    });
  });

  it('merges a second entry for the same door so the protective value wins, naming both entries', () => {
    const raw = {
      doors: [
        { id: 'x', name: 'First', readOnly: false, automationSwitch: 'open-close' },
        { id: 'y', hide: false },
        { id: ' x ', name: 'Second', readOnly: true, automationSwitch: 'open', contactSensor: true },
        { id: 'y', hide: true },
      ],
    };
    expect(ignoredOf(raw)).toEqual([
      'doors.2 (id "x") is a second entry for the same door as doors.0; they are merged: the more protective readOnly, hide and automationSwitch win, and doors.0 comes first for the other settings',
      'doors.3 (id "y") is a second entry for the same door as doors.1; they are merged: the more protective readOnly, hide and automationSwitch win, and doors.1 comes first for the other settings',
    ]);
    expect(configOf(raw).doors).toEqual([
      { id: 'x', name: 'First', readOnly: true, automationSwitch: 'open', contactSensor: true },
      { id: 'y', hide: true },
    ]);
  });

  it('gives a door whose own automationSwitch cannot be read no switch, not the global one', () => {
    const raw = { automationSwitch: 'open-close', doors: [{ id: 'abc', automationSwitch: 'none', contactSensor: 'on' }] };
    expect(ignoredOf(raw)).toEqual([
      `doors.0 (id "abc") ${SWITCH_MESSAGE} and contactSensor must be true or false; this door has no automation switch until it is fixed, and the other setting is ignored`,
    ]);
    expect(configOf(raw)).toMatchObject({ automationSwitch: 'open-close', doors: [{ id: 'abc', automationSwitch: 'off' }] });
  });

  it('makes a door whose own hide cannot be read read-only, and keeps it shown', () => {
    expect(ignoredOf({ doors: [{ id: 'abc', hide: 'yes' }] })).toEqual([
      'doors.0 (id "abc") hide must be true or false; this door is read-only until it is fixed',
    ]);
    expect(configOf({ doors: [{ id: 'abc', hide: 'yes' }] }).doors).toEqual([{ id: 'abc', readOnly: true }]);
  });

  it('keeps the readable ids of an exclude list with a bad element, and makes every door shown read-only', () => {
    const raw = { excludeDoorIds: ['door-1', { id: 'door-2' }, 424242, true] };
    expect(ignoredOf(raw)).toEqual([
      'excludeDoorIds.1 and excludeDoorIds.3 must be ids (text or a number); the other ids still apply, and every door shown is read-only until it is fixed',
    ]);
    expect(configOf(raw)).toMatchObject({ excludeDoorIds: ['door-1', '424242'], readOnlyLock: { all: true } });
  });

  it('applies no include list with a bad element, and makes the doors it does not name read-only', () => {
    const raw = { includeDoorIds: ['door-1', false], includeDeviceIds: [['dev-1']] };
    expect(ignoredOf(raw)).toEqual([
      'includeDeviceIds.0 must be an id (text or a number); this filter leaves no door out until it is fixed, and every door of a controller it does not name is read-only',
      'includeDoorIds.1 must be an id (text or a number); this filter leaves no door out until it is fixed, and every door it does not name is read-only',
    ]);
    expect(configOf(raw)).toMatchObject({
      includeDoorIds: [],
      includeDeviceIds: [],
      readOnlyLock: { all: false, openableDoorIds: ['door-1'], openableDeviceIds: [] },
    });
  });

  it('reads a filter holding one id as that id, and one that is not a list of ids as every door read-only', () => {
    expect(ignoredOf({ excludeDoorIds: 'door-1' })).toEqual(['excludeDoorIds must be a list of ids ([ … ]); the one id it holds is used']);
    expect(configOf({ excludeDoorIds: 424242 })).toMatchObject({ excludeDoorIds: ['424242'], readOnlyLock: { all: false } });
    expect(ignoredOf({ excludeDoorIds: { id: 'door-1' }, includeDoorIds: true })).toEqual([
      'includeDoorIds must be a list of ids ([ … ]); this filter leaves no door out, and every door is read-only until it is fixed',
      'excludeDoorIds must be a list of ids ([ … ]); this filter keeps no door out, and every door is read-only until it is fixed',
    ]);
    expect(configOf({ excludeDoorIds: { id: 'door-1' } })).toMatchObject({ excludeDoorIds: [], readOnlyLock: { all: true } });
  });

  it('shows each of these on the settings page as a part to fix (Save stays off), and a numeric id as accepted', () => {
    const cases = [
      { doors: { id: 'gate-1', readOnly: true } },
      {
        doors: [
          { id: 'x', readOnly: false },
          { id: 'x', readOnly: true },
        ],
      },
      { automationSwitch: 'open-close', doors: [{ id: 'x', automationSwitch: 'none' }] },
      { excludeDoorIds: ['door-1', {}] },
    ];
    for (const extra of cases) {
      expect(checkBlock({ ...VALID_CONFIG, ...extra }, undefined).ignored).toHaveLength(1);
    }
    expect(checkBlock({ ...VALID_CONFIG, doors: [{ id: 424242, readOnly: true }], excludeDoorIds: [424243] }, undefined)).toMatchObject({
      problems: [],
      ignored: [],
      shown: undefined,
      excluded: {},
    });
  });
});

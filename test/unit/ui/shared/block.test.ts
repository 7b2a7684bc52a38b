// The settings page's block edits: each changes its one value and keeps the rest as written, per-door choices inherit unless set.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  setGlobalChoice,
  apiKeyProblem,
  controllerIncluded,
  doorChoice,
  doorChoiceOf,
  globalChoice,
  globalFlag,
  setGlobalFlag,
  applied,
  readWholeNumber,
  setControllerIncluded,
  setDoorChoice,
  setDoorChoiceOf,
  setDoorField,
  setField,
  controllersEditable,
  doorEditable,
  doorsEditable,
  filterOnPage,
  removeDoorEntry,
  uiUpdates,
  applyKeyFix,
  keyFixes,
} from '../../../../src/ui/shared/block.js';
import type { Block } from '../../../../src/ui/shared/block.js';
import { OPTIONS, optionSpec } from '../../../../src/option-catalog.js';
import type { FlagOption } from '../../../../src/option-catalog.js';
import { idOf, parseConfig } from '../../../../src/config/index.js';
import { doorOptions } from '../../../../src/config/door-options.js';

const SWITCH = optionSpec('automationSwitch');

const base: Block = { platform: 'AccessControl', accessToken: 't', baseUrl: 'https://api.example.com' };

describe('settings page model', () => {
  it('writes a field when set and removes it when emptied, with the object it emptied', () => {
    const withPort = setField(base, 'webhook.port', 51828);
    expect(withPort).toEqual({ ...base, webhook: { port: 51828 } });
    expect(setField(withPort, 'webhook.port', '')).toEqual(base);
    expect(base).toEqual({ platform: 'AccessControl', accessToken: 't', baseUrl: 'https://api.example.com' });
  });

  it('writes a door entry only for a changed door, holding only what changed', () => {
    const renamed = setDoorField(base, 'door-1', 'name', 'Street Gate');
    expect(renamed.doors).toEqual([{ id: 'door-1', name: 'Street Gate' }]);
    const readOnly = setDoorChoice(renamed, 'door-1', 'readOnly', 'on');
    expect(readOnly.doors).toEqual([{ id: 'door-1', name: 'Street Gate', readOnly: true }]);
    expect(doorChoice(readOnly, 'door-1', 'readOnly')).toBe('on');
    expect(doorChoice(readOnly, 'door-1', 'contactSensor')).toBe('inherit');
    // Back to "as for all doors" and no name: the entry and the list go.
    const back = setDoorField(setDoorChoice(readOnly, 'door-1', 'readOnly', 'inherit'), 'door-1', 'name', '');
    expect(back).toEqual(base);
  });

  it('keeps an explicit "off" for one door (it overrides the value for all doors)', () => {
    const off = setDoorChoice({ ...base, readOnly: true }, 'door-2', 'readOnly', 'off');
    expect(off.doors).toEqual([{ id: 'door-2', readOnly: false }]);
    expect(doorChoice(off, 'door-2', 'readOnly')).toBe('off');
  });

  it('hides battery information as the plugin reads it: for all doors, and shown again for one door', () => {
    const hidden = setDoorChoice(setField(base, 'hideBattery', true), 'door-2', 'hideBattery', 'off');
    expect(hidden).toEqual({ ...base, hideBattery: true, doors: [{ id: 'door-2', hideBattery: false }] });
    const parsed = parseConfig(hidden);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    expect(parsed.ignored).toEqual([]);
    expect([doorOptions(parsed.config, 'door-1').hideBattery, doorOptions(parsed.config, 'door-2').hideBattery]).toEqual([true, false]);
  });

  it('writes the automation switch mode only when set: off for all doors writes nothing, a door inherits unless set', () => {
    expect(globalChoice(base, SWITCH)).toBe('off');
    // An older config's true is open only, as the plugin reads it.
    expect(globalChoice({ ...base, automationSwitch: true }, SWITCH)).toBe('open');
    expect(setGlobalChoice(base, SWITCH, 'open')).toEqual({ ...base, automationSwitch: 'open' });
    expect(setGlobalChoice(base, SWITCH, 'open-close')).toEqual({ ...base, automationSwitch: 'open-close' });
    expect(setGlobalChoice({ ...base, automationSwitch: true }, SWITCH, 'off')).toEqual(base);
    expect(doorChoiceOf(base, 'door-1', SWITCH)).toBe('inherit');
    const closing = setDoorChoiceOf(base, 'door-1', SWITCH, 'open-close');
    expect(closing.doors).toEqual([{ id: 'door-1', automationSwitch: 'open-close' }]);
    expect(doorChoiceOf(closing, 'door-1', SWITCH)).toBe('open-close');
    const off = setDoorChoiceOf({ ...closing, automationSwitch: 'open' }, 'door-1', SWITCH, 'off');
    expect(off.doors).toEqual([{ id: 'door-1', automationSwitch: false }]);
    expect(doorChoiceOf(off, 'door-1', SWITCH)).toBe('off');
    expect(doorChoiceOf({ ...base, doors: [{ id: 'door-1', automationSwitch: true }] }, 'door-1', SWITCH)).toBe('open');
    expect(setDoorChoiceOf(closing, 'door-1', SWITCH, 'inherit')).toEqual(base);
  });

  it('writes a door\'s "Show in Home as" only when set, by name, and nothing for "as for all doors"', () => {
    const showAs = optionSpec('showAs');
    expect(globalChoice(base, showAs)).toBe('garage-door');
    expect(doorChoiceOf(base, 'door-1', showAs)).toBe('inherit');
    const lock = setDoorChoiceOf(base, 'door-1', showAs, 'lock');
    expect(lock.doors).toEqual([{ id: 'door-1', showAs: 'lock' }]);
    expect(doorChoiceOf(lock, 'door-1', showAs)).toBe('lock');
    // The default written for one door still overrides a lock for all doors.
    const garage = setDoorChoiceOf({ ...lock, showAs: 'lock' }, 'door-1', showAs, 'garage-door');
    expect(garage.doors).toEqual([{ id: 'door-1', showAs: 'garage-door' }]);
    expect(setDoorChoiceOf(lock, 'door-1', showAs, 'inherit')).toEqual(base);
    expect(doorChoiceOf({ ...base, doors: [{ id: 'door-1', showAs: 'turnstile' }] }, 'door-1', showAs)).toBe('inherit');
  });

  it('hands the UI a removed key as undefined, since the UI merges updates into its copy', () => {
    const known = [new Set(['platform', 'accessToken', 'baseUrl', 'automationSwitch', 'readOnly'])];
    const [first] = uiUpdates([{ ...base, readOnly: true }], known);
    expect(first).toEqual([{ ...base, readOnly: true, automationSwitch: undefined }]);
    expect('automationSwitch' in (first?.[0] ?? {})).toBe(true);
    expect(JSON.parse(JSON.stringify(first))).toEqual([{ ...base, readOnly: true }]);
    const [second] = uiUpdates([{ ...base, contactSensor: true }], known);
    expect(Object.keys(second?.[0] ?? {}).sort()).toEqual([
      'accessToken',
      'automationSwitch',
      'baseUrl',
      'contactSensor',
      'platform',
      'readOnly',
    ]);
    expect(second?.[0]?.readOnly).toBeUndefined();
    expect(uiUpdates([base, { platform: 'AccessControl' }], known)[0]?.[1]).toEqual({ platform: 'AccessControl' });
  });

  it("keeps a key rewritten in its place where the UI saves it: the UI's merge would move it to the end", () => {
    /** The Homebridge UI 5.28's updateConfigBlocks, as it merges each update into its copy, then its save (JSON). */
    const ui = (held: Block[], update: Block[]): void => {
      update.forEach((block, index) => {
        const own = held[index];
        if (own) Object.assign(own, block);
        else held[index] = block;
      });
      held.length = Math.min(held.length, update.length);
    };
    const saved: Block[] = [
      { platform: 'AccessControl', name: 'A', ReadOnly: true, baseUrl: 'https://a.example.com', accessToken: 't' },
      { platform: 'AccessControl', name: 'B', readOnly: true, baseUrl: 'https://b.example.com', accessToken: 'u' },
    ];
    const held = structuredClone(saved);
    const known = saved.map((block) => new Set(Object.keys(block)));
    const [fix] = keyFixes(saved[0] ?? {});
    const fixed = [applyKeyFix(saved[0] ?? {}, fix ?? { parent: '', written: '', key: '' }), saved[1] ?? {}];
    expect(Object.keys(fixed[0] ?? {})).toEqual(['platform', 'name', 'readOnly', 'baseUrl', 'accessToken']);
    for (const update of uiUpdates(fixed, known)) ui(held, structuredClone(update));
    expect(JSON.stringify(held)).toEqual(JSON.stringify(fixed));
    // Then an edit of another block after it: one update, merged, and the order stays.
    const edited = [fixed[0] ?? {}, { ...fixed[1], name: 'B2' }];
    const updates = uiUpdates(edited, known);
    expect(updates).toHaveLength(1);
    for (const update of updates) ui(held, structuredClone(update));
    expect(JSON.stringify(held)).toEqual(JSON.stringify(edited));
  });

  it('keeps what it does not edit exactly as written: defaults, empty values, odd entries and unknown keys', () => {
    const saved: Block = {
      ...base,
      name: 'Access Control',
      pollInterval: 15,
      readOnly: {},
      includeDeviceIds: [],
      excludeDoorIDs: ['x'],
      webhook: { headerName: 'X-Service-API-Key', reconcileInterval: 300, extra: 1 },
      doors: [{ hide: false, readOnly: false }, { id: 'door-3' }, { id: 424242, readOnly: true }, 'door-5'],
    };
    const edited = setField(saved, 'transitionTimeout', 90);
    expect(edited).toEqual({ ...saved, transitionTimeout: 90 });
    const renamed = setDoorField(saved, 'door-3', 'name', 'Gate');
    expect(renamed.doors).toEqual([
      { hide: false, readOnly: false },
      { id: 'door-3', name: 'Gate' },
      { id: 424242, readOnly: true },
      'door-5',
    ]);
    expect({ ...renamed, doors: saved.doors }).toEqual(saved);
  });

  it("finds a door entry by the plugin's reading of its id: a number id is edited in place and stays a number", () => {
    const block: Block = {
      ...base,
      doors: [
        { id: 424242, readOnly: true },
        { id: ' door-2 ', hide: true },
      ],
    };
    expect(doorChoice(block, '424242', 'readOnly')).toBe('on');
    const named = setDoorField(block, '424242', 'name', 'Shed');
    expect(named.doors).toEqual([
      { id: 424242, readOnly: true, name: 'Shed' },
      { id: ' door-2 ', hide: true },
    ]);
    expect(setDoorField(block, 'door-2', 'hide', undefined).doors).toEqual([{ id: 424242, readOnly: true }]);
    // A number JSON cannot hold exactly matches no door: a new entry is written for the id, the number is kept.
    const beyond: Block = { ...base, doors: [{ id: 2 ** 53 + 2, readOnly: true }] };
    expect(idOf(2 ** 53 + 2)).toBeUndefined();
    expect(doorChoice(beyond, String(2 ** 53 + 2), 'readOnly')).toBe('inherit');
    expect(idOf(424242)).toBe('424242');
    expect(idOf(' a ')).toBe('a');
    expect(idOf(1.5)).toBeUndefined();
  });

  it('keeps a block written as something else as written: an edit inside it does nothing', () => {
    const block: Block = { ...base, webhook: 'on' };
    expect(setField(block, 'webhook.port', 51828)).toBe(block);
    expect(setField(block, 'webhook.enabled', true)).toBe(block);
    expect(setField({ ...base, webhook: null }, 'webhook.port', 51828)).toEqual({ ...base, webhook: { port: 51828 } });
  });

  it('offers no per-door edit where the plugin merges several entries or `doors` is not a list, and leaves those as written', () => {
    const twice: Block = {
      ...base,
      doors: [
        { id: 'd', readOnly: false },
        { id: 'd', readOnly: true },
      ],
    };
    expect(doorEditable(twice, 'd')).toBe(false);
    expect(setDoorChoice(twice, 'd', 'readOnly', 'off')).toBe(twice);
    expect(removeDoorEntry(twice, 'd')).toBe(twice);
    expect(doorEditable(twice, 'other')).toBe(true);
    for (const doors of [{ id: 'd', readOnly: true }, {}, 'd']) {
      const block: Block = { ...base, doors };
      expect(doorsEditable(block)).toBe(false);
      expect(setDoorField(block, 'd', 'name', 'x')).toBe(block);
      expect(setDoorField(block, 'e', 'hide', true)).toBe(block);
    }
    expect(doorsEditable({ ...base, doors: null })).toBe(true);
  });

  it('reads id lists as the plugin does, and ticks add or remove one element, numbers staying numbers', () => {
    const block: Block = { ...base, excludeDeviceIds: [555, ' dev-b '] };
    expect(filterOnPage(block, 'excludeDeviceIds')).toEqual({ ids: ['555', 'dev-b'], editable: true });
    expect(controllerIncluded(block, '555')).toBe(false);
    const b = setControllerIncluded(block, 'dev-b', true);
    expect(b).toEqual({ ...base, excludeDeviceIds: [555] });
    expect(setControllerIncluded(b, 'dev-c', false)).toEqual({ ...base, excludeDeviceIds: [555, 'dev-c'] });
    expect(setControllerIncluded(b, '555', true)).toEqual(base);
    const only: Block = { ...base, includeDeviceIds: [7, 'dev-a'] };
    expect(setControllerIncluded(only, 'dev-a', false)).toEqual({ ...base, includeDeviceIds: [7] });
    expect(setControllerIncluded(only, 'dev-b', true)).toEqual({ ...base, includeDeviceIds: [7, 'dev-a', 'dev-b'] });
  });

  it('keeps an id list it cannot read as written, with its ticks off', () => {
    for (const list of [{}, 'dev-a', [{}], [true, 'dev-a']]) {
      const block: Block = { ...base, excludeDeviceIds: list };
      expect(filterOnPage(block, 'excludeDeviceIds').editable).toBe(false);
      expect(controllersEditable(block)).toBe(false);
      expect(setControllerIncluded(block, 'dev-z', false)).toBe(block);
    }
    // An include list with an unreadable element hides nothing (the plugin keeps the doors read-only instead).
    expect(filterOnPage({ ...base, includeDeviceIds: ['dev-a', {}] }, 'includeDeviceIds')).toEqual({ ids: [], editable: false });
    expect(filterOnPage({ ...base, excludeDeviceIds: ['dev-a', {}] }, 'excludeDeviceIds')).toEqual({ ids: ['dev-a'], editable: false });
  });

  it("writes the access alert like the other door options: on for all doors, a door's own choice, its time only when not the default", () => {
    const all = setField(base, 'accessAlert', true);
    expect(doorChoice(all, 'door-1', 'accessAlert')).toBe('inherit');
    const oneOff = setDoorChoice(all, 'door-1', 'accessAlert', 'off');
    expect(oneOff.doors).toEqual([{ id: 'door-1', accessAlert: false }]);
    expect(doorChoice(oneOff, 'door-1', 'accessAlert')).toBe('off');
    expect(setDoorChoice(oneOff, 'door-1', 'accessAlert', 'inherit')).toEqual(all);
    const timed = setField(all, 'accessAlertDuration', 120);
    expect(timed).toEqual({ ...base, accessAlert: true, accessAlertDuration: 120 });
  });

  it('lets controllers in and out with the smallest change, never emptying an "only these" list into "all"', () => {
    let block = setControllerIncluded(base, 'dev-a', false);
    expect(block.excludeDeviceIds).toEqual(['dev-a']);
    expect(controllerIncluded(block, 'dev-a')).toBe(false);
    block = setControllerIncluded(block, 'dev-a', true);
    expect(block).toEqual(base);
    const only = { ...base, includeDeviceIds: ['dev-a'] };
    const none = setControllerIncluded(only, 'dev-a', false);
    expect(controllerIncluded(none, 'dev-a')).toBe(false);
    expect(controllerIncluded(none, 'dev-b')).toBe(false);
    const two = setControllerIncluded(only, 'dev-b', true);
    expect(two.includeDeviceIds).toEqual(['dev-a', 'dev-b']);
  });

  it('reads typed whole numbers and says what is wrong with a key', () => {
    expect(readWholeNumber(' 51828 ')).toBe(51828);
    expect(readWholeNumber('')).toBeUndefined();
    expect(readWholeNumber('51 828')).toBeNull();
    expect(readWholeNumber('-1')).toBeNull();
    expect(apiKeyProblem('')).toMatch(/required/);
    expect(apiKeyProblem('zz')).toMatch(/0-9 and a-f/);
    expect(apiKeyProblem('ab')).toBe('The API key has 96 characters; this one has 2.');
    expect(apiKeyProblem('a'.repeat(96))).toBeUndefined();
  });
});

/** Every flag in the catalog: the page's boxes for all doors and its door rows read each one through its default. */
const FLAGS = (OPTIONS as readonly { kind: string }[]).filter((option): option is FlagOption => option.kind === 'flag');
const EVE = optionSpec('eveHistory');

describe('flags on the settings page: their catalog default applies while unset', () => {
  it('shows the Eve history ticked while unset, unticking writes false, ticking back removes the key (the default applies anyway)', () => {
    // Untouched: the box shows on, and the block is what was written (the page writes only on a change).
    expect(globalFlag(base, EVE)).toBe(true);
    const off = setGlobalFlag(base, EVE, false);
    expect(off).toEqual({ ...base, eveHistory: false });
    expect(globalFlag(off, EVE)).toBe(false);
    // Back to the default: nothing written, as every other box writes nothing at its default, so a page that leaves the
    // plugin's behaviour as it was leaves the block as it was (no `true` the plugin would apply anyway).
    expect(setGlobalFlag(off, EVE, true)).toEqual(base);
    expect(globalFlag({ ...base, eveHistory: true }, EVE)).toBe(true);
    // A block the plugin would not run yet (a fresh page, no token typed) has no reading to fill the default in: still on.
    const fresh: Block = { platform: 'AccessControl' };
    expect(applied(fresh)).toBeUndefined();
    expect(globalFlag(fresh, EVE)).toBe(true);
    expect(globalFlag({ ...fresh, eveHistory: false }, EVE)).toBe(false);
  });

  it('keeps the other flags (default off) as before: ticked writes true, unticked removes the key', () => {
    const readOnly = optionSpec('readOnly');
    expect(globalFlag(base, readOnly)).toBe(false);
    expect(setGlobalFlag(base, readOnly, true)).toEqual({ ...base, readOnly: true });
    expect(setGlobalFlag({ ...base, readOnly: true }, readOnly, false)).toEqual(base);
    // A readOnly the plugin cannot read fails closed: the box shows what applies.
    expect(globalFlag({ ...base, readOnly: 'maybe' }, readOnly)).toBe(true);
  });

  it("per door, the Eve history inherits 'on' and writes only the door's own choice", () => {
    expect(doorChoice(base, 'door-1', 'eveHistory')).toBe('inherit');
    const off = setDoorChoice(base, 'door-1', 'eveHistory', 'off');
    expect(off).toEqual({ ...base, doors: [{ id: 'door-1', eveHistory: false }] });
    expect(doorChoice(off, 'door-1', 'eveHistory')).toBe('off');
    expect(globalFlag(off, EVE)).toBe(true);
    expect(setDoorChoice(off, 'door-1', 'eveHistory', 'inherit')).toEqual(base);
  });

  it('for any flag and any value written, the box shows what applies and a change writes only that flag: its default as no key', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FLAGS), fc.constantFrom(undefined, true, false), fc.boolean(), (flag, written, on) => {
        const block: Block = written === undefined ? base : { ...base, [flag.key]: written };
        expect(globalFlag(block, flag)).toBe(written ?? flag.default);
        const next = setGlobalFlag(block, flag, on);
        expect(globalFlag(next, flag)).toBe(on);
        const { [flag.key]: value, ...rest } = next;
        expect(rest).toEqual(base);
        expect(value).toBe(on === flag.default ? undefined : on);
      }),
    );
  });
});

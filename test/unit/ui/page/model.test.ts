// The settings page's block edits: only what the user set is written, per-door choices inherit unless set, filters stay coherent.
import { describe, expect, it } from 'vitest';

import {
  apiKeyProblem,
  controllerIncluded,
  doorChoice,
  readWholeNumber,
  setControllerIncluded,
  setDoorChoice,
  setDoorField,
  setField,
  tidy,
} from '../../../../src/ui/page/model.js';
import type { Block } from '../../../../src/ui/page/model.js';
import { pageInfo } from '../../../../src/ui/page-info.js';

const base: Block = { platform: 'AccessControl', accessToken: 't', baseUrl: 'https://api.example.com' };
const defaults = pageInfo().defaults;

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

  it('tidies away defaults, empty values and door entries without an id or settings (what older forms saved)', () => {
    const saved: Block = {
      ...base,
      name: 'Access Control',
      pollInterval: 15,
      transitionTimeout: 90,
      readOnly: false,
      includeDoors: 'all',
      includeDeviceIds: [],
      webhook: { headerName: 'X-Service-API-Key', reconcileInterval: 300 },
      doors: [{ hide: false, readOnly: false }, { id: 'door-3' }, { id: 'door-4', name: '', contactSensor: true }],
    };
    expect(tidy(saved, defaults)).toEqual({ ...base, transitionTimeout: 90, doors: [{ id: 'door-4', contactSensor: true }] });
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

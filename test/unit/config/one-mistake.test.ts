// parseConfig: one mistake does not stop everything (issue 8 C): the rest of the settings still apply, the mistake is named.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import { checkBlock } from '../../../src/ui/shared/check-config.js';
import { configOf, ignoredOf, VALID_CONFIG, WEBHOOK_API_KEY } from '../../support/config-fixtures.js';

describe('parseConfig: one mistake does not stop everything (issue 8 C)', () => {
  it('ignores a bad webhook block with one sentence; the rest applies', () => {
    const result = parseConfig({
      ...VALID_CONFIG,
      pollInterval: 30,
      readOnly: true,
      webhook: { enabled: true, port: 70000, apiKey: WEBHOOK_API_KEY },
    });
    expect(result).toEqual({
      ok: true,
      config: expect.objectContaining({ pollInterval: 30, readOnly: true, webhook: undefined }) as unknown,
      ignored: ['webhook.port must be between 1 and 65535; webhooks are off until it is fixed'],
      warnings: [],
      findings: [{ path: 'webhook.port', sentence: 'webhook.port must be between 1 and 65535; webhooks are off until it is fixed' }],
    });
  });

  it('says "webhook must be a block of settings" when it is not an object', () => {
    expect(ignoredOf({ webhook: 'yes' })).toEqual(['webhook must be a block of settings ({ … }); webhooks are off until it is fixed']);
    expect(configOf({ webhook: 'yes' }).webhook).toBeUndefined();
  });

  it('falls back to the default safety-net interval alone, keeping webhooks on', () => {
    const config = configOf({ webhook: { port: 8765, apiKey: WEBHOOK_API_KEY, reconcileInterval: 5 } });
    expect(config.webhook).toMatchObject({ port: 8765, reconcileInterval: 300 });
    expect(ignoredOf({ webhook: { port: 8765, apiKey: WEBHOOK_API_KEY, reconcileInterval: 5 } })).toEqual([
      'webhook.reconcileInterval must be at least 30 seconds; the default, 300 seconds, is used',
    ]);
  });

  it('ignores only the bad settings of one door entry, naming the entry and its id', () => {
    const raw = {
      doors: [
        { id: 'a', name: 'Gate' },
        { id: 'abc', name: 'Side', leftOpenAfter: 0, contactSensor: 'on' },
        { id: 'b', hide: true },
      ],
    };
    expect(ignoredOf(raw)).toEqual([
      'doors.1 (id "abc") leftOpenAfter must be at least 1 seconds and contactSensor must be true or false; those settings are ignored for this door',
    ]);
    expect(configOf(raw).doors).toEqual([
      { id: 'a', name: 'Gate' },
      { id: 'abc', name: 'Side' },
      { id: 'b', hide: true },
    ]);
  });

  it('makes a door read-only when its readOnly cannot be read (never openable by mistake)', () => {
    const raw = { doors: [{ id: 'abc', readOnly: 'yes', automationSwitch: true }] };
    expect(ignoredOf(raw)).toEqual(['doors.0 (id "abc") readOnly must be true or false; this door is read-only until it is fixed']);
    expect(configOf(raw).doors).toEqual([{ id: 'abc', readOnly: true, automationSwitch: true }]);
  });

  it('ignores a door entry without an id, and a second entry for the same door', () => {
    const raw = { doors: [{ hide: false, readOnly: false }, { id: 'x', name: 'First' }, { id: ' x ', name: 'Second' }, 'x'] };
    expect(ignoredOf(raw)).toEqual([
      'doors.0 id is required; this entry is ignored',
      // Deliberate change (issue 19.3): the entries are merged, the protective values winning.
      'doors.2 (id "x") is a second entry for the same door as doors.1; they are merged: the more protective readOnly, hide and automationSwitch win, and doors.1 comes first for the other settings',
      'doors.3 must be one door\'s settings ({ "id": … }); it is ignored, but a door of the account it names stays read-only until it is fixed',
    ]);
    expect(configOf(raw).doors).toEqual([{ id: 'x', name: 'First' }]);
  });

  it('skips empty door entries a form may save without a word', () => {
    const raw = { doors: [null, {}, { id: '', name: '' }, { id: 'x' }] };
    expect(ignoredOf(raw)).toEqual([]);
    expect(configOf(raw).doors).toEqual([{ id: 'x' }]);
  });

  it('quotes an id that is not a plain id with escapes, so it forges no line', () => {
    const [sentence] = ignoredOf({ doors: [{ id: 'evil\nThe account can be read again', hide: 'x' }] });
    // Deliberate change (issue 19.3): a hide that cannot be read makes the door read-only. Issue 42: the id is named,
    // escaped, instead of left out of the sentence (an id that cannot be quoted plainly is never silence).
    expect(sentence).toBe(
      'doors.0 (id "evil\\u000aThe account can be read again") hide must be true or false; this door is read-only until it is fixed',
    );
    expect(sentence).not.toContain('\n');
  });

  it('ignores a whole doors list that is not a list', () => {
    expect(ignoredOf({ doors: 'x' })).toEqual([
      'doors must be a list of door settings; every door uses the settings for all doors, but a door of the account it names stays read-only until it is fixed',
    ]);
    expect(ignoredOf({ doors: { id: 'x' } })).toEqual([
      'doors must be a list of door settings ([{ "id": … }]), not one door\'s settings; it is ignored, so every door uses the settings for all doors',
    ]);
    expect(configOf({ doors: { id: 'x' } }).doors).toEqual([]);
  });

  it('reads a filter list element by element and says what it made of a bad one', () => {
    // Deliberate change (issue 19.3): a number is an id, a lone id is read as such, and what cannot be read fails closed.
    const raw = { includeDeviceIds: ['dev-1', 7], excludeDoorIds: 'door-1', includeDoorIds: ['d-1'] };
    expect(ignoredOf(raw)).toEqual(['excludeDoorIds must be a list of ids ([ … ]); the one id it holds is used']);
    expect(configOf(raw)).toMatchObject({
      includeDeviceIds: ['dev-1', '7'],
      excludeDoorIds: ['door-1'],
      includeDoorIds: ['d-1'],
      readOnlyLock: { all: false },
    });
  });

  it('drops blank filter entries without a word', () => {
    expect(ignoredOf({ includeDeviceIds: ['', null, ' dev-1 '] })).toEqual([]);
    expect(configOf({ includeDeviceIds: ['', null, ' dev-1 '] }).includeDeviceIds).toEqual(['dev-1']);
  });

  it('falls back to the default of a bad optional number or option, with one sentence each', () => {
    const raw = { pollInterval: 2, transitionTimeout: 'soon', lowBatteryThreshold: 101, includeDoors: 'mine', leftOpenAfter: 0, name: 7 };
    expect(ignoredOf(raw)).toEqual([
      'name must be text; "Access Control" is used',
      'pollInterval must be at least 5 seconds; the default, 15 seconds, is used',
      'transitionTimeout must be a number of seconds; the default, 60 seconds, is used',
      'lowBatteryThreshold must be at most 100 percent; the default, 20 percent, is used',
      'includeDoors must be "all" or "owned"; only the doors you own are shown until it is fixed',
      "leftOpenAfter must be at least 1 seconds; each controller's own open-door alert time is used",
    ]);
    expect(configOf(raw)).toMatchObject({
      name: 'Access Control',
      pollInterval: 15,
      transitionTimeout: 60,
      lowBatteryThreshold: 20,
      // Deliberate change (issue 29): doubt fails closed, to the doors the account owns.
      includeDoors: 'owned',
      leftOpenAfter: undefined,
    });
  });

  it('reads the access alert and its time, and falls back to off and the default time for values it cannot use', () => {
    expect(configOf({})).toMatchObject({ accessAlert: false, accessAlertDuration: 30 });
    expect(configOf({ accessAlert: true, accessAlertDuration: 3600, doors: [{ id: 'a', accessAlert: false }] })).toMatchObject({
      accessAlert: true,
      accessAlertDuration: 3600,
      doors: [{ id: 'a', accessAlert: false }],
    });
    expect(ignoredOf({ accessAlert: 'yes', accessAlertDuration: 0 })).toEqual([
      'accessAlert must be true or false; the default, off, is used',
      'accessAlertDuration must be at least 1 seconds; the default, 30 seconds, is used',
    ]);
    expect(ignoredOf({ accessAlertDuration: 3601 })).toEqual([
      'accessAlertDuration must be at most 3600 seconds; the default, 30 seconds, is used',
    ]);
    expect(configOf({ accessAlertDuration: 2.5 }).accessAlertDuration).toBe(30);
    expect(ignoredOf({ doors: [{ id: 'a', accessAlert: 'on', contactSensor: true }] })).toEqual([
      'doors.0 (id "a") accessAlert must be true or false; that setting is ignored for this door',
    ]);
  });

  it('reads the left-open repeat in minutes, for all doors and per door, and falls back to no repeat for a value it cannot use', () => {
    expect(configOf({}).leftOpenRepeat).toBe(0);
    expect(configOf({ leftOpenRepeat: 1440, doors: [{ id: 'a', leftOpenRepeat: 0 }] })).toMatchObject({
      leftOpenRepeat: 1440,
      doors: [{ id: 'a', leftOpenRepeat: 0 }],
    });
    expect(ignoredOf({ leftOpenRepeat: 1441 })).toEqual([
      'leftOpenRepeat must be at most 1440 minutes; the left-open sensor does not repeat',
    ]);
    expect(configOf({ leftOpenRepeat: -1 }).leftOpenRepeat).toBe(0);
    expect(ignoredOf({ doors: [{ id: 'a', leftOpenRepeat: 'hourly' }] })).toEqual([
      'doors.0 (id "a") leftOpenRepeat must be a number of minutes; that setting is ignored for this door',
    ]);
  });

  it('turns a bad global switch off, but a bad global readOnly makes every door read-only', () => {
    const raw = { automationSwitch: 'yes', leftOpenSensor: 1, contactSensor: 'true', readOnly: 'no' };
    expect(ignoredOf(raw)).toEqual([
      'readOnly must be true or false; every door is read-only until it is fixed',
      'automationSwitch must be "off", "open" (open only) or "open-close" (open and close); the default, off, is used',
      'leftOpenSensor must be true or false; the default, off, is used',
      'contactSensor must be true or false; the default, off, is used',
    ]);
    // The switch's default, false, is read as the mode it stands for (src/option-values.ts).
    expect(configOf(raw)).toMatchObject({ readOnly: true, automationSwitch: 'off', leftOpenSensor: false, contactSensor: false });
  });

  it('gives a door with a bad per-door automationSwitch no switch, with one sentence', () => {
    // Deliberate change (issue 19.3): no switch (the mode that opens least), no longer the global one.
    const raw = { automationSwitch: 'open', doors: [{ id: 'abc', automationSwitch: 'close', readOnly: false }] };
    expect(ignoredOf(raw)).toEqual([
      'doors.0 (id "abc") automationSwitch must be "off", "open" (open only) or "open-close" (open and close); this door has no automation switch until it is fixed',
    ]);
    expect(configOf(raw)).toMatchObject({ automationSwitch: 'open', doors: [{ id: 'abc', readOnly: false, automationSwitch: 'off' }] });
  });

  it('reads null and blank optional values as not set (what a form may save)', () => {
    const raw = {
      name: '',
      pollInterval: null,
      leftOpenAfter: '',
      readOnly: null,
      webhook: { enabled: null, port: null, apiKey: '' },
      doors: null,
    };
    expect(ignoredOf(raw)).toEqual([]);
    expect(configOf(raw)).toMatchObject({ name: 'Access Control', pollInterval: 15, readOnly: false, webhook: undefined, doors: [] });
    for (const webhook of [null, '']) {
      expect(ignoredOf({ webhook, includeDeviceIds: null, excludeDoorIds: '' })).toEqual([]);
    }
  });

  it('still refuses a missing or bad token or address, listing every other mistake too', () => {
    expect(parseConfig({ baseUrl: VALID_CONFIG.baseUrl, pollInterval: 2, webhook: { enabled: true } })).toEqual({
      ok: false,
      problems: [
        'accessToken is required',
        'pollInterval must be at least 5 seconds',
        'webhook.port is required',
        'webhook.apiKey is required',
      ],
    });
  });

  it.each([42, 'text', [VALID_CONFIG], true])('refuses a configuration that is not an object (%j)', (raw) => {
    expect(parseConfig(raw)).toEqual({ ok: false, problems: ['the configuration must be an object ({ … }) with accessToken and baseUrl'] });
  });

  it('never repeats the token in an ignored sentence, wherever it was pasted', () => {
    const token = VALID_CONFIG.accessToken;
    const everywhere = {
      name: [token],
      pollInterval: token,
      includeDoors: token,
      readOnly: token,
      leftOpenAfter: token,
      webhook: { port: token, apiKey: token, path: token, headerName: `${token} x`, host: [token] },
      doors: [{ id: token, name: [token], hide: token }, { id: [token] }],
      includeDeviceIds: token,
      excludeDoorIds: [token, 1],
    };
    const ignored = ignoredOf(everywhere);
    expect(ignored.length).toBeGreaterThan(5);
    expect(JSON.stringify(ignored)).not.toContain(token);
  });

  it('gives the settings page problems and ignored sentences side by side, each field named by its label on the page', () => {
    expect(checkBlock({ ...VALID_CONFIG, pollInterval: 2 }, undefined)).toMatchObject({
      problems: [],
      ignored: ['Poll interval must be at least 5 seconds; the default, 15 seconds, is used'],
      shown: undefined,
      excluded: {},
    });
    expect(checkBlock({ baseUrl: VALID_CONFIG.baseUrl }, undefined)).toMatchObject({
      problems: ['Access token is required'],
      ignored: [],
      shown: undefined,
      excluded: {},
    });
  });
});

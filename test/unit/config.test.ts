// Config parsing: defaults, every bad field reported by path, no secret in any message, and config.schema.json kept in step.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { configSchema, parseConfig } from '../../src/config/index.js';
import { checkBlock } from '../../src/ui/shared/check-config.js';
import type { PluginConfig } from '../../src/config/index.js';
import { atTop, OPTIONS, perDoor } from '../../src/option-catalog.js';
import type { OptionSpec } from '../../src/option-catalog.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { fieldsOf, readConfigForm } from '../support/config-schema.js';
import type { SchemaField as JsonField } from '../support/config-schema.js';

const valid = { platform: PLATFORM_NAME, accessToken: 'tok-secret-123', baseUrl: 'https://api.example.com/' };

describe('parseConfig', () => {
  it('fills every default and trims the trailing slash of the address', () => {
    const result = parseConfig(valid);
    expect(result).toEqual({
      ok: true,
      config: expect.objectContaining({
        name: 'Access Control',
        baseUrl: 'https://api.example.com',
        pollInterval: 15,
        transitionTimeout: 60,
        lowBatteryThreshold: 20,
      }) as unknown,
      ignored: [],
      warnings: [],
      findings: [],
    });
  });

  it.each([undefined, null, {}, { platform: PLATFORM_NAME }])('reports the required fields for %j without throwing', (raw) => {
    expect(parseConfig(raw)).toEqual({ ok: false, problems: ['accessToken is required', 'baseUrl is required'] });
  });

  it('reports every bad field by its path in one result', () => {
    const result = parseConfig({ ...valid, accessToken: 42, baseUrl: 'ftp://x', pollInterval: 2, lowBatteryThreshold: 101 });
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^accessToken must be text/);
    expect(problems[1]).toMatch(/^baseUrl must be an http/);
    expect(problems[2]).toBe('pollInterval must be at least 5 seconds');
    expect(problems[3]).toBe('lowBatteryThreshold must be at most 100 percent');
  });

  it('never repeats a value in its messages', () => {
    const result = parseConfig({ accessToken: ['tok-secret-123'], baseUrl: 'tok-secret-123' });
    expect(JSON.stringify(result)).not.toContain('tok-secret-123');
  });

  it('turns the webhook listener on only for a filled-in block that is not switched off', () => {
    const apiKey = 'ab'.repeat(48);
    const on = parseConfig({ ...valid, webhook: { port: 8581, apiKey } });
    expect(on.ok && on.config.webhook).toMatchObject({ port: 8581, apiKey, headerName: 'X-Service-API-Key', reconcileInterval: 300 });
    for (const webhook of [{}, { headerName: 'X-Service-API-Key', reconcileInterval: 300 }, { enabled: false, port: 'oops' }]) {
      const off = parseConfig({ ...valid, webhook });
      expect(off.ok && off.config.webhook).toBeUndefined();
    }
  });

  it('reports a half-done webhook setup by path, and only switches webhooks off', () => {
    // Deliberate change (issue 8 C): a bad webhook block no longer stops syncing; it is ignored with one sentence.
    const result = parseConfig({ ...valid, webhook: { enabled: true, apiKey: 'short' } });
    expect(result).toEqual({
      ok: true,
      config: expect.objectContaining({ webhook: undefined }) as unknown,
      ignored: [
        'webhook.port is required and webhook.apiKey must be the 96-character hexadecimal key the service issued; webhooks are off until it is fixed',
      ],
      warnings: [],
      // Each finding says the setting it is about, for the settings page to place it.
      findings: [
        {
          path: 'webhook.port',
          sentence:
            'webhook.port is required and webhook.apiKey must be the 96-character hexadecimal key the service issued; webhooks are off until it is fixed',
        },
      ],
    });
    const tls = parseConfig({ ...valid, webhook: { port: 8765, apiKey: 'ab'.repeat(48), tlsCertFile: '/etc/cert.pem' } });
    expect(tls.ok ? tls.ignored : tls.problems).toEqual([
      'webhook.tlsKeyFile needs both tlsCertFile and tlsKeyFile, or neither; webhooks are off until it is fixed',
    ]);
  });

  it('keeps keys Homebridge adds, such as _bridge', () => {
    const result = parseConfig({ ...valid, _bridge: { username: 'x' } });
    expect(result.ok && result.config._bridge).toEqual({ username: 'x' });
  });
});

const apiKey = 'ab'.repeat(48);

/** The ignored sentences of a config whose token and address are fine. */
function ignoredOf(raw: Record<string, unknown>): string[] {
  const result = parseConfig({ ...valid, ...raw });
  if (!result.ok) throw new Error(`unexpectedly refused: ${result.problems.join('; ')}`);
  return result.ignored;
}

function configOf(raw: Record<string, unknown>): PluginConfig {
  const result = parseConfig({ ...valid, ...raw });
  if (!result.ok) throw new Error(`unexpectedly refused: ${result.problems.join('; ')}`);
  return result.config;
}

describe('parseConfig: one mistake does not stop everything (issue 8 C)', () => {
  it('ignores a bad webhook block with one sentence; the rest applies', () => {
    const result = parseConfig({ ...valid, pollInterval: 30, readOnly: true, webhook: { enabled: true, port: 70000, apiKey } });
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
    const config = configOf({ webhook: { port: 8765, apiKey, reconcileInterval: 5 } });
    expect(config.webhook).toMatchObject({ port: 8765, reconcileInterval: 300 });
    expect(ignoredOf({ webhook: { port: 8765, apiKey, reconcileInterval: 5 } })).toEqual([
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
    expect(configOf(raw)).toMatchObject({ readOnly: true, automationSwitch: false, leftOpenSensor: false, contactSensor: false });
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
    expect(parseConfig({ baseUrl: valid.baseUrl, pollInterval: 2, webhook: { enabled: true } })).toEqual({
      ok: false,
      problems: [
        'accessToken is required',
        'pollInterval must be at least 5 seconds',
        'webhook.port is required',
        'webhook.apiKey is required',
      ],
    });
  });

  it.each([42, 'text', [valid], true])('refuses a configuration that is not an object (%j)', (raw) => {
    expect(parseConfig(raw)).toEqual({ ok: false, problems: ['the configuration must be an object ({ … }) with accessToken and baseUrl'] });
  });

  it('never repeats the token in an ignored sentence, wherever it was pasted', () => {
    const token = valid.accessToken;
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
    expect(checkBlock({ ...valid, pollInterval: 2 }, undefined)).toMatchObject({
      problems: [],
      ignored: ['Poll interval must be at least 5 seconds; the default, 15 seconds, is used'],
      shown: undefined,
      excluded: {},
    });
    expect(checkBlock({ baseUrl: valid.baseUrl }, undefined)).toMatchObject({
      problems: ['Access token is required'],
      ignored: [],
      shown: undefined,
      excluded: {},
    });
  });
});

describe('parseConfig: what can never work is refused, with the field named (issue 12.9)', () => {
  it.each([
    ['https://api.example.com/?region=eu', 'baseUrl must not have a query (?…) or fragment (#…)'],
    ['https://api.example.com#top', 'baseUrl must not have a query (?…) or fragment (#…)'],
    ['https://api.example.com?', 'baseUrl must not have a query (?…) or fragment (#…)'],
    [
      'https://ada:hunter2@api.example.com',
      'baseUrl must not hold a user name or password (user:pass@); the access token goes in accessToken',
    ],
    ['https://hunter2@api.example.com', 'baseUrl must not hold a user name or password (user:pass@); the access token goes in accessToken'],
    ['https://api.example.com/oauth/v1/', 'baseUrl must end before /oauth/v1 (the plugin adds it)'],
  ])('refuses the address %s', (baseUrl, problem) => {
    const result = parseConfig({ ...valid, baseUrl });
    expect(result).toEqual({ ok: false, problems: [problem] });
    expect(JSON.stringify(result)).not.toContain('hunter2');
  });

  it('keeps a path in the address', () => {
    expect(configOf({ baseUrl: 'https://example.com/access/' }).baseUrl).toBe('https://example.com/access');
  });

  it.each([
    ['a line break', 'tok-secret\n123'],
    ['a tab', 'tok-secret\t123'],
    ['a control character', 'tok-secret\u0001123'],
    ['a C1 control character', 'tok-secret\u0085123'],
    ['a curly quote', 'tok-secret\u2019123'],
    ['an emoji', 'tok-secret🔑123'],
  ])('refuses a token holding %s, which cannot go in an HTTP header, naming only the field', (_what, accessToken) => {
    const result = parseConfig({ ...valid, accessToken });
    expect(result).toEqual({
      ok: false,
      problems: [
        'accessToken holds a character that cannot be sent in an HTTP header (a line break, a control character, or one outside Latin-1 such as a curly quote or an emoji); paste the token again',
      ],
    });
    expect(JSON.stringify(result)).not.toContain('tok-secret');
  });

  it('accepts a token of printable Latin-1 characters, spaces around it trimmed', () => {
    expect(configOf({ accessToken: '  tok-é_123.ABC~  ' }).accessToken).toBe('tok-é_123.ABC~');
  });

  it.each([
    [{ headerName: 'X Service Key' }, 'webhook.headerName must be an HTTP header name (letters, digits and - such as X-Service-API-Key)'],
    [{ headerName: 'X-Key:' }, 'webhook.headerName must be an HTTP header name (letters, digits and - such as X-Service-API-Key)'],
    [{ path: '/access control' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
    [{ path: '/hook?key=1' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
    [{ path: '/a/../b' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
    [{ path: 'hook' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
    [{ path: '/gäte' }, 'webhook.path must start with / and hold no spaces, ? or # (such as /access-control)'],
  ])('switches webhooks off for a setting no request can ever match: %j', (extra, problem) => {
    expect(ignoredOf({ webhook: { port: 8765, apiKey, ...extra } })).toEqual([`${problem}; webhooks are off until it is fixed`]);
  });

  it('accepts header names and paths a request can match', () => {
    const webhook = configOf({ webhook: { port: 8765, apiKey, headerName: 'X_Api.Key', path: '/hooks/access-control~1' } }).webhook;
    expect(webhook).toMatchObject({ headerName: 'X_Api.Key', path: '/hooks/access-control~1' });
  });
});

describe('config.schema.json', () => {
  const form = readConfigForm();
  const zodSchema = z.toJSONSchema(configSchema, { io: 'input' }) as {
    properties: Record<string, JsonField>;
    required: string[];
  };

  it('is a platform form registered under the platform name', () => {
    expect(form.pluginAlias).toBe(PLATFORM_NAME);
    expect(form.pluginType).toBe('platform');
    expect(form.schema.properties.name).toBeDefined();
  });

  /**
   * Where the form deliberately differs from zod (issue 8 B), field by field. Everything not listed here must match.
   * - default: the Homebridge UI writes every default into config.json, which would pin today's defaults in every
   *   user's file; the parser fills them in instead, and each description says what an empty field means. (`name`
   *   keeps its default: Homebridge itself, not the parser, shows it before each log line.)
   * - maximum: the UI draws an integer with a minimum and a maximum as a slider that cannot be typed in (a port
   *   thumb at 32768); the form keeps the minimum, the description gives the range, and the parser enforces it.
   * - required (webhook): zod checks port and key only on a block that is switched on (listenerWanted); the form says
   *   the same with if/then, since its "Receive webhooks" checkbox writes `enabled: false` on every save and a plain
   *   required list would then flag a form in which webhooks are off.
   * - enum (includeDoors, showAs): the saved values are the form's oneOf; the layout's titleMap adds a first choice, "All
   *   doors I can open (the default)", whose null value the UI does not write. Beside an enum the UI would drop that
   *   choice and add a "None" of its own (and null cannot be in the schema: the UI's form stops drawing at one).
   * - type (automationSwitch, globally and per door): zod reads true | false | "off" | "open" | "open-close" (true,
   *   from older configs, is open only); the form offers the three modes by name as a select of strings.
   */
  const NO_DEFAULT = 'the UI would write the default into config.json';
  const NO_MAXIMUM = 'an integer with minimum and maximum is drawn as a slider';
  /** zod also reads true and false (older configs: true is open only); the form offers and writes the modes by name. */
  const SWITCH_STRINGS = 'the form writes "off", "open" or "open-close"; zod also reads the true and false of older configs';
  const ONE_OF = 'the values are in oneOf; the layout adds the choice that writes nothing';
  type Differences = Partial<Record<string, { form: unknown; why: string }>>;
  /** The differences each catalog option has by its kind, at the top level and in a door entry: none by hand. */
  const optionDifferences = (option: OptionSpec, where: 'top' | 'door'): Differences => ({
    ...(where === 'top' && option.kind !== 'text' && 'default' in option ? { default: { form: undefined, why: NO_DEFAULT } } : {}),
    ...(option.kind === 'number' ? { maximum: { form: undefined, why: NO_MAXIMUM } } : {}),
    // A choice that reads booleans too has no enum in zod (its type differs instead, below).
    ...(option.kind === 'choice' && option.booleans === undefined ? { enum: { form: undefined, why: ONE_OF } } : {}),
  });
  const catalogDifferences = (OPTIONS as readonly OptionSpec[]).flatMap((option) => [
    ...(atTop(option) ? [[option.key, optionDifferences(option, 'top')] as const] : []),
    ...(perDoor(option) ? [[`doors[].${option.key}`, optionDifferences(option, 'door')] as const] : []),
  ]);
  const deliberate: Record<string, Differences> = {
    ...Object.fromEntries(catalogDifferences.filter(([, differences]) => Object.keys(differences).length > 0)),
    webhook: { required: { form: undefined, why: 'required only when enabled: the form says it with if/then' } },
    'webhook.port': { maximum: { form: undefined, why: NO_MAXIMUM } },
    'webhook.headerName': { default: { form: undefined, why: NO_DEFAULT } },
    'webhook.reconcileInterval': { default: { form: undefined, why: NO_DEFAULT }, maximum: { form: undefined, why: NO_MAXIMUM } },
    automationSwitch: { default: { form: undefined, why: NO_DEFAULT }, type: { form: 'string', why: SWITCH_STRINGS } },
    'doors[].automationSwitch': { type: { form: 'string', why: SWITCH_STRINGS } },
    people: { default: { form: undefined, why: NO_DEFAULT } },
    doors: { default: { form: undefined, why: NO_DEFAULT } },
    includeDeviceIds: { default: { form: undefined, why: NO_DEFAULT } },
    excludeDeviceIds: { default: { form: undefined, why: NO_DEFAULT } },
    includeDoorIds: { default: { form: undefined, why: NO_DEFAULT } },
    excludeDoorIds: { default: { form: undefined, why: NO_DEFAULT } },
  };

  it('has exactly the fields, types, bounds, defaults and required list of the zod schema, but for the listed differences', () => {
    expect(Object.keys(form.schema.properties).sort()).toEqual(Object.keys(zodSchema.properties).sort());
    expect([...form.schema.required].sort()).toEqual([...zodSchema.required].sort());
    // Every field of both by its dotted path (a block's as `webhook.port`, a door entry's as `doors[].id`); a list of
    // plain values is compared as the list.
    const fieldsByPath = (properties: Record<string, JsonField>) => new Map(fieldsOf(properties).filter(([path]) => !path.endsWith('[]')));
    const zodFields = fieldsByPath(zodSchema.properties);
    const formFields = fieldsByPath(form.schema.properties);
    expect([...formFields.keys()].sort()).toEqual([...zodFields.keys()].sort());
    const seen = new Set<string>();
    for (const [key, field] of zodFields) {
      const formField = formFields.get(key);
      for (const rule of ['type', 'default', 'minimum', 'maximum', 'minLength', 'pattern', 'enum', 'required']) {
        const difference = deliberate[key]?.[rule];
        if (difference) {
          seen.add(`${key} ${rule}`);
          // A listed difference must still be one (and hold the value listed), or the list would hide drift.
          expect({ key, rule, differs: JSON.stringify(field[rule]) !== JSON.stringify(difference.form) }).toEqual({
            key,
            rule,
            differs: true,
          });
        }
        const expected = difference ? difference.form : field[rule];
        expect({ key, rule, value: formField?.[rule] }).toEqual({ key, rule, value: expected });
      }
      if (field.items?.properties) {
        expect(formField?.items?.required).toEqual(field.items.required);
      }
    }
    const listed = Object.entries(deliberate).flatMap(([key, rules]) => Object.keys(rules).map((rule) => `${key} ${rule}`));
    expect([...seen].sort()).toEqual(listed.sort());
  });

  it('requires in the form, once webhooks are on, exactly what zod requires of a webhook block', () => {
    const zodWebhook = zodSchema.properties.webhook ?? {};
    expect(form.schema.properties.webhook?.then).toEqual({ required: zodWebhook.required });
  });

  it('shows the webhook fields only once webhooks are switched on', () => {
    const webhook = form.schema.properties.webhook?.properties ?? {};
    for (const [key, field] of Object.entries(webhook)) {
      expect({ key, shownWhenOn: key === 'enabled' || field.condition !== undefined }).toEqual({ key, shownWhenOn: true });
    }
  });

  it('shows the token as a password', () => {
    expect(form.schema.properties.accessToken?.['x-schema-form']).toEqual({ type: 'password' });
  });
});

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
      expect(checkBlock({ ...valid, ...extra }, undefined).ignored).toHaveLength(1);
    }
    expect(checkBlock({ ...valid, doors: [{ id: 424242, readOnly: true }], excludeDoorIds: [424243] }, undefined)).toMatchObject({
      problems: [],
      ignored: [],
      shown: undefined,
      excluded: {},
    });
  });
});

// Issue 29 on the runtime parser: every key known, read as the key it nearly is, or named; choices read as the value they
// nearly are, or failing closed; ids exact; nothing near a secret quoted. Each case was seen to widen who can open a door.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import type { PluginConfig } from '../../../src/config/index.js';
import { protectionFor } from '../../../src/config/protection.js';
import { doorOptions, exclusionReason } from '../../../src/config/door-options.js';
import { PLATFORM_NAME } from '../../../src/settings.js';

const TOKEN = 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b7a6f1f8e';
const WEBHOOK_KEY = '7e1d'.repeat(24);
const valid = { platform: PLATFORM_NAME, accessToken: TOKEN, baseUrl: 'https://api.example.com' };

function read(raw: Record<string, unknown>): { config: PluginConfig; ignored: string[]; warnings: string[] } {
  const result = parseConfig({ ...valid, ...raw });
  if (!result.ok) throw new Error(`unexpectedly refused: ${result.problems.join('; ')}`);
  return result;
}

/** The door "gate" as the settings leave it for HomeKit. */
const gate = (raw: Record<string, unknown>) => doorOptions(read(raw).config, 'gate', 'dev-a');

describe('a misspelt protective key (finding 3)', () => {
  it.each([
    ['readonly', 'readonly'],
    ['ReadOnly', 'ReadOnly'],
    ['readOnly ', 'readOnly '],
    ['read_only', 'read_only'],
    ['re\u0430dOnly', 're\\u0430dOnly'],
  ])('%j at the top level is read as readOnly, with a warning naming both', (key, shown) => {
    const { config, warnings, ignored } = read({ [key]: true });
    expect(config.readOnly).toBe(true);
    expect(gate({ [key]: true }).readOnly).toBe(true);
    expect(warnings).toEqual([`"${shown}" is read as readOnly`]);
    expect(ignored).toEqual([]);
  });

  it('is read per door too, and "hidden" (two edits from hide) is named and keeps that door out of Home', () => {
    expect(gate({ doors: [{ id: 'gate', readonly: true }] }).readOnly).toBe(true);
    const hidden = read({ doors: [{ id: 'gate', hidden: true }] });
    // Issue 42: a key of a door entry the plugin does not read protects that door; one that speaks of hiding keeps it out.
    expect(hidden.warnings).toEqual([
      'doors.0 (id "gate"): "hidden" is not a setting the plugin knows, so it is ignored; the closest setting is hide; this door is kept out of Home until it is fixed',
    ]);
    expect(exclusionReason(hidden.config, { id: 'gate', relationship: 'Owner' }, 'dev-a')).toMatch(/hidden/);
    expect(doorOptions(hidden.config, 'gate').readOnly).toBe(true);
    expect(doorOptions(hidden.config, 'other').readOnly).toBe(false);
    // A false one cannot be told from an "off" that protects (an "automation": false): the door is read-only, not hidden.
    const shown = read({ doors: [{ id: 'gate', hidden: false }] }).config;
    expect(exclusionReason(shown, { id: 'gate', relationship: 'Owner' }, 'dev-a')).toBeUndefined();
    expect(doorOptions(shown, 'gate').readOnly).toBe(true);
  });

  it('reads a door\'s "automationswitch": "off" under a global "open-close" as its own switch, off', () => {
    const raw = { automationSwitch: 'open-close', doors: [{ id: 'gate', automationswitch: 'off' }] };
    expect(gate(raw).automationSwitch).toBe('off');
    expect(doorOptions(read(raw).config, 'other').automationSwitch).toBe('open-close');
    expect(read(raw).warnings).toEqual(['doors.0 (id "gate"): "automationswitch" is read as automationSwitch']);
  });

  it('reads "excludeDoorIDs" as excludeDoorIds, so the door stays out of Home', () => {
    const { config, warnings } = read({ excludeDoorIDs: ['gate'] });
    expect(exclusionReason(config, { id: 'gate', relationship: 'Owner' }, 'dev-a')).toMatch(/filtered out/);
    expect(warnings).toEqual(['"excludeDoorIDs" is read as excludeDoorIds']);
  });

  it('names a key it does not know with the closest one, and keeps the doors it names protected, not every door', () => {
    const far = read({ excludeDoor: ['gate'] });
    expect(far.warnings).toEqual([
      '"excludeDoor" is not a setting the plugin knows, so it is ignored; the closest setting is excludeDoorIds; but a door of the account it names stays out of Home until it is fixed',
    ]);
    const protection = protectionFor(far.config, {
      doors: [
        { id: 'gate', deviceId: 'dev-a' },
        { id: 'other', deviceId: 'dev-a' },
      ],
    });
    expect(exclusionReason(far.config, { id: 'gate', relationship: 'Owner' }, 'dev-a', protection)).toMatch(/excludeDoor names it/);
    expect(exclusionReason(far.config, { id: 'other', relationship: 'Owner' }, 'dev-a', protection)).toBeUndefined();
    expect(doorOptions(far.config, 'other').readOnly).toBe(false);
    // Nearest readOnly, and naming no door: it speaks of every door.
    expect(doorOptions(read({ readOnlyAll: true }).config, 'gate').readOnly).toBe(true);
    // Nothing near anything: named, and nothing else changes.
    const unrelated = read({ colourScheme: 'dark' });
    expect(unrelated.warnings).toEqual([
      '"colourScheme" is not a setting the plugin knows, so it is ignored; but a door of the account it names stays read-only until it is fixed',
    ]);
    expect(unrelated.config.readOnlyLock.all).toBe(false);
    // Homebridge's own keys are not the plugin's to name.
    expect(read({ _bridge: { username: '0E:00:00:00:00:01', port: 51001 } }).warnings).toEqual([]);
  });

  it('uses the more protective value when a key is written twice, and says so', () => {
    const twice = read({ readOnly: false, readonly: true });
    expect(twice.config.readOnly).toBe(true);
    expect(twice.warnings).toEqual([
      '"readonly" is read as readOnly',
      'readOnly and "readonly" are all read as readOnly and differ, so the most protective of them is used',
    ]);
    const doors = read({ doors: [{ id: 'gate', automationSwitch: 'open-close', AutomationSwitch: 'off' }] });
    expect(doorOptions(doors.config, 'gate').automationSwitch).toBe('off');
  });

  it('reads the webhook block\'s keys the same way ("Enabled": false turns the listener off)', () => {
    const off = read({ webhook: { Enabled: false, port: 8765, apiKey: WEBHOOK_KEY } });
    expect(off.config.webhook).toBeUndefined();
    expect(off.warnings).toEqual(['in webhook, "Enabled" is read as enabled']);
    const on = read({ webhook: { port: 8765, apikey: WEBHOOK_KEY, secret: 'x' } });
    expect(on.config.webhook).toMatchObject({ port: 8765, apiKey: WEBHOOK_KEY });
    expect(on.warnings).toEqual([
      'in webhook, "apikey" is read as apiKey',
      'in webhook, "secret" is not a setting the plugin knows, so it is ignored',
    ]);
  });
});

describe('ids are exact (finding 4)', () => {
  /** As config.json holds it: JSON.parse reads it as 9007199254740992, another id. */
  const beyond = JSON.parse('9007199254740993') as number;

  // Deliberate change (issue 36): such a number locks only the doors it could be, never every door.
  const uuid = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
  it('refuses a door id beyond 2^53 by name, and keeps read-only only the doors whose id could be that number', () => {
    const { config, ignored } = read({ doors: [{ id: beyond, readOnly: true }] });
    expect(ignored).toEqual([
      'doors.0 id is a number too large to be read exactly (beyond 2^53); write the id in quotes, as text; this entry is ignored, and as it sets readOnly, a door whose id reads as the number 9007199254740992 is read-only until it is fixed',
    ]);
    expect(config.doors).toEqual([]);
    expect(config.readOnlyLock.all).toBe(false);
    expect(doorOptions(config, '9007199254740992').readOnly).toBe(true);
    expect(doorOptions(config, '9007199254740993').readOnly).toBe(true);
    expect(doorOptions(config, uuid).readOnly).toBe(false);
    expect(doorOptions(config, '9007199254740990').readOnly).toBe(false);
  });

  it('refuses such an id in a filter and fails closed for the doors it could be: an exclusion keeps them read-only', () => {
    const { config, ignored } = read({ excludeDoorIds: [beyond, 'door-2'] });
    expect(ignored[0]).toMatch(/^excludeDoorIds\.0 is a number too large to be read exactly/);
    expect(config.excludeDoorIds).toEqual(['door-2']);
    expect(config.readOnlyLock.all).toBe(false);
    expect(doorOptions(config, '9007199254740993').readOnly).toBe(true);
    expect(doorOptions(config, uuid).readOnly).toBe(false);
    const byController = read({ excludeDeviceIds: [beyond] }).config;
    expect(doorOptions(byController, uuid, '9007199254740993').readOnly).toBe(true);
    expect(doorOptions(byController, uuid, 'dev-a').readOnly).toBe(false);
  });

  it('still reads a whole number within range as its text', () => {
    expect(read({ doors: [{ id: 424242, readOnly: true }] }).config.doors).toEqual([{ id: '424242', readOnly: true }]);
  });
});

describe('a choice typed nearly right is read as what it nearly is; one that is not fails closed (findings 5, 6)', () => {
  it('reads includeDoors "Owned" as owned, and "own" (no near miss) as owned too, never as all', () => {
    expect(read({ includeDoors: 'Owned' })).toMatchObject({
      config: { includeDoors: 'owned' },
      warnings: ['includeDoors "Owned" is read as "owned"'],
    });
    const own = read({ includeDoors: 'own' });
    expect(own.config.includeDoors).toBe('owned');
    expect(own.ignored).toEqual(['includeDoors must be "all" or "owned"; only the doors you own are shown until it is fixed']);
    expect(exclusionReason(own.config, { id: 'shared', relationship: 'Has Access' }, 'dev-a')).toMatch(/only owned doors/);
  });

  it.each(['Lock', 'locks', ' lock', 'LOCK'])('reads showAs %j as lock', (value) => {
    expect(gate({ showAs: value }).showAs).toBe('lock');
    expect(gate({ doors: [{ id: 'gate', showAs: value }] }).showAs).toBe('lock');
  });

  it.each([true, 'padlock', {}])('keeps the kind Home shows now for showAs %j, for all doors and for one door', (value) => {
    const all = read({ showAs: value });
    expect(all.ignored[0]).toMatch(
      /^showAs .*; each door keeps the kind Home shows now \(a new door is a garage door\) until it is fixed$/,
    );
    expect(doorOptions(all.config, 'gate').showAs).toBeUndefined();
    // A door's own readable kind still stands.
    expect(doorOptions(read({ showAs: value, doors: [{ id: 'gate', showAs: 'lock' }] }).config, 'gate').showAs).toBe('lock');
    const one = read({ doors: [{ id: 'gate', showAs: value }] });
    expect(one.ignored[0]).toMatch(/^doors\.0 \(id "gate"\) showAs .*; this door keeps the kind Home shows now until it is fixed$/);
    expect(doorOptions(one.config, 'gate').showAs).toBeUndefined();
    expect(doorOptions(one.config, 'other').showAs).toBe('garage-door');
  });

  it('reads matter "Locks" as locks, and keeps the doors on Matter as they are for a value it cannot read', () => {
    expect(read({ matter: 'Locks' })).toMatchObject({ config: { matter: 'locks' }, warnings: ['matter "Locks" is read as "locks"'] });
    const unread = read({ matter: {} });
    expect(unread.config.keptAsCached.matter).toBe(true);
    expect(unread.ignored).toEqual([
      'matter must be "off", "sensors" (each door a contact sensor) or "locks" (each door a lock: unlock opens, lock closes); the doors stay on Matter as they are now (none, if none is) until it is fixed',
    ]);
    expect(read({ matter: 'locks' }).config.keptAsCached.matter).toBe(false);
  });
});

describe('no secret is quoted (finding 8)', () => {
  it.each([
    ['one character more', `${TOKEN}.`],
    ['one character less', TOKEN.slice(0, -1)],
    ['a colon in front', `:${TOKEN}`],
    ['two characters changed', `x${TOKEN.slice(1, -1)}y`],
    ['the webhook key with a space', `${WEBHOOK_KEY.slice(0, 40)} ${WEBHOOK_KEY.slice(40)}`],
  ])('shows a door id that is the token or webhook key with %s as [redacted]', (_, id) => {
    const { ignored, warnings } = read({
      webhook: { port: 8765, apiKey: WEBHOOK_KEY },
      doors: [
        { id, readOnly: 'yes' },
        { id: 'gate', [id]: true },
      ],
    });
    const said = JSON.stringify([...ignored, ...warnings]);
    expect(said).toContain('[redacted]');
    for (const secret of [TOKEN, WEBHOOK_KEY, TOKEN.slice(4, 20), WEBHOOK_KEY.slice(4, 20)]) expect(said).not.toContain(secret);
  });

  it('still quotes a plain door id', () => {
    expect(read({ doors: [{ id: 'gate', readOnly: 'yes' }] }).ignored[0]).toMatch(/^doors\.0 \(id "gate"\) readOnly/);
  });
});

describe('keys that are names of Object.prototype (finding 9, runtime side)', () => {
  it('reads a door with the id __proto__, constructor or toString like any other', () => {
    const config = read({ doors: [{ id: '__proto__', hide: true }, { id: 'constructor', readOnly: true }, { id: 'toString' }] }).config;
    expect(exclusionReason(config, { id: '__proto__', relationship: 'Owner' }, 'dev-a')).toMatch(/hidden/);
    expect(exclusionReason(config, { id: 'toString', relationship: 'Owner' }, 'dev-a')).toBeUndefined();
    expect(doorOptions(config, 'constructor').readOnly).toBe(true);
    expect(doorOptions(config, 'toString').readOnly).toBe(false);
  });

  it('names a top-level "__proto__" key from config.json and changes no prototype', () => {
    const raw = JSON.parse(
      `{ "platform": "${PLATFORM_NAME}", "accessToken": "${TOKEN}", "baseUrl": "https://api.example.com", "__proto__": { "readOnly": true } }`,
    ) as Record<string, unknown>;
    const result = parseConfig(raw);
    expect(result.ok && result.warnings).toEqual([
      '"__proto__" is not a setting the plugin knows, so it is ignored; but a door of the account it names stays read-only until it is fixed',
    ]);
    expect(({} as Record<string, unknown>).readOnly).toBeUndefined();
  });
});

describe('notes are not settings (issue 49, item 4)', () => {
  const DOOR = '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c';
  const account = { doors: [{ id: DOOR, deviceId: 'dev-a' }] };
  const fateOf = (raw: Record<string, unknown>) => {
    const result = parseConfig({ ...valid, ...raw });
    if (!result.ok) throw new Error(result.problems.join('; '));
    const protection = protectionFor(result.config, account);
    const options = doorOptions(result.config, DOOR, 'dev-a');
    return {
      readOnly: options.readOnly || protection.readOnly.has(DOOR),
      automationSwitch: options.automationSwitch,
      said: [...result.warnings, ...result.ignored, ...protection.findings.map((f) => f.sentence)],
      notes: result.notes,
    };
  };
  const plain = fateOf({});

  it.each(['_comment', '//', '# the garage', 'comment', 'Comments', 'note', 'NOTES', 'description'])(
    'a top-level %j naming a door leaves it as it was, said only at debug',
    (key) => {
      const fate = fateOf({ [key]: `the garage is ${DOOR}` });
      expect({ ...fate, notes: undefined }).toEqual(plain);
      expect(fate.notes).toEqual([key]);
    },
  );

  it('a door entry with only a description keeps its door openable, with its automation switch', () => {
    const fate = fateOf({ doors: [{ id: DOOR, description: `the garage, ${DOOR}` }] });
    expect(fate.readOnly).toBe(false);
    expect(fate.automationSwitch).toBe(plain.automationSwitch);
    expect(fate.said).toEqual([]);
    expect(fate.notes).toEqual(['doors.0.description']);
  });

  it("another unknown key keeps today's rule: the door it names stays read-only, and the line says what to write", () => {
    const fate = fateOf({ readOnlyDoorz: [DOOR] });
    expect(fate.readOnly).toBe(true);
    expect(fate.said.join(' ')).toMatch(/write it in that door's entry/);
  });
});

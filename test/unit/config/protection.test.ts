// What the settings protect once the account is known (issue 42): an id that names no door exactly protects each door it
// could mean, a value the plugin does not read protects each door it names, and each is said with what to write.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import type { PluginConfig } from '../../../src/config/index.js';
import { needsLookAlikes, protectionFor } from '../../../src/config/protection.js';
import type { AccountIds } from '../../../src/config/protection.js';
import { doorOptions, exclusionReason, guarded } from '../../../src/config/door-options.js';
import { skeleton } from '../../../src/util/skeleton.js';

const TOKEN = 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b';
const valid = { accessToken: TOKEN, baseUrl: 'https://api.example.com' };
const A = '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c';
const B = 'a7c9e1f3-5b2d-4c8e-9f1a-3b5d7e9f1a2c';
const C = 'c0ffee00-1234-4abc-9def-000000000003';
const account: AccountIds = {
  doors: [
    { id: A, deviceId: 'dev-1' },
    { id: B, deviceId: 'dev-1' },
    { id: C, deviceId: 'dev-2' },
  ],
};

const config = (raw: Record<string, unknown>): PluginConfig => {
  const result = parseConfig({ ...valid, ...raw });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
};

/** What the plugin does with a door of `account` under `raw`: shown and openable, shown read-only, or left out. */
function fate(raw: Record<string, unknown>, id: string, ids: AccountIds = account): 'opens' | 'read-only' | 'left out' {
  const parsed = config(raw);
  const protection = protectionFor(parsed, ids, skeleton);
  const deviceId = ids.doors.find((door) => door.id === id)?.deviceId ?? 'dev-1';
  if (exclusionReason(parsed, { id, relationship: 'owner' }, deviceId, protection) !== undefined) return 'left out';
  return doorOptions(parsed, id, deviceId).readOnly || guarded(protection, id) ? 'read-only' : 'opens';
}

const findingsOf = (raw: Record<string, unknown>, ids: AccountIds = account): string[] =>
  protectionFor(config(raw), ids, skeleton).findings.map((finding) => finding.sentence);

/** A with its first "a" in Cyrillic, and its "c"s too: it reads the same. */
const LOOK_ALIKE_A = A.replace('c', '\u0441').replace('a', '\u0430');

describe('ids that match exactly', () => {
  it('say nothing and protect only what they say, whatever their case', () => {
    const raw = { doors: [{ id: A.toUpperCase(), readOnly: true }], excludeDoorIds: [B], includeDeviceIds: ['DEV-1', 'dev-2'] };
    expect(findingsOf(raw)).toEqual([]);
    expect(fate(raw, A)).toBe('read-only');
    expect(fate(raw, B)).toBe('left out');
    expect(fate(raw, C)).toBe('opens');
  });
});

describe('an id that could mean a door (issue 42.2)', () => {
  it.each([
    ['look-alike letters', LOOK_ALIKE_A, 'written with look-alike letters'],
    ['a typo', `${A.slice(0, -1)}d`, 'a few characters off'],
    ['a list in one id', `${A}, ${C}`, 'held in it'],
  ])('in a read-only entry keeps that door read-only and says what to write: %s', (_, written, how) => {
    const raw = { doors: [{ id: written, readOnly: true }] };
    expect(fate(raw, A)).toBe('read-only');
    expect(fate(raw, B)).toBe('opens');
    const [sentence] = findingsOf(raw);
    expect(sentence).toContain(`(${how})`);
    expect(sentence).toMatch(/^doors names door ".*", which the account does not have; it could mean door "3f2b8c1e/);
    expect(sentence).toMatch(/so (that door is|those doors are) read-only until it is fixed: /);
  });

  it('quotes what it cannot quote plainly with escapes, never silence', () => {
    const [sentence] = findingsOf({ excludeDoorIds: [LOOK_ALIKE_A] });
    expect(sentence).toContain('"3f2b8\\u0441');
    expect(sentence).toContain(`write "${A}"`);
  });

  it('keeps a door an exclusion could mean out of Home, and a hide too', () => {
    expect(fate({ excludeDoorIds: [LOOK_ALIKE_A] }, A)).toBe('left out');
    expect(fate({ doors: [{ id: LOOK_ALIKE_A, hide: true }] }, A)).toBe('left out');
    expect(fate({ excludeDoorIds: [LOOK_ALIKE_A] }, B)).toBe('opens');
    // A hyphen that is not the ASCII one, a Cyrillic "е": the controller it could mean keeps its doors out.
    expect(fate({ excludeDeviceIds: ['dev\u20101'] }, A)).toBe('left out');
    expect(fate({ excludeDeviceIds: ['d\u0435v-1'] }, A)).toBe('left out');
    expect(fate({ excludeDeviceIds: ['d\u0435v-1'] }, C)).toBe('opens');
  });

  it('shows a door an include list could mean, read-only, instead of hiding every door in silence', () => {
    const raw = { includeDoorIds: [LOOK_ALIKE_A] };
    expect(fate(raw, A)).toBe('read-only');
    expect(fate(raw, B)).toBe('left out');
    expect(findingsOf(raw)[0]).toContain('that door is shown, read-only, until it is fixed');
  });

  it('keeps the door an automation switch "off" entry could mean read-only', () => {
    expect(fate({ automationSwitch: 'open', doors: [{ id: LOOK_ALIKE_A, automationSwitch: 'off' }] }, A)).toBe('read-only');
  });

  it('protects nothing for an entry that protects nothing, but still says what it could mean', () => {
    const raw = { doors: [{ id: LOOK_ALIKE_A, leftOpenSensor: true }] };
    expect(fate(raw, A)).toBe('opens');
    expect(findingsOf(raw)[0]).toMatch(/could mean door "3f2b8c1e.*so that entry's settings apply to no door: write/);
  });

  it('names an id near no door of the account, and protects no door for it', () => {
    expect(findingsOf({ excludeDoorIds: ['gate'], includeDeviceIds: ['dev-9'] })).toEqual([
      'excludeDoorIds names door "gate", which the account does not have, so it keeps no door out',
      // A hint only (two ids of 5 characters are one edit apart): it protects nothing.
      `includeDeviceIds names controller "dev-9", which the account does not have, so it lets no door in; the account's closest controller id is "dev-1"`,
    ]);
    expect(fate({ excludeDoorIds: ['gate'] }, A)).toBe('opens');
  });

  it('never quotes the token pasted as an id', () => {
    const [sentence] = findingsOf({ excludeDoorIds: [TOKEN] });
    expect(sentence).toContain('[redacted]');
    expect(sentence).not.toContain(TOKEN.slice(8));
  });

  it('reads every way one id was written: a look-alike letter in only the second spelling still protects its door', () => {
    // "\u01bd" and "\u01bc" are one letter in two cases, so both entries are one id; only the capital looks like a "5"
    // (the small one like an "s", eight edits from the door's id): reading the first spelling alone would name no door.
    const door = '55555555';
    const ids: AccountIds = { doors: [{ id: door, deviceId: 'dev-3' }, ...account.doors] };
    const raw = { excludeDoorIds: ['\u01bd'.repeat(door.length), '\u01bc'.repeat(door.length)] };
    expect(config(raw).spellings.get('\u01bd'.repeat(door.length))).toHaveLength(2);
    expect(fate(raw, door, ids)).toBe('left out');
    expect(fate(raw, A, ids)).toBe('opens');
    // The other order too: the spelling that looks like the id may come first or last.
    expect(fate({ excludeDoorIds: [...raw.excludeDoorIds].reverse() }, door, ids)).toBe('left out');
  });

  it('asks for the look-alike letters only where an id matches nothing exactly', () => {
    expect(needsLookAlikes(config({ doors: [{ id: A, readOnly: true }], excludeDeviceIds: ['dev-2'] }), account)).toBe(false);
    expect(needsLookAlikes(config({ doors: [{ id: LOOK_ALIKE_A, readOnly: true }] }), account)).toBe(true);
    expect(needsLookAlikes(config({ readOnlyDoorIds: [A] }), account)).toBe(true);
  });
});

describe('a value the plugin does not read (issue 42.3)', () => {
  it.each([
    ['an unknown key', { readOnlyDoorIds: [A] }, 'read-only'],
    ['an unknown key that speaks of hiding', { hideDoorIds: [A] }, 'left out'],
    ['a near miss between exclusions', { excludeDoors: [A] }, 'left out'],
    ['doors as an object keyed by id', { doors: { [A]: { readOnly: true } } }, 'read-only'],
    ['doors as JSON text', { doors: JSON.stringify([{ id: A, readOnly: true }]) }, 'read-only'],
    ['a list of per-door entries under another key', { perDoor: [{ id: A, readOnly: true }] }, 'read-only'],
    ['an id alone in the doors list', { doors: [A, { id: C }] }, 'read-only'],
    ["a door entry's unknown key", { doors: [{ id: A, automation: 'off' }] }, 'read-only'],
    ["a door entry's unknown key that speaks of hiding", { doors: [{ id: A, hidden: true }] }, 'left out'],
  ])('%s: the door it names is protected, the others open', (_, raw, expected) => {
    expect(fate(raw, A)).toBe(expected);
    expect(fate(raw, B)).toBe('opens');
  });

  it('says which door a value it does not read names, and what to write instead', () => {
    expect(findingsOf({ readOnlyDoorIds: [A] })).toEqual([
      `readOnlyDoorIds is not a setting the plugin reads, and it names door "${A}", so that door is read-only until it is fixed: write it in that door's entry (doors: [{ "id": "${A}", "readOnly": true }])`,
    ]);
    expect(findingsOf({ hideDoorIds: [A] })[0]).toContain(`write it as excludeDoorIds: ["${A}"]`);
  });

  it('changes no door when it names none', () => {
    const raw = { colourScheme: 'dark', excludeDoors: ['front gate'] };
    for (const id of [A, B, C]) expect(fate(raw, id)).toBe('opens');
    expect(findingsOf(raw)).toEqual([]);
  });
});

describe('two spellings of one setting (issue 42.4)', () => {
  it('exclusions add up, whatever their shape', () => {
    const raw = { excludeDoorIds: [A], excludeDoorIDs: B };
    expect(fate(raw, A)).toBe('left out');
    expect(fate(raw, B)).toBe('left out');
    expect(fate(raw, C)).toBe('opens');
  });

  it('include lists keep what they have in common', () => {
    const raw = { includeDoorIds: [A, B], includeDoorIDs: [B, C] };
    expect(fate(raw, A)).toBe('left out');
    expect(fate(raw, B)).toBe('opens');
    expect(fate(raw, C)).toBe('left out');
  });

  it('include lists with nothing in common show their doors and open none', () => {
    const raw = { includeDoorIds: [A], include_door_ids: [B] };
    expect(fate(raw, A)).toBe('read-only');
    expect(fate(raw, B)).toBe('read-only');
    expect(fate(raw, C)).toBe('left out');
  });

  it('a read-only in any spelling wins', () => {
    expect(fate({ doors: [{ id: A, readOnly: false, readonly: true }] }, A)).toBe('read-only');
  });
});

describe('ids the service sends (issue 42.5)', () => {
  it('two doors whose ids read the same are both read-only, with a line', () => {
    const ids: AccountIds = { doors: [...account.doors, { id: A.toUpperCase(), deviceId: 'dev-2' }] };
    expect(fate({}, A, ids)).toBe('read-only');
    expect(fate({}, A.toUpperCase(), ids)).toBe('read-only');
    expect(fate({}, B, ids)).toBe('opens');
    expect(findingsOf({}, ids)[0]).toMatch(/^The account has doors whose ids differ only in case/);
  });

  it('a door whose id reads as a number the service sent beyond 2^53 is read-only', () => {
    const ids: AccountIds = {
      doors: [{ id: '9007199254740992', deviceId: 'dev-1' }, ...account.doors],
      unsafeDoorNumbers: [Number('9007199254740993')],
    };
    expect(fate({}, '9007199254740992', ids)).toBe('read-only');
    expect(fate({}, A, ids)).toBe('opens');
  });
});

// The page's own check of a block: the plugin's parser on the block as it will be saved, lookups by door id safe for any id.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../../src/config/index.js';
import { shownDoors } from '../../../../src/registry/shown-doors.js';
import { reportedDevice, reportedDoor } from '../../../support/door-fixtures.js';
import type { Account } from '../../../../src/client/types.js';
import { accountSummary } from '../../../../src/ui/server/account-summary.js';
import { checkBlock } from '../../../../src/ui/shared/check-config.js';
import { inPageWords, labelOf } from '../../../../src/ui/shared/labels.js';
import type { AccountSummary } from '../../../../src/ui/shared/messages.js';
import { pageDoor } from '../../../support/door-fixtures.js';

const base = { platform: 'AccessControl', accessToken: 'token-1', baseUrl: 'https://api.example.com' };

const door = pageDoor;

/** Door ids an object's prototype also answers to: a lookup in a plain object would find a function, or set the prototype. */
const HOSTILE = ['constructor', 'toString', '__proto__', 'hasOwnProperty'];
const account: AccountSummary = { controllers: [], doors: [...HOSTILE.map((id) => door(id)), door('plain')], unreadable: [] };

describe('the page check', () => {
  it('shows what the plugin applies to a door a setting names in a form it does not read exactly (issue 42)', () => {
    const GATE = '8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f';
    const YARD = 'e1f2a3b4-c5d6-4e7f-8091-a2b3c4d5e6f7';
    const signedIn: AccountSummary = { controllers: [], doors: [door(GATE), door(YARD), door('plain')], unreadable: [] };
    const check = checkBlock({ ...base, doors: [{ id: GATE.replace(/a/g, '\u0430'), readOnly: true }], hideDoorIds: [YARD] }, signedIn);
    expect(check.guarded?.get(GATE)).toBe('the id "8d2e4f6\\u0430-1b3c-4d5e-8f70-9\\u04301b2c3d4e5f" in doors could mean it');
    expect(check.excluded.get(YARD)).toBe('hideDoorIds names it, and the plugin does not read it; fix that setting to show it again');
    expect(check.guarded?.has('plain')).toBe(false);
    expect(check.excluded.has('plain')).toBe(false);
    expect(check.warnings.join(' ')).toMatch(/could mean door "8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f" \(written with look-alike letters\)/);
  });

  it('counts a hidden door whatever its id: __proto__, constructor and toString are doors like any other', () => {
    const hidden: unknown = JSON.parse(
      JSON.stringify({
        ...base,
        doors: [
          { id: '__proto__', hide: true },
          { id: 'constructor', hide: true },
        ],
      }),
    );
    const check = checkBlock(hidden, account);
    expect(check.shown).toEqual({ count: 3, total: 5, limit: 149, people: 0 });
    expect([...check.excluded.keys()]).toEqual(['constructor', '__proto__']);
    expect(check.excluded.get('toString')).toBeUndefined();
    expect(check.excluded.get('hasOwnProperty')).toBeUndefined();
    const open = checkBlock(base, account);
    expect(open.excluded.size).toBe(0);
    expect(open.shown?.count).toBe(5);
  });

  it('counts the places the person sensors take, as the runtime does: 149 doors and 3 people show 146 doors', () => {
    const many: AccountSummary = {
      controllers: [],
      doors: Array.from({ length: 149 }, (_, i) => door(`d${String(i).padStart(3, '0')}`)),
      unreadable: [],
    };
    const people = [1, 2, 3].map((n) => ({ name: `Person ${n}`, user: `p${n}@example.com` }));
    const block = { ...base, people };
    const check = checkBlock(block, many);
    expect(check.shown).toEqual({ count: 149, total: 149, limit: 146, people: 3 });
    const parsed = parseConfig(block);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const devices = [{ ...reportedDevice, id: 'dev-a', doors: many.doors.map((d) => reportedDoor({ id: d.id, name: d.name })) }];
    const plugin = shownDoors({ devices }, parsed.config).shown;
    expect(plugin).toHaveLength(check.shown?.limit ?? -1);
    // The doors in Home are the plugin's, past the cap too: the page reads the activity of these only.
    expect([...(check.inHome ?? [])].sort()).toEqual(plugin.map(({ door: { id } }) => id).sort());
    expect(check.inHome?.has('d148')).toBe(false);
  });

  it('counts and marks the doors the plugin shows: a door under two controllers is out only when neither lets it in', () => {
    // gate-shared is listed by both controllers, as the service does for a door two controllers drive.
    const listed = (id: string, ...doorIds: string[]) => ({
      ...reportedDevice,
      id,
      doors: doorIds.map((doorId) => reportedDoor({ id: doorId, name: `Door ${doorId}` })),
    });
    const many = Array.from({ length: 150 }, (_, i) => `m${String(i).padStart(3, '0')}`);
    const cases: [string, Account, Record<string, unknown>][] = [
      [
        'the second controller filtered out',
        { devices: [listed('dev-a', 'a1', 'gate-shared'), listed('dev-b', 'gate-shared', 'b1')], unreadable: [] },
        { excludeDeviceIds: ['dev-b'] },
      ],
      [
        'the first controller filtered out',
        { devices: [listed('dev-a', 'a1', 'gate-shared'), listed('dev-b', 'gate-shared', 'b1')], unreadable: [] },
        { includeDeviceIds: ['dev-b'] },
      ],
      [
        'the shared door hidden',
        { devices: [listed('dev-a', 'a1', 'gate-shared'), listed('dev-b', 'gate-shared', 'b1')], unreadable: [] },
        { doors: [{ id: 'gate-shared', hide: true }] },
      ],
      [
        'over the limit with a door listed twice',
        { devices: [listed('dev-a', ...many), listed('dev-b', 'm000', 'b1')], unreadable: [] },
        {},
      ],
    ];
    for (const [what, account, settings] of cases) {
      const block = { ...base, ...settings };
      const parsed = parseConfig(block);
      if (!parsed.ok) throw new Error(parsed.problems.join('; '));
      const plugin = shownDoors(account, parsed.config);
      const check = checkBlock(block, accountSummary(account));
      expect(check.shown?.count, what).toBe(plugin.overLimit ?? plugin.shown.length);
      expect([...check.excluded.keys()].sort(), what).toEqual([...new Set(plugin.excluded.map(({ door }) => door.id))].sort());
    }
    const shared = { devices: [listed('dev-a', 'a1', 'gate-shared'), listed('dev-b', 'gate-shared', 'b1')], unreadable: [] };
    // Shown under dev-a: the page neither counts it out nor marks its row "Not in Home".
    const check = checkBlock({ ...base, excludeDeviceIds: ['dev-b'] }, accountSummary(shared));
    expect(check.shown).toEqual({ count: 2, total: 3, limit: 149, people: 0 });
    expect(check.excluded.has('gate-shared')).toBe(false);
    expect(check.excluded.get('b1')).toBe('its controller is filtered out in the plugin settings');
  });

  it("checks the block as written: the shapes an old tidy dropped get the runtime's sentence", () => {
    for (const [key, value] of [
      ['readOnly', {}],
      ['readOnly', []],
      ['excludeDeviceIds', {}],
      ['includeDoorIds', {}],
      ['doors', {}],
      ['matter', {}],
    ] as const) {
      const block = { ...base, [key]: value };
      const parsed = parseConfig(block);
      if (!parsed.ok) throw new Error(parsed.problems.join('; '));
      expect(parsed.ignored.length, key).toBeGreaterThan(0);
      expect(checkBlock(block, undefined).ignored).toEqual(parsed.ignored.map(inPageWords));
    }
  });

  it("names the parts kept as written with the plugin's own sentence", () => {
    const check = checkBlock({ ...base, doors: { id: 'd-1', readOnly: true }, excludeDeviceIds: 'dev-a' }, undefined);
    expect([...check.kept.keys()]).toEqual(['doors', 'excludeDeviceIds']);
    expect(check.kept.get('doors')).toMatch(/^The per-door settings must be a list of door settings/);
    expect(check.ignored).toContain(check.kept.get('doors'));
    expect(check.ignored).toContain(check.kept.get('excludeDeviceIds'));
    expect(checkBlock({ ...base, doors: [], excludeDeviceIds: [555] }, undefined).kept.size).toBe(0);
  });

  it('names no key by what an object inherits: "toString" and "constructor" are no labels', () => {
    for (const key of ['toString', 'constructor', '__proto__', 'valueOf']) {
      expect(labelOf(key)).toBeUndefined();
      expect(labelOf(`webhook.${key}`)).toBeUndefined();
      expect(labelOf(`doors.0.${key}`)).toBe(`${key} of door entry 1`);
    }
    expect(inPageWords('toString is not a key the plugin knows')).toBe('ToString is not a key the plugin knows');
  });
});

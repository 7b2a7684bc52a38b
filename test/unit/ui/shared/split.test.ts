// "Add an entry for the rest": the new entry treats every door that moves as the entry it came from did (issue 49.5).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../../src/config/index.js';
import { doorOptions } from '../../../../src/config/door-options.js';
import { checkBlock } from '../../../../src/ui/shared/check-config.js';
import type { Block } from '../../../../src/ui/shared/block.js';
import { splitEntry } from '../../../../src/ui/shared/split.js';
import type { AccountSummary } from '../../../../src/ui/shared/messages.js';
import { pageDoor } from '../../../support/door-fixtures.js';

const controller = (id: string) => ({ id, owner: 'Ada', active: true, softwareVersion: undefined });
/** Three controllers, three doors each: ids far enough apart that no id could mean another door. */
const CONTROLLERS = ['ctl-a', 'ctl-b', 'ctl-c'];
const DOORS = CONTROLLERS.flatMap((ctl, c) => [0, 1, 2].map((d) => pageDoor(`${c}${d}f0e0d0-${ctl}-gate-${d}`, ctl)));
const ACCOUNT: AccountSummary = { controllers: CONTROLLERS.map(controller), doors: DOORS, unreadable: [] };
const BASE: Block = { platform: 'AccessControl', name: 'Yard', baseUrl: 'https://a.example.com', accessToken: 'split-token-1' };

/** What the plugin does with a door under a block: shown or why not, read-only, the switch, Matter, its name. */
function treatment(block: Block, doorId: string) {
  const parsed = parseConfig(block);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const door = DOORS.find((each) => each.id === doorId);
  const options = doorOptions(parsed.config, doorId, door?.controllerId);
  const check = checkBlock(block, ACCOUNT);
  return {
    out: check.excluded.has(doorId),
    readOnly: options.readOnly || check.guarded?.has(doorId) === true,
    automationSwitch: options.automationSwitch,
    name: options.name,
    matter: parsed.config.matter,
  };
}

const moved = (rest: readonly string[]) => DOORS.filter((door) => rest.includes(door.controllerId));

describe('splitEntry', () => {
  it('carries door entries, exclusions, read-only, the automation switch off, Matter and people for the doors that move, and says so', () => {
    const [a0, , , b0, b1, b2] = DOORS.map((door) => door.id);
    const base: Block = {
      ...BASE,
      matter: 'locks',
      automationSwitch: 'open',
      excludeDoorIds: [b1, a0],
      doors: [
        { id: b0, readOnly: true },
        { id: b2, automationSwitch: false, name: 'Back gate' },
        { id: a0, readOnly: true },
      ],
      people: [{ name: 'Ada', user: 'ada@example.com' }],
      webhook: { port: 8443, apiKey: 'f'.repeat(96) },
      _bridge: { username: '0E:11:22:33:44:55', port: 51000 },
      'a note': 'kept',
    };
    const rest = ['ctl-b'];
    const split = splitEntry(base, ACCOUNT, rest, 'Yard 2');
    for (const door of moved(rest)) expect(treatment(split.block, door.id), door.name).toEqual(treatment(base, door.id));
    // The doors that stay are not this entry's: nothing about them is carried, so nothing can name one of its doors.
    expect(split.block.doors).toEqual([
      { id: b0, readOnly: true },
      { id: b2, automationSwitch: false, name: 'Back gate' },
    ]);
    expect(split.block.excludeDoorIds).toEqual([b1]);
    expect(split.block).toMatchObject({ name: 'Yard 2', includeDeviceIds: rest, 'a note': 'kept', people: base.people });
    expect(split.block).not.toHaveProperty('webhook');
    expect(split.block).not.toHaveProperty('_bridge');
    expect(split.carried).toEqual([
      '2 door entries (Read-only for 1, automation switch off for 1)',
      '1 excluded door',
      'Automation switch for all doors',
      'Google Home and Alexa (Matter, Homebridge 2) for all doors',
      '1 person sensor',
    ]);
    expect(split.left).toEqual([
      'the webhook listener: give this entry its own port, or leave it to polling',
      '1 door entry about doors that stay',
      '1 id of excludeDoorIds about doors that stay',
    ]);
  });

  it('carries a list written as one text, a near-miss key and an id that names no door as written: they may protect a door that moves', () => {
    const [, , , b0] = DOORS.map((door) => door.id);
    const base: Block = { ...BASE, ExcludeDoorIds: [b0], readonly: true, includeDoorIds: `${b0}, unknown-door-id` };
    const split = splitEntry(base, ACCOUNT, ['ctl-b'], 'Yard 2');
    expect(split.block).toMatchObject({ ExcludeDoorIds: [b0], readonly: true, includeDoorIds: base.includeDoorIds });
    for (const door of moved(['ctl-b'])) expect(treatment(split.block, door.id), door.name).toEqual(treatment(base, door.id));
  });

  it('an include list about the doors that stay only is kept whole: emptied, it would show every door that moves', () => {
    const [a0] = DOORS.map((door) => door.id);
    const split = splitEntry({ ...BASE, includeDoorIds: [a0] }, ACCOUNT, ['ctl-c'], 'Yard 2');
    expect(split.block.includeDoorIds).toEqual([a0]);
    for (const door of moved(['ctl-c'])) expect(treatment(split.block, door.id).out).toBe(true);
  });

  it('whatever protects a door that moves, the new entry treats it as the old one did', () => {
    const ids = DOORS.map((door) => door.id);
    const entry = fc.record(
      {
        id: fc.constantFrom(...ids),
        readOnly: fc.boolean(),
        hide: fc.boolean(),
        automationSwitch: fc.constantFrom(false, 'open', 'open-close'),
        matter: fc.constantFrom('off', 'locks'),
      },
      { requiredKeys: ['id'] },
    );
    const settings = fc.record(
      {
        readOnly: fc.boolean(),
        automationSwitch: fc.constantFrom(false, 'open'),
        matter: fc.constantFrom('off', 'sensors', 'locks'),
        excludeDoorIds: fc.uniqueArray(fc.constantFrom(...ids)),
        includeDoorIds: fc.uniqueArray(fc.constantFrom(...ids), { minLength: 1 }),
        doors: fc.uniqueArray(entry, { selector: (each) => each.id }),
      },
      { requiredKeys: [] },
    );
    const rest = fc.subarray(CONTROLLERS, { minLength: 1, maxLength: 2 });
    fc.assert(
      fc.property(settings, rest, (written, left) => {
        const base: Block = { ...BASE, ...written };
        const split = splitEntry(base, ACCOUNT, left, 'Yard 2');
        for (const door of moved(left)) expect(treatment(split.block, door.id)).toEqual(treatment(base, door.id));
      }),
      { numRuns: 150 },
    );
  });
});

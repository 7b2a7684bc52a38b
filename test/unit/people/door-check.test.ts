// A people[].doors id that counts for nobody is named once: a door the account lacks, or one HomeKit does not show.
import { describe, expect, it } from 'vitest';

import { PeopleDoorCheck } from '../../../src/people/door-check.js';
import type { AccountDoor } from '../../../src/people/door-check.js';

const gate: AccountDoor = { id: 'gate', name: 'Front Gate', keptOutBecause: undefined };
const side: AccountDoor = { id: 'side', name: 'Side\nDoor', keptOutBecause: 'it is hidden in the plugin settings' };
const capped: AccountDoor = { id: 'far', name: 'Far Gate', keptOutBecause: undefined };

function checked(people: ConstructorParameters<typeof PeopleDoorCheck>[0]) {
  const said: string[] = [];
  const check = new PeopleDoorCheck(people, (sentence) => said.push(sentence));
  return { said, check };
}

describe('PeopleDoorCheck', () => {
  it('names an id no door of the account has, and a door the settings keep out, with why', () => {
    const { said, check } = checked([{ name: 'Grace', doors: ['gate', 'gaet', 'side'] }]);
    check.check([gate, side], new Set(['gate']));
    expect(said).toEqual([
      'The people entry "Grace" lists the door "gaet", which counts for nobody: no door of the account has this id (the closest is "gate").',
      'The people entry "Grace" lists the door "side", which counts for nobody: HomeKit does not show that door (Side Door) from this bridge: it is hidden in the plugin settings.',
    ]);
  });

  it('names a door of the account this bridge does not show for another reason (the cap, another child bridge)', () => {
    const { said, check } = checked([{ name: 'Alan', doors: ['far'] }]);
    check.check([gate, capped], new Set(['gate']));
    expect(said).toEqual([
      'The people entry "Alan" lists the door "far", which counts for nobody: HomeKit does not show that door (Far Gate) from this bridge.',
    ]);
  });

  it('says each once while Homebridge runs, however many syncs find it again', () => {
    const { said, check } = checked([{ name: 'Grace', doors: ['gaet'] }]);
    for (let sync = 0; sync < 5; sync += 1) check.check([gate], new Set(['gate']));
    expect(said).toHaveLength(1);
  });

  it('says nothing of shown doors, nor of entries without doors (every shown door counts)', () => {
    const { said, check } = checked([{ name: 'Grace', doors: ['gate'] }, { name: 'Someone Else' }]);
    check.check([gate, side], new Set(['gate']));
    expect(said).toEqual([]);
  });

  it('keeps the service and the config text on one line', () => {
    const { said, check } = checked([{ name: 'Eve\r\n[Homebridge] forged', doors: ['x\ny'] }]);
    check.check([], new Set());
    expect(said).toHaveLength(1);
    expect(said[0]).not.toMatch(/[\r\n]/);
  });
});

// Protective by default (issue 42) end to end: settings that name doors in forms the reader cannot read exactly (a
// Cyrillic letter, fullwidth letters with a direction mark, an unknown key with a trailing comma) keep those doors
// closed from Home and from their automation switches in a real Homebridge driven by a HomeKit controller; a plain
// door still opens, and the log names each of them with what to write.
import { describe, expect, it } from 'vitest';

import { hasValue } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, HAP_STATUS, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import { makeDevice, makeDoor } from '../../dev/simulator/account.js';
import { togglesReceived } from '../support/simulator.js';
import { platformEntry, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-c32d60dfa2b5';
const WAIT_MS = 25_000;

/** Four doors whose ids share nothing, as the service's UUIDs do, on two controllers. */
const GATE = '8d2e4f6a-1b3c-4d5e-8f70-9a1b2c3d4e5f';
const YARD = 'e1f2a3b4-c5d6-4e7f-8091-a2b3c4d5e6f7';
const BARN = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const PLAIN = 'c3d2e1f0-a9b8-4c7d-9e6f-5a4b3c2d1e0f';

/** The gate's id with its "a"s and "c"s in Cyrillic: it reads the same, and matches nothing. */
const CYRILLIC_GATE = GATE.replace(/a/g, '\u0430').replace(/c/g, '\u0441');
/** The yard's id in fullwidth letters, after a left-to-right mark, as a PDF or a chat may paste it. */
const FULLWIDTH_YARD = `\u200e${Array.from(YARD, (char) => String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0)).join('')}`;

const rig = useHomebridge({
  simulator: {
    accessToken: TOKEN,
    travelTimeMs: 300,
    devices: [
      makeDevice({
        id: 'ctl-one',
        doors: [makeDoor({ id: GATE, name: 'Yard Gate' }), makeDoor({ id: BARN, name: 'Barn Door', entityNumber: 2 })],
      }),
      makeDevice({
        id: 'ctl-two',
        doors: [makeDoor({ id: YARD, name: 'Back Yard' }), makeDoor({ id: PLAIN, name: 'Side Door', entityNumber: 2 })],
      }),
    ],
  },
  platforms: (sim) => [
    platformEntry(sim.baseUrl, TOKEN, {
      automationSwitch: 'open',
      doors: [{ id: CYRILLIC_GATE, readOnly: true }],
      excludeDoorIds: [FULLWIDTH_YARD],
      // Not a setting the plugin knows: the door it names (with a trailing comma) is read-only all the same.
      readOnlyDoorIds: [`${BARN},`],
    }),
  ],
  door: PLAIN,
  waitMs: WAIT_MS,
});

const togglesOf = (doorId: string): unknown[] => togglesReceived(rig.sim, doorId);

describe('settings the reader cannot read exactly, with a real Homebridge and a HomeKit controller', () => {
  it('keeps the door a look-alike read-only entry could mean closed, from Home and from its automation switch', async () => {
    const target = await rig.controller.findCharacteristic(GATE, 'GarageDoorOpener', 'TargetDoorState');
    expect(await rig.controller.writeResult(target, TARGET_DOOR_STATE.OPEN)).toBe(HAP_STATUS.INSUFFICIENT_PRIVILEGES);
    const on = await rig.controller.findCharacteristic(GATE, 'Switch', 'On');
    expect(await rig.controller.writeResult(on, true)).toBe(HAP_STATUS.INSUFFICIENT_PRIVILEGES);
    expect(togglesOf(GATE)).toEqual([]);
    await rig.hb.waitForLog(
      /doors names door "8d2e4f6\\u0430.*could mean door "8d2e4f6a-.*\(written with look-alike letters\), so that door is read-only until it is fixed: write "8d2e4f6a-/,
      WAIT_MS,
    );
  });

  it('keeps a door an exclusion in fullwidth letters names out of Home', async () => {
    await expect(rig.controller.findAccessory(YARD)).rejects.toThrow();
    expect(rig.wholeLog()).not.toMatch(/Added Back Yard to HomeKit/);
  });

  it('keeps a door an unknown key names read-only, and says which key, which door and what to write', async () => {
    const target = await rig.controller.findCharacteristic(BARN, 'GarageDoorOpener', 'TargetDoorState');
    expect(await rig.controller.writeResult(target, TARGET_DOOR_STATE.OPEN)).toBe(HAP_STATUS.INSUFFICIENT_PRIVILEGES);
    expect(await rig.controller.writeResult(await rig.controller.findCharacteristic(BARN, 'Switch', 'On'), true)).toBe(
      HAP_STATUS.INSUFFICIENT_PRIVILEGES,
    );
    expect(togglesOf(BARN)).toEqual([]);
    await rig.hb.waitForLog(
      new RegExp(
        `readOnlyDoorIds is not a setting the plugin reads, and it names door "${BARN}", so that door is read-only until it is fixed`,
      ),
      WAIT_MS,
    );
  });

  it('still opens a plain door, from Home and from its switch: refusing everything is not the answer', async () => {
    const current = await rig.controller.findCharacteristic(PLAIN, 'GarageDoorOpener', 'CurrentDoorState');
    const target = await rig.controller.findCharacteristic(PLAIN, 'GarageDoorOpener', 'TargetDoorState');
    await rig.controller.write(await rig.controller.findCharacteristic(PLAIN, 'Switch', 'On'), true);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, WAIT_MS);
    await rig.controller.write(target, TARGET_DOOR_STATE.CLOSED);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), current, WAIT_MS);
    expect(togglesOf(PLAIN)).toEqual([
      { door_id: PLAIN, door_state: 'OPEN' },
      { door_id: PLAIN, door_state: 'CLOSED' },
    ]);
  });
});

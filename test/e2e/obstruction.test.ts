// Obstruction end to end: a real Homebridge and a HomeKit controller. A toggle the service accepts for a door that never
// moves turns ObstructionDetected on after transitionTimeout (one warning line); a restart brings it back as it was;
// the door reaching the state asked for turns it off, and so does the next command.
import { describe, expect, it } from 'vitest';

import { hasValue } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import { SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import { sleep } from '../support/wait.js';
import { platformEntry, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-3ae4d972c256';
const POLL_INTERVAL_S = 5;
/** The shortest the config takes: the test waits it out in real time. */
const TRANSITION_TIMEOUT_S = 10;
/** Far longer than the test: the service accepts the toggle and the door never gets there. */
const NEVER_MS = 3_600_000;
const WAIT_MS = 30_000;

const rig = useHomebridge({
  simulator: { accessToken: TOKEN, travelTimeMs: NEVER_MS },
  platforms: (sim) => [platform(sim.baseUrl)],
  door: SAMPLE_FRONT_GATE_ID,
  waitMs: WAIT_MS,
});

function platform(baseUrl: string): Record<string, unknown> {
  return platformEntry(baseUrl, TOKEN, { pollInterval: POLL_INTERVAL_S, transitionTimeout: TRANSITION_TIMEOUT_S });
}

const gate = (characteristic: string) => rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', characteristic);

describe('obstruction with a real Homebridge and a HomeKit controller', () => {
  it('turns on, with one warning, when an accepted command does not arrive within transitionTimeout', async () => {
    const obstruction = await gate('ObstructionDetected');
    expect([false, 0]).toContain(await rig.controller.read(obstruction));
    await rig.controller.write(await gate('TargetDoorState'), TARGET_DOOR_STATE.OPEN);
    expect(await rig.controller.read(await gate('CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.OPENING);
    await rig.controller.waitFor(hasValue(true), obstruction, WAIT_MS);
    expect(await rig.controller.read(await gate('CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.CLOSED);
    await rig.hb.waitForLog(
      /Front Gate did not report open within 10 s; showing its last reported state \(closed\) and an obstruction until it reports open or gets a new command\./,
      WAIT_MS,
    );
  });

  it('comes back after a restart while the door is still where it was, and goes off when the door gets there', async () => {
    await rig.restart();
    const obstruction = await gate('ObstructionDetected');
    expect([true, 1]).toContain(await rig.controller.read(obstruction));
    // The first syncs find the door still closed: the command has still not arrived.
    await rig.hb.waitForLog(/Syncing the account every/, WAIT_MS);
    await sleep((POLL_INTERVAL_S + 1) * 1000);
    expect([true, 1]).toContain(await rig.controller.read(obstruction));

    rig.sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    await rig.controller.waitFor(hasValue(false), obstruction, WAIT_MS);
    expect(await rig.controller.read(await gate('CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.OPEN);
  });

  it('goes off at the next command', async () => {
    const obstruction = await gate('ObstructionDetected');
    await rig.controller.write(await gate('TargetDoorState'), TARGET_DOOR_STATE.CLOSED);
    await rig.controller.waitFor(hasValue(true), obstruction, WAIT_MS);
    await rig.controller.write(await gate('TargetDoorState'), TARGET_DOOR_STATE.CLOSED);
    expect([false, 0]).toContain(await rig.controller.read(obstruction));
    expect(await rig.controller.read(await gate('CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.CLOSING);
  });
});

// Obstruction end to end: a real Homebridge and a HomeKit controller. A toggle the service accepts for a door that never
// moves turns ObstructionDetected on after transitionTimeout (one warning line); a restart brings it back as it was;
// the door reaching the state asked for turns it off, and so does the next command.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHomebridge } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { hasValue, pairController } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import { sleep } from '../support/wait.js';
import { tearDown } from './teardown.js';

const TOKEN = 'obstruction-e2e-token-5a1c';
const POLL_INTERVAL_S = 5;
/** The shortest the config takes: the test waits it out in real time. */
const TRANSITION_TIMEOUT_S = 10;
/** Far longer than the test: the service accepts the toggle and the door never gets there. */
const NEVER_MS = 3_600_000;
const WAIT_MS = 30_000;

let sim: AccessControlSimulator;
let hb: HomebridgeProcess;
let controller: HomeKitController;

function platform(): Record<string, unknown> {
  return {
    platform: 'AccessControl',
    name: 'Access Control',
    accessToken: TOKEN,
    baseUrl: sim.baseUrl,
    pollInterval: POLL_INTERVAL_S,
    transitionTimeout: TRANSITION_TIMEOUT_S,
  };
}

const gate = (characteristic: string) => controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', characteristic);

beforeAll(async () => {
  sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: NEVER_MS });
  await sim.start();
  hb = await startHomebridge({ platforms: [platform()] });
  controller = await pairController(hb);
  await controller.waitForAccessory(SAMPLE_FRONT_GATE_ID, WAIT_MS);
});

afterAll(() => tearDown({ controllers: [controller], hb, sim }));

describe('obstruction with a real Homebridge and a HomeKit controller', () => {
  it('turns on, with one warning, when an accepted command does not arrive within transitionTimeout', async () => {
    const obstruction = await gate('ObstructionDetected');
    expect([false, 0]).toContain(await controller.read(obstruction));
    await controller.write(await gate('TargetDoorState'), TARGET_DOOR_STATE.OPEN);
    expect(await controller.read(await gate('CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.OPENING);
    await controller.waitFor(hasValue(true), obstruction, WAIT_MS);
    expect(await controller.read(await gate('CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.CLOSED);
    await hb.waitForLog(
      /Front Gate did not report open within 10 s; showing its last reported state \(closed\) and an obstruction until it reports open or gets a new command\./,
      WAIT_MS,
    );
  });

  it('comes back after a restart while the door is still where it was, and goes off when the door gets there', async () => {
    await hb.stop();
    hb = await startHomebridge({ platforms: [platform()], storageDir: hb.storageDir });
    await controller.reconnect(hb);
    await controller.waitForAccessory(SAMPLE_FRONT_GATE_ID, WAIT_MS);
    const obstruction = await gate('ObstructionDetected');
    expect([true, 1]).toContain(await controller.read(obstruction));
    // The first syncs find the door still closed: the command has still not arrived.
    await hb.waitForLog(/Syncing the account every/, WAIT_MS);
    await sleep((POLL_INTERVAL_S + 1) * 1000);
    expect([true, 1]).toContain(await controller.read(obstruction));

    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    await controller.waitFor(hasValue(false), obstruction, WAIT_MS);
    expect(await controller.read(await gate('CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.OPEN);
  });

  it('goes off at the next command', async () => {
    const obstruction = await gate('ObstructionDetected');
    await controller.write(await gate('TargetDoorState'), TARGET_DOOR_STATE.CLOSED);
    await controller.waitFor(hasValue(true), obstruction, WAIT_MS);
    await controller.write(await gate('TargetDoorState'), TARGET_DOOR_STATE.CLOSED);
    expect([false, 0]).toContain(await controller.read(obstruction));
    expect(await controller.read(await gate('CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.CLOSING);
  });
});

// A service slower than HAP's patience, against a real Homebridge and three HomeKit controllers writing at once: no second pulse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { connectController, hasValue } from '../../dev/harness/homekit-controller.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, HAP_STATUS, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID } from '../../dev/simulator/server.js';
import { TOGGLE_TIMEOUT_MS } from '../../src/settings.js';
import { togglesReceived } from '../support/simulator.js';
import { sleep } from '../support/wait.js';
import { platformEntry, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-63b405a1e401';
const TRAVEL_TIME_MS = 1_500;
const POLL_INTERVAL_S = 5;
const BOOT_WAIT_MS = 25_000;
/** Slower than the plugin's toggle limit: the plugin gives up, and the service acts when it answers. */
const LATE_ANSWER_MS = TOGGLE_TIMEOUT_MS + 1_000;
/** Within the toggle limit, but two in a row outlast HAP's patience. */
const SLOW_ANSWER_MS = 6_000;
/** Writes from the three controllers follow each other this closely, so they reach the plugin in this order. */
const WRITE_SPACING_MS = 300;
/**
 * After HAP has answered every write: long enough for a toggle still queued in the plugin to start and reach the
 * service (before the fix the third one did, 12 s after the first write).
 */
const SETTLE_MS = SLOW_ANSWER_MS;

const rig = useHomebridge({
  simulator: { accessToken: TOKEN, travelTimeMs: TRAVEL_TIME_MS },
  platforms: (sim) => [platformEntry(sim.baseUrl, TOKEN, { pollInterval: POLL_INTERVAL_S, transitionTimeout: 30 })],
  door: SAMPLE_SHARED_GATE_ID,
  waitMs: BOOT_WAIT_MS,
});
/** The rig's paired controller and two more on its pairing: three iPhones of one home. */
let controllers: HomeKitController[] = [];

const togglesOf = (doorId: string): string[] => togglesReceived(rig.sim, doorId).map((body) => body.door_state);

/** Each controller writes the door's target in turn, a moment apart, without waiting for answers; resolves with HAP's statuses. */
async function writeTargets(doorId: string, values: number[]): Promise<number[]> {
  const writes: Promise<number>[] = [];
  for (const [i, value] of values.entries()) {
    const controller = controllers[i];
    if (!controller) throw new Error('not enough controllers');
    const target = await controller.findCharacteristic(doorId, 'GarageDoorOpener', 'TargetDoorState');
    writes.push(controller.writeResult(target, value));
    await sleep(WRITE_SPACING_MS);
  }
  return Promise.all(writes);
}

beforeAll(async () => {
  controllers = [rig.controller, await connectController(rig.hb), await connectController(rig.hb)];
});

// Registered after the rig's hooks: runs before the rig closes its own controller and stops Homebridge.
afterAll(async () => {
  await Promise.all(controllers.slice(1).map((controller) => controller.close()));
});

describe('a service slower than the plugin and HAP', () => {
  it('two controllers write OPEN, the toggle gets no answer and the service acts late: one pulse, and Home sees the door open', async () => {
    rig.sim.setFault('toggle', { kind: 'delay', ms: LATE_ANSWER_MS });
    try {
      const statuses = await writeTargets(SAMPLE_FRONT_GATE_ID, [TARGET_DOOR_STATE.OPEN, TARGET_DOOR_STATE.OPEN]);
      // The first write got no answer in time; the second found the door held as possibly opening.
      expect(statuses[0]).toBe(HAP_STATUS.SERVICE_COMMUNICATION_FAILURE);
      const current = await controllers[0]?.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'CurrentDoorState');
      if (!current || !controllers[0]) throw new Error('no controller');
      await controllers[0].waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, BOOT_WAIT_MS);
      await sleep(SETTLE_MS);
      expect(togglesOf(SAMPLE_FRONT_GATE_ID)).toEqual(['OPEN']);
      expect(rig.sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state).toBe('OPEN');
      expect(rig.hb.log()).toContain('Front Gate may still open: the service did not answer in time');
    } finally {
      rig.sim.clearFaults();
    }
  });

  it('OPEN, CLOSE, OPEN from three controllers behind a 6 s toggle: one pulse, none after HAP gave up', async () => {
    rig.sim.setFault('toggle', { kind: 'delay', ms: SLOW_ANSWER_MS });
    try {
      const statuses = await writeTargets(SAMPLE_GARAGE_DOOR_ID, [
        TARGET_DOOR_STATE.OPEN,
        TARGET_DOOR_STATE.CLOSED,
        TARGET_DOOR_STATE.OPEN,
      ]);
      await sleep(SETTLE_MS);
      // Before the fix the service got OPEN, CLOSED, OPEN at 0, 6 and 12 s: the gate reversed after Home had given up.
      expect(togglesOf(SAMPLE_GARAGE_DOOR_ID)).toEqual(['OPEN']);
      expect(statuses.every((status) => status === HAP_STATUS.SUCCESS)).toBe(true);
      expect(rig.sim.getDoor(SAMPLE_GARAGE_DOOR_ID)?.state).toBe('OPEN');
    } finally {
      rig.sim.clearFaults();
    }
  });

  it('a second wish that waited too long behind a slow toggle is reported failed and never sent', async () => {
    rig.sim.setFault('toggle', { kind: 'delay', ms: SLOW_ANSWER_MS });
    try {
      const statuses = await writeTargets(SAMPLE_SHARED_GATE_ID, [TARGET_DOOR_STATE.OPEN, TARGET_DOOR_STATE.CLOSED]);
      await sleep(SETTLE_MS);
      expect(statuses).toEqual([HAP_STATUS.SUCCESS, HAP_STATUS.OPERATION_TIMED_OUT]);
      expect(togglesOf(SAMPLE_SHARED_GATE_ID)).toEqual(['OPEN']);
      expect(rig.hb.log()).toMatch(/Shared Gate: the command to close it was not sent: it waited \d+ s behind the previous one/);
    } finally {
      rig.sim.clearFaults();
    }
  });
});

// The plugin end to end: a real Homebridge with the plugin, the simulator as the cloud, a real HomeKit controller as the iPhone.
import { writeFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHomebridge, STOP_BUDGET_MS } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import {
  AccessControlSimulator,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_SHARED_DEVICE_ID,
  SAMPLE_SHARED_GATE_ID,
} from '../../dev/simulator/server.js';
import { hasValue, pairController } from '../../dev/harness/homekit-controller.js';
import { CHARGING_STATE, CURRENT_DOOR_STATE, HAP_STATUS, STATUS_LOW_BATTERY, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import type { CharRef, HomeKitController } from '../../dev/harness/homekit-controller.js';
import { togglesReceived } from '../support/simulator.js';
import type { ToggleSent } from '../support/simulator.js';
import { tearDown } from './teardown.js';
import type { Started } from './teardown.js';

const TOKEN = 'e2e-token-7c1d44b0a9';
/** Short enough that a door arrives within a fast-poll or two. */
const TRAVEL_TIME_MS = 1_500;
/** The smallest poll interval the config allows, so outside changes show up quickly. */
const POLL_INTERVAL_S = 5;
/** Generous waits: the machine is shared, and the plugin's own timing (polls, back-off) sets the pace. */
const ARRIVAL_WAIT_MS = 20_000;
const POLL_WAIT_MS = 25_000;
const OUTAGE_WAIT_MS = 45_000;

let sim: AccessControlSimulator;
let hb: HomebridgeProcess;
let controller: HomeKitController;
/** What Homebridge instances before a restart logged. */
let earlierLogs = '';

function wholeLog(): string {
  return earlierLogs + hb.log();
}

function platformConfig(baseUrl: string): Record<string, unknown> {
  return {
    platform: 'AccessControl',
    name: 'Access Control',
    accessToken: TOKEN,
    baseUrl,
    pollInterval: POLL_INTERVAL_S,
    transitionTimeout: 20,
  };
}

async function door(serial: string, characteristic: string, service = 'GarageDoorOpener'): Promise<CharRef> {
  return controller.findCharacteristic(serial, service, characteristic);
}

const toggles = (doorId: string): ToggleSent[] => togglesReceived(sim, doorId);

/** Log lines at info level or above: the plugin's debug lines about a repeated failure start with "Still failing". */
function userLinesMatching(re: RegExp): string[] {
  return wholeLog()
    .split('\n')
    .filter((line) => re.test(line) && !line.includes('Still failing'));
}

beforeAll(async () => {
  sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: TRAVEL_TIME_MS });
  await sim.start();
  hb = await startHomebridge({ platforms: [platformConfig(sim.baseUrl)] });
  controller = await pairController(hb);
  await controller.waitForAccessory(SAMPLE_SHARED_GATE_ID, POLL_WAIT_MS);
});

afterAll(async () => {
  const started: Started = { controllers: [controller], hb, sim };
  if (process.env.E2E_LOG_FILE && started.hb) {
    writeFileSync(process.env.E2E_LOG_FILE, wholeLog());
  }
  await tearDown(started);
});

describe('a real Homebridge with the plugin, driven by a HomeKit controller', () => {
  it('shows every door of the account as a garage door with its details', async () => {
    const names: string[] = [];
    for (const id of [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID]) {
      names.push(String(await controller.read(await door(id, 'Name'))));
      expect(await controller.read(await door(id, 'CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.CLOSED);
      expect(await controller.read(await door(id, 'TargetDoorState'))).toBe(TARGET_DOOR_STATE.CLOSED);
      // HAP sends booleans as true/false or 1/0.
      expect([false, 0]).toContain(await controller.read(await door(id, 'ObstructionDetected')));
      expect(await controller.read(await door(id, 'SerialNumber', 'AccessoryInformation'))).toBe(id);
    }
    expect(names).toEqual(['Front Gate', 'Garage Door', 'Shared Gate']);
    expect(await controller.read(await door(SAMPLE_FRONT_GATE_ID, 'FirmwareRevision', 'AccessoryInformation'))).toBe('2.4.1');
    expect(await controller.read(await door(SAMPLE_FRONT_GATE_ID, 'Manufacturer', 'AccessoryInformation'))).toBe('Access Control');
    // One bridge plus three doors, nothing doubled.
    expect(await controller.accessories()).toHaveLength(4);
  });

  it('gives a Battery service only to the door with a bluetooth sensor', async () => {
    expect(await controller.read(await door(SAMPLE_FRONT_GATE_ID, 'BatteryLevel', 'Battery'))).toBe(85);
    expect(await controller.read(await door(SAMPLE_FRONT_GATE_ID, 'StatusLowBattery', 'Battery'))).toBe(STATUS_LOW_BATTERY.NORMAL);
    expect(await controller.read(await door(SAMPLE_FRONT_GATE_ID, 'ChargingState', 'Battery'))).toBe(CHARGING_STATE.NOT_CHARGEABLE);
    await expect(controller.findService(SAMPLE_GARAGE_DOOR_ID, 'Battery')).rejects.toThrow();
  });

  it('opens a door: Home sees Opening at once, then Open once the door reports it', async () => {
    const current = await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState');
    const target = await door(SAMPLE_FRONT_GATE_ID, 'TargetDoorState');
    const seen: unknown[] = [];
    await controller.subscribe([current], (event) => {
      if (event.iid === current.iid && event.aid === current.aid) {
        seen.push(event.value);
      }
    });
    await controller.write(target, TARGET_DOOR_STATE.OPEN);
    expect(toggles(SAMPLE_FRONT_GATE_ID)).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);
    expect(await controller.read(current)).toBe(CURRENT_DOOR_STATE.OPENING);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, ARRIVAL_WAIT_MS);
    // Events are coalesced and may trail the read that saw the door arrive.
    await expect.poll(() => seen).toEqual([CURRENT_DOOR_STATE.OPENING, CURRENT_DOOR_STATE.OPEN]);
    expect(await controller.read(target)).toBe(TARGET_DOOR_STATE.OPEN);
  });

  it('sends nothing when Home asks for the state the door is already in', async () => {
    await controller.write(await door(SAMPLE_FRONT_GATE_ID, 'TargetDoorState'), TARGET_DOOR_STATE.OPEN);
    expect(toggles(SAMPLE_FRONT_GATE_ID)).toHaveLength(1);
  });

  it('closes a door: Closing, then Closed', async () => {
    const current = await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState');
    await controller.write(await door(SAMPLE_FRONT_GATE_ID, 'TargetDoorState'), TARGET_DOOR_STATE.CLOSED);
    expect(await controller.read(current)).toBe(CURRENT_DOOR_STATE.CLOSING);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), current, ARRIVAL_WAIT_MS);
    expect(toggles(SAMPLE_FRONT_GATE_ID).map((t) => t.door_state)).toEqual(['OPEN', 'CLOSED']);
  });

  it('fails the write on a 428, keeps the door where it is and tells the user to pair a sensor', async () => {
    sim.setToggleOutcome(SAMPLE_GARAGE_DOOR_ID, 428);
    const target = await door(SAMPLE_GARAGE_DOOR_ID, 'TargetDoorState');
    const current = await door(SAMPLE_GARAGE_DOOR_ID, 'CurrentDoorState');
    expect(await controller.writeResult(target, TARGET_DOOR_STATE.OPEN)).toBe(HAP_STATUS.SERVICE_COMMUNICATION_FAILURE);
    sim.setToggleOutcome(SAMPLE_GARAGE_DOOR_ID, null);
    await controller.waitFor(hasValue(TARGET_DOOR_STATE.CLOSED), target, POLL_WAIT_MS);
    expect(await controller.read(current)).toBe(CURRENT_DOOR_STATE.CLOSED);
    await hb.waitForLog(/Garage Door could not be opened: .*requires pairing a door sensor.*\(428\)/, POLL_WAIT_MS);
  });

  it('follows a door moved outside HomeKit (keypad, remote) on the next poll', async () => {
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { channel: 'Keypad' });
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), await door(SAMPLE_SHARED_GATE_ID, 'CurrentDoorState'), POLL_WAIT_MS);
    expect(await controller.read(await door(SAMPLE_SHARED_GATE_ID, 'TargetDoorState'))).toBe(TARGET_DOOR_STATE.OPEN);
    expect(toggles(SAMPLE_SHARED_GATE_ID)).toEqual([]);
  });

  it('warns of a low battery', async () => {
    sim.setBatteryLevel(SAMPLE_FRONT_GATE_ID, 15);
    await controller.waitFor(
      hasValue(STATUS_LOW_BATTERY.LOW),
      await door(SAMPLE_FRONT_GATE_ID, 'StatusLowBattery', 'Battery'),
      POLL_WAIT_MS,
    );
    expect(await controller.read(await door(SAMPLE_FRONT_GATE_ID, 'BatteryLevel', 'Battery'))).toBe(15);
  });

  it('shows No Response for the doors of an inactive controller, and recovers', async () => {
    const current = await door(SAMPLE_SHARED_GATE_ID, 'CurrentDoorState');
    sim.setDeviceActive(SAMPLE_SHARED_DEVICE_ID, false);
    await controller.waitFor((_v, status) => status === HAP_STATUS.SERVICE_COMMUNICATION_FAILURE, current, POLL_WAIT_MS);
    expect(await controller.read(await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.CLOSED);
    await hb.waitForLog(/Shared Gate shows No Response: the service reports its controller as inactive/, POLL_WAIT_MS);
    sim.setDeviceActive(SAMPLE_SHARED_DEVICE_ID, true);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, POLL_WAIT_MS);
  });

  it('rides out a cloud outage: No Response after failed syncs, one log line, nothing removed, recovery by itself', async () => {
    const current = await door(SAMPLE_GARAGE_DOOR_ID, 'CurrentDoorState');
    const mark = hb.lineCount();
    sim.setOutage(true);
    await controller.waitFor((_v, status) => status === HAP_STATUS.SERVICE_COMMUNICATION_FAILURE, current, OUTAGE_WAIT_MS);
    await hb.waitForLog(/The account could not be synced/, OUTAGE_WAIT_MS, { fromLine: mark });
    sim.setOutage(false);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), current, OUTAGE_WAIT_MS);
    await hb.waitForLog(/The account can be read again/, POLL_WAIT_MS, { fromLine: mark });
    // At least two polls failed (that is what No Response waits for), but the user reads one error for the whole incident.
    expect(userLinesMatching(/could not be synced/)).toHaveLength(1);
    expect(await controller.accessories()).toHaveLength(4);
  });

  it('says once that the token was refused, and recovers by itself when it works again', async () => {
    const mark = hb.lineCount();
    sim.setAccessToken('a-token-the-plugin-does-not-have');
    await hb.waitForLog(/refused the access token/, OUTAGE_WAIT_MS, { fromLine: mark });
    const attemptsBefore = sim.countRequests('/endpoints/sync');
    await expect
      .poll(() => sim.countRequests('/endpoints/sync'), { timeout: OUTAGE_WAIT_MS, interval: 500 })
      .toBeGreaterThan(attemptsBefore);
    sim.setAccessToken(TOKEN);
    await hb.waitForLog(/The account can be read again/, OUTAGE_WAIT_MS, { fromLine: mark });
    expect(userLinesMatching(/refused the access token/)).toHaveLength(1);
  });

  it('removes a door the account no longer has', async () => {
    sim.removeDoor(SAMPLE_GARAGE_DOOR_ID);
    await hb.waitForLog(/Removed Garage Door from HomeKit/, OUTAGE_WAIT_MS);
    await expect.poll(async () => (await controller.accessories()).length, { timeout: POLL_WAIT_MS }).toBe(3);
  });

  it('restarts quickly, with the same accessories and identities, and without moving any door', async () => {
    const before = await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState');
    const togglesBefore = sim.countRequests('/endpoint/toggle');
    const stopped = await hb.stop();
    earlierLogs += hb.log();
    expect(stopped.ms).toBeLessThan(STOP_BUDGET_MS);
    expect(stopped.killed).toBe(false);
    hb = await startHomebridge({ platforms: [platformConfig(sim.baseUrl)], storageDir: hb.storageDir });
    await controller.reconnect(hb);
    // Cached accessories answer from their last known state before the first sync.
    expect(await controller.accessories()).toHaveLength(3);
    expect(await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState')).toEqual(before);
    expect(await controller.read(await door(SAMPLE_SHARED_GATE_ID, 'CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.OPEN);
    await hb.waitForLog(/Syncing the account every 5 s/, POLL_WAIT_MS);
    expect(await controller.accessories()).toHaveLength(3);
    expect(sim.countRequests('/endpoint/toggle')).toBe(togglesBefore);
  });

  it('never writes the access token to the log, debug included', () => {
    expect(wholeLog()).toMatch(/Still failing/); // debug lines were printed, and checked too
    expect(wholeLog()).not.toContain(TOKEN);
    expect(wholeLog()).not.toContain(TOKEN.slice(0, 12));
  });
});

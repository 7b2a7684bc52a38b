// The plugin end to end: a real Homebridge with the plugin, the simulator as the cloud, a real HomeKit controller as the iPhone.
import { writeFileSync } from 'node:fs';

import { afterAll, describe, expect, it } from 'vitest';

import { STOP_BUDGET_MS } from '../../dev/harness/homebridge-process.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_DEVICE_ID, SAMPLE_SHARED_GATE_ID } from '../../dev/simulator/server.js';
import { hasValue } from '../../dev/harness/homekit-controller.js';
import { CHARGING_STATE, CURRENT_DOOR_STATE, HAP_STATUS, STATUS_LOW_BATTERY, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import type { CharRef } from '../../dev/harness/homekit-controller.js';
import { togglesReceived } from '../support/simulator.js';
import type { ToggleSent } from '../support/simulator.js';
import { platformEntry, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'e2e-token-7c1d44b0a9';
/** Short enough that a door arrives within a fast-poll or two. */
const TRAVEL_TIME_MS = 1_500;
/** The smallest poll interval the config allows, so outside changes show up quickly. */
const POLL_INTERVAL_S = 5;
/** Generous waits: the machine is shared, and the plugin's own timing (polls, back-off) sets the pace. */
const ARRIVAL_WAIT_MS = 20_000;
const POLL_WAIT_MS = 25_000;
const OUTAGE_WAIT_MS = 45_000;

const rig = useHomebridge({
  simulator: { accessToken: TOKEN, travelTimeMs: TRAVEL_TIME_MS },
  platforms: (sim) => [platformConfig(sim.baseUrl)],
  door: SAMPLE_SHARED_GATE_ID,
  waitMs: POLL_WAIT_MS,
});
const wholeLog = (): string => rig.wholeLog();

afterAll(() => {
  // Registered after the rig's: runs before it stops Homebridge.
  if (process.env.E2E_LOG_FILE) writeFileSync(process.env.E2E_LOG_FILE, wholeLog());
});

function platformConfig(baseUrl: string): Record<string, unknown> {
  return platformEntry(baseUrl, TOKEN, { pollInterval: POLL_INTERVAL_S, transitionTimeout: 20 });
}

async function door(serial: string, characteristic: string, service = 'GarageDoorOpener'): Promise<CharRef> {
  return rig.controller.findCharacteristic(serial, service, characteristic);
}

const toggles = (doorId: string): ToggleSent[] => togglesReceived(rig.sim, doorId);

/** Log lines at info level or above: the plugin's debug lines about a repeated failure start with "Still failing". */
function userLinesMatching(re: RegExp): string[] {
  return wholeLog()
    .split('\n')
    .filter((line) => re.test(line) && !line.includes('Still failing'));
}

describe('a real Homebridge with the plugin, driven by a HomeKit controller', () => {
  it('shows every door of the account as a garage door with its details', async () => {
    const names: string[] = [];
    for (const id of [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID]) {
      names.push(String(await rig.controller.read(await door(id, 'Name'))));
      expect(await rig.controller.read(await door(id, 'CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.CLOSED);
      expect(await rig.controller.read(await door(id, 'TargetDoorState'))).toBe(TARGET_DOOR_STATE.CLOSED);
      // HAP sends booleans as true/false or 1/0.
      expect([false, 0]).toContain(await rig.controller.read(await door(id, 'ObstructionDetected')));
      expect(await rig.controller.read(await door(id, 'SerialNumber', 'AccessoryInformation'))).toBe(id);
    }
    expect(names).toEqual(['Front Gate', 'Garage Door', 'Shared Gate']);
    expect(await rig.controller.read(await door(SAMPLE_FRONT_GATE_ID, 'FirmwareRevision', 'AccessoryInformation'))).toBe('2.4.1');
    expect(await rig.controller.read(await door(SAMPLE_FRONT_GATE_ID, 'Manufacturer', 'AccessoryInformation'))).toBe('Access Control');
    // One bridge plus three doors, nothing doubled.
    expect(await rig.controller.accessories()).toHaveLength(4);
  });

  it('gives a Battery service only to the door with a bluetooth sensor', async () => {
    expect(await rig.controller.read(await door(SAMPLE_FRONT_GATE_ID, 'BatteryLevel', 'Battery'))).toBe(85);
    expect(await rig.controller.read(await door(SAMPLE_FRONT_GATE_ID, 'StatusLowBattery', 'Battery'))).toBe(STATUS_LOW_BATTERY.NORMAL);
    expect(await rig.controller.read(await door(SAMPLE_FRONT_GATE_ID, 'ChargingState', 'Battery'))).toBe(CHARGING_STATE.NOT_CHARGEABLE);
    await expect(rig.controller.findService(SAMPLE_GARAGE_DOOR_ID, 'Battery')).rejects.toThrow();
  });

  it('opens a door: Home sees Opening at once, then Open once the door reports it', async () => {
    const current = await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState');
    const target = await door(SAMPLE_FRONT_GATE_ID, 'TargetDoorState');
    const seen: unknown[] = [];
    await rig.controller.subscribe([current], (event) => {
      if (event.iid === current.iid && event.aid === current.aid) {
        seen.push(event.value);
      }
    });
    await rig.controller.write(target, TARGET_DOOR_STATE.OPEN);
    expect(toggles(SAMPLE_FRONT_GATE_ID)).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);
    expect(await rig.controller.read(current)).toBe(CURRENT_DOOR_STATE.OPENING);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, ARRIVAL_WAIT_MS);
    // Events are coalesced and may trail the read that saw the door arrive.
    await expect.poll(() => seen).toEqual([CURRENT_DOOR_STATE.OPENING, CURRENT_DOOR_STATE.OPEN]);
    expect(await rig.controller.read(target)).toBe(TARGET_DOOR_STATE.OPEN);
  });

  it('sends nothing when Home asks for the state the door is already in', async () => {
    await rig.controller.write(await door(SAMPLE_FRONT_GATE_ID, 'TargetDoorState'), TARGET_DOOR_STATE.OPEN);
    expect(toggles(SAMPLE_FRONT_GATE_ID)).toHaveLength(1);
  });

  it('closes a door: Closing, then Closed', async () => {
    const current = await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState');
    await rig.controller.write(await door(SAMPLE_FRONT_GATE_ID, 'TargetDoorState'), TARGET_DOOR_STATE.CLOSED);
    expect(await rig.controller.read(current)).toBe(CURRENT_DOOR_STATE.CLOSING);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), current, ARRIVAL_WAIT_MS);
    expect(toggles(SAMPLE_FRONT_GATE_ID).map((t) => t.door_state)).toEqual(['OPEN', 'CLOSED']);
  });

  it('fails the write on a 428, keeps the door where it is and tells the user to pair a sensor', async () => {
    rig.sim.setToggleOutcome(SAMPLE_GARAGE_DOOR_ID, 428);
    const target = await door(SAMPLE_GARAGE_DOOR_ID, 'TargetDoorState');
    const current = await door(SAMPLE_GARAGE_DOOR_ID, 'CurrentDoorState');
    expect(await rig.controller.writeResult(target, TARGET_DOOR_STATE.OPEN)).toBe(HAP_STATUS.SERVICE_COMMUNICATION_FAILURE);
    rig.sim.setToggleOutcome(SAMPLE_GARAGE_DOOR_ID, null);
    await rig.controller.waitFor(hasValue(TARGET_DOOR_STATE.CLOSED), target, POLL_WAIT_MS);
    expect(await rig.controller.read(current)).toBe(CURRENT_DOOR_STATE.CLOSED);
    await rig.hb.waitForLog(/Garage Door could not be opened: .*requires pairing a door sensor.*\(428\)/, POLL_WAIT_MS);
  });

  it('follows a door moved outside HomeKit (keypad, remote) on the next poll', async () => {
    rig.sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { channel: 'Keypad' });
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), await door(SAMPLE_SHARED_GATE_ID, 'CurrentDoorState'), POLL_WAIT_MS);
    expect(await rig.controller.read(await door(SAMPLE_SHARED_GATE_ID, 'TargetDoorState'))).toBe(TARGET_DOOR_STATE.OPEN);
    expect(toggles(SAMPLE_SHARED_GATE_ID)).toEqual([]);
  });

  it('warns of a low battery', async () => {
    rig.sim.setBatteryLevel(SAMPLE_FRONT_GATE_ID, 15);
    await rig.controller.waitFor(
      hasValue(STATUS_LOW_BATTERY.LOW),
      await door(SAMPLE_FRONT_GATE_ID, 'StatusLowBattery', 'Battery'),
      POLL_WAIT_MS,
    );
    expect(await rig.controller.read(await door(SAMPLE_FRONT_GATE_ID, 'BatteryLevel', 'Battery'))).toBe(15);
  });

  it('shows No Response for the doors of an inactive controller, and recovers', async () => {
    const current = await door(SAMPLE_SHARED_GATE_ID, 'CurrentDoorState');
    rig.sim.setDeviceActive(SAMPLE_SHARED_DEVICE_ID, false);
    await rig.controller.waitFor((_v, status) => status === HAP_STATUS.SERVICE_COMMUNICATION_FAILURE, current, POLL_WAIT_MS);
    expect(await rig.controller.read(await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.CLOSED);
    await rig.hb.waitForLog(/Shared Gate shows No Response: the service reports its controller as inactive/, POLL_WAIT_MS);
    rig.sim.setDeviceActive(SAMPLE_SHARED_DEVICE_ID, true);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, POLL_WAIT_MS);
  });

  it('rides out a cloud outage: No Response after failed syncs, one log line, nothing removed, recovery by itself', async () => {
    const current = await door(SAMPLE_GARAGE_DOOR_ID, 'CurrentDoorState');
    const mark = rig.hb.lineCount();
    rig.sim.setOutage(true);
    await rig.controller.waitFor((_v, status) => status === HAP_STATUS.SERVICE_COMMUNICATION_FAILURE, current, OUTAGE_WAIT_MS);
    await rig.hb.waitForLog(/The account could not be synced/, OUTAGE_WAIT_MS, { fromLine: mark });
    rig.sim.setOutage(false);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), current, OUTAGE_WAIT_MS);
    await rig.hb.waitForLog(/The account can be read again/, POLL_WAIT_MS, { fromLine: mark });
    // At least two polls failed (that is what No Response waits for), but the user reads one error for the whole incident.
    expect(userLinesMatching(/could not be synced/)).toHaveLength(1);
    expect(await rig.controller.accessories()).toHaveLength(4);
  });

  it('says once that the token was refused, and recovers by itself when it works again', async () => {
    const mark = rig.hb.lineCount();
    rig.sim.setAccessToken('a-token-the-plugin-does-not-have');
    await rig.hb.waitForLog(/refused the access token/, OUTAGE_WAIT_MS, { fromLine: mark });
    const attemptsBefore = rig.sim.countRequests('/endpoints/sync');
    await expect
      .poll(() => rig.sim.countRequests('/endpoints/sync'), { timeout: OUTAGE_WAIT_MS, interval: 500 })
      .toBeGreaterThan(attemptsBefore);
    rig.sim.setAccessToken(TOKEN);
    await rig.hb.waitForLog(/The account can be read again/, OUTAGE_WAIT_MS, { fromLine: mark });
    expect(userLinesMatching(/refused the access token/)).toHaveLength(1);
    // Recovered in Home too: the doors answer again, and a move in the account shows at the next sync.
    expect(await rig.controller.readResult(await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState'))).toEqual({
      value: CURRENT_DOOR_STATE.CLOSED,
      status: HAP_STATUS.SUCCESS,
    });
    rig.sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { channel: 'Keypad' });
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), await door(SAMPLE_GARAGE_DOOR_ID, 'CurrentDoorState'), POLL_WAIT_MS);
  });

  it('removes a door the account no longer has', async () => {
    rig.sim.removeDoor(SAMPLE_GARAGE_DOOR_ID);
    await rig.hb.waitForLog(/Removed Garage Door from HomeKit/, OUTAGE_WAIT_MS);
    await expect.poll(async () => (await rig.controller.accessories()).length, { timeout: POLL_WAIT_MS }).toBe(3);
  });

  it('restarts, stopping by itself with nothing left open, with the same accessories and identities, and without moving any door', async () => {
    const before = await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState');
    const togglesBefore = rig.sim.countRequests('/endpoint/toggle');
    // Stopped by itself, with nothing left open (expectCleanStop), then started on the same storage and reconnected.
    const stopped = await rig.restart();
    expect(stopped.ms).toBeLessThan(STOP_BUDGET_MS);
    // Cached accessories answer from their last known state before the first sync.
    expect(await rig.controller.accessories()).toHaveLength(3);
    expect(await door(SAMPLE_FRONT_GATE_ID, 'CurrentDoorState')).toEqual(before);
    expect(await rig.controller.read(await door(SAMPLE_SHARED_GATE_ID, 'CurrentDoorState'))).toBe(CURRENT_DOOR_STATE.OPEN);
    await rig.hb.waitForLog(/Syncing the account every 5 s/, POLL_WAIT_MS);
    expect(await rig.controller.accessories()).toHaveLength(3);
    expect(rig.sim.countRequests('/endpoint/toggle')).toBe(togglesBefore);
  });

  it('never writes the access token to the log, debug included', () => {
    expect(wholeLog()).toMatch(/Still failing/); // debug lines were printed, and checked too
    expect(wholeLog()).not.toContain(TOKEN);
    expect(wholeLog()).not.toContain(TOKEN.slice(0, 12));
  });
});

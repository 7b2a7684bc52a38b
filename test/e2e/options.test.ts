// Door options end to end: extra services present or absent, the switch and the sensors at work, read-only, who moved it, option changes.
import { describe, expect, it } from 'vitest';

import { hasValue } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, HAP_STATUS, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import { AUTOMATION_SWITCH_RESET_MS } from '../../src/settings.js';
import { SAMPLE_OWNED_DEVICE_ID } from '../../dev/simulator/account.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID } from '../../dev/simulator/server.js';
import { togglesReceived } from '../support/simulator.js';
import { sleep } from '../support/wait.js';
import { platformEntry, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-26ef6cc181d3';
const POLL_INTERVAL_S = 5;
/** The left-open sensor's time in this test: short, since a real Homebridge runs on real time. */
const LEFT_OPEN_AFTER_S = 2;
const TRAVEL_MS = 500;
/** A door's travel in the left-open test: longer than its left-open time, so a sensor counting from the command would fire before the door is open. */
const SLOW_TRAVEL_MS = LEFT_OPEN_AFTER_S * 1000 + 3_000;
const WAIT_MS = 25_000;
const OCCUPIED = 1;
const CONTACT_NOT_DETECTED = 1;
const CONTACT_DETECTED = 0;

const FIRST_OPTIONS = {
  includeDoors: 'owned',
  contactSensor: true,
  automationSwitch: 'open-close',
  doors: [
    // true, as an older config says it: open only.
    { id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate', automationSwitch: true, leftOpenSensor: true, leftOpenAfter: LEFT_OPEN_AFTER_S },
    { id: SAMPLE_GARAGE_DOOR_ID, readOnly: true },
  ],
};

const rig = useHomebridge({
  simulator: { accessToken: TOKEN, travelTimeMs: TRAVEL_MS },
  platforms: () => [platform(FIRST_OPTIONS)],
  door: SAMPLE_GARAGE_DOOR_ID,
  waitMs: WAIT_MS,
});

function platform(options: Record<string, unknown>): Record<string, unknown> {
  return platformEntry(rig.sim.baseUrl, TOKEN, { pollInterval: POLL_INTERVAL_S, ...options });
}

/** Every toggle the plugin sent the service, in order. */
const toggles = (): unknown[] => togglesReceived(rig.sim);

function serviceTypes(accessory: { services: { type: string }[] }): string[] {
  const names: Record<string, string> = {
    '49': 'Switch',
    '86': 'OccupancySensor',
    '80': 'ContactSensor',
    '41': 'GarageDoorOpener',
    '96': 'Battery',
  };
  return accessory.services
    .map((s) => names[s.type.split('-')[0]?.replace(/^0+/, '') ?? ''] ?? '')
    .filter(Boolean)
    .sort();
}

describe('door options with a real Homebridge and a HomeKit controller', () => {
  it('adds exactly the services each door asks for, renames, and leaves shared doors out when asked', async () => {
    const front = await rig.controller.findAccessory(SAMPLE_FRONT_GATE_ID);
    const garage = await rig.controller.findAccessory(SAMPLE_GARAGE_DOOR_ID);
    expect(serviceTypes(front)).toEqual(['Battery', 'ContactSensor', 'GarageDoorOpener', 'OccupancySensor', 'Switch']);
    expect(serviceTypes(garage)).toEqual(['ContactSensor', 'GarageDoorOpener', 'Switch']);
    await expect(rig.controller.findAccessory(SAMPLE_SHARED_GATE_ID)).rejects.toThrow();
    expect(await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'Name'))).toBe(
      'Street Gate',
    );
  });

  it('opens the door through an open-only switch (true in an old config) and the toggle endpoint; the sensors follow', async () => {
    const on = await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'Switch', 'On');
    await rig.controller.write(on, true);
    expect(toggles()).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);
    await rig.controller.waitFor(
      hasValue(CURRENT_DOOR_STATE.OPEN),
      await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'CurrentDoorState'),
      WAIT_MS,
    );
    await rig.controller.waitFor(
      hasValue(CONTACT_NOT_DETECTED),
      await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'ContactSensor', 'ContactSensorState'),
      WAIT_MS,
    );
    // The switch turns itself off again; turning it off (a "turn everything off" scene) sends nothing.
    await rig.controller.waitFor(hasValue(false), on, WAIT_MS);
    await rig.controller.write(on, false);
    await sleep(AUTOMATION_SWITCH_RESET_MS + POLL_INTERVAL_S * 1000);
    expect(toggles()).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);
    expect(
      await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'CurrentDoorState')),
    ).toBe(CURRENT_DOOR_STATE.OPEN);
  });

  it('reports the door left open once it has stood open past its time, and not before it opened', async () => {
    const current = await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'CurrentDoorState');
    const target = await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'TargetDoorState');
    const occupied = await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'OccupancySensor', 'OccupancyDetected');
    const contact = await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'ContactSensor', 'ContactSensorState');
    // From a closed door, whatever the tests before left.
    if ((await rig.controller.read(current)) !== CURRENT_DOOR_STATE.CLOSED) {
      await rig.controller.write(target, TARGET_DOOR_STATE.CLOSED);
      await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), current, WAIT_MS);
    }
    await rig.controller.waitFor(hasValue(0), occupied, WAIT_MS);
    // What Home hears, in order, over one connection: the door's states and the sensor's.
    const heard: string[] = [];
    const subscription = await rig.controller.subscribe([current, occupied], (event) => {
      if (event.iid === current.iid && event.value === CURRENT_DOOR_STATE.OPEN) heard.push('door open');
      if (event.iid === occupied.iid) heard.push(`left open ${String(Number(event.value))}`);
    });
    // The door takes longer to open than its left-open time: a sensor counting from the command would fire first.
    rig.sim.setTravelTime(SLOW_TRAVEL_MS);
    try {
      await rig.controller.write(target, TARGET_DOOR_STATE.OPEN);
      await rig.controller.waitFor(hasValue(OCCUPIED), occupied, SLOW_TRAVEL_MS + WAIT_MS);
      await expect.poll(() => heard, { timeout: WAIT_MS }).toEqual(['door open', 'left open 1']);
      await rig.controller.write(target, TARGET_DOOR_STATE.CLOSED);
      await rig.controller.waitFor(hasValue(0), occupied, SLOW_TRAVEL_MS + WAIT_MS);
      await rig.controller.waitFor(hasValue(CONTACT_DETECTED), contact, SLOW_TRAVEL_MS + WAIT_MS);
    } finally {
      subscription.unsubscribe();
      rig.sim.setTravelTime(TRAVEL_MS);
    }
  });

  it('refuses to move a read-only door and says why', async () => {
    const target = await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'TargetDoorState');
    expect(await rig.controller.writeResult(target, TARGET_DOOR_STATE.OPEN)).toBe(HAP_STATUS.INSUFFICIENT_PRIVILEGES);
    await rig.hb.waitForLog(/Garage Door is read-only in the plugin settings; the command to open it was not sent/, WAIT_MS);
    // Its automation switch (open and close, for all doors) refuses too, with the same one line.
    const lines = rig.hb.lineCount();
    expect(await rig.controller.writeResult(await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'Switch', 'On'), true)).toBe(
      HAP_STATUS.INSUFFICIENT_PRIVILEGES,
    );
    await rig.hb.waitForLog(/Garage Door is read-only in the plugin settings; the command to open it was not sent/, WAIT_MS, {
      fromLine: lines,
    });
    expect(rig.sim.requests.filter((r) => r.path.endsWith('/endpoint/toggle') && r.body.includes(SAMPLE_GARAGE_DOOR_ID))).toEqual([]);
  });

  it('says who moved a door, from its history, when a poll finds it changed', async () => {
    rig.sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { channel: 'Keypad' });
    await rig.hb.waitForLog(/Garage Door is now open \(changed outside HomeKit\)/, WAIT_MS);
    await rig.hb.waitForLog(/Garage Door was opened by Ada Lovelace \(Keypad\)/, WAIT_MS);
    // One look for the move, beside the history read once at start for each controller whose doors Home shows (issue
    // 43): only the owned one, as includeDoors is "owned".
    const asked = rig.sim.requests.filter((r) => r.path.endsWith('/endpoints/toggle-history')).map((r) => r.query);
    expect(asked.map((q) => q.door_id ?? q.device_id).sort()).toEqual([SAMPLE_GARAGE_DOOR_ID, SAMPLE_OWNED_DEVICE_ID]);
  });

  it('keeps accessories and identities when options change and Homebridge restarts; hidden battery information goes', async () => {
    const frontAid = (await rig.controller.findAccessory(SAMPLE_FRONT_GATE_ID)).aid;
    await rig.restart({
      platforms: [
        platform({
          doors: [
            { id: SAMPLE_FRONT_GATE_ID, leftOpenSensor: true, hideBattery: true },
            { id: SAMPLE_GARAGE_DOOR_ID, automationSwitch: 'open-close' },
          ],
        }),
      ],
    });
    await rig.controller.waitForAccessory(SAMPLE_SHARED_GATE_ID, WAIT_MS);
    const accessories = await rig.controller.accessories();
    expect(accessories).toHaveLength(4);
    const front = await rig.controller.findAccessory(SAMPLE_FRONT_GATE_ID);
    expect(front.aid).toBe(frontAid);
    // The cached Battery service is gone, and with it the level and any low-battery alarm.
    expect(serviceTypes(front)).toEqual(['GarageDoorOpener', 'OccupancySensor']);
    expect(serviceTypes(await rig.controller.findAccessory(SAMPLE_GARAGE_DOOR_ID))).toEqual(['GarageDoorOpener', 'Switch']);
    // Its name left the settings: the door shows its name in the account again.
    expect(await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'Name'))).toBe(
      'Front Gate',
    );
    expect(
      await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'ConfiguredName')),
    ).toBe('Front Gate');
  });

  it('closes and opens through an open-and-close switch, which follows the door, and refuses while No Response', async () => {
    const on = await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'Switch', 'On');
    const current = await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'CurrentDoorState');
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, WAIT_MS);
    const before = toggles().length;
    await rig.controller.write(on, false);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), current, WAIT_MS);
    await rig.controller.write(on, true);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, WAIT_MS);
    expect(toggles().slice(before)).toEqual([
      { door_id: SAMPLE_GARAGE_DOOR_ID, door_state: 'CLOSED' },
      { door_id: SAMPLE_GARAGE_DOOR_ID, door_state: 'OPEN' },
    ]);
    expect(await rig.controller.read(on)).toSatisfy((value) => value === true || value === 1);

    rig.sim.setDeviceActive(SAMPLE_OWNED_DEVICE_ID, false);
    await rig.hb.waitForLog(/Garage Door shows No Response/, WAIT_MS);
    const lines = rig.hb.lineCount();
    expect(await rig.controller.writeResult(on, false)).toBe(HAP_STATUS.SERVICE_COMMUNICATION_FAILURE);
    await rig.hb.waitForLog(/Garage Door answers No Response, so its switch did not close it\./, WAIT_MS, { fromLine: lines });
    expect(toggles().slice(before)).toHaveLength(2);
    rig.sim.setDeviceActive(SAMPLE_OWNED_DEVICE_ID, true);
  });

  it('renames a door renamed in the account at the next poll, and keeps a name given in the Home app', async () => {
    const mark = rig.hb.lineCount();
    // The user renames the Front Gate in the Home app: the controller writes its ConfiguredName.
    await rig.controller.write(
      await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'ConfiguredName'),
      'Driveway',
    );
    await rig.hb.waitForLog(/Front Gate was renamed Driveway in the Home app; the plugin keeps that name\./, WAIT_MS, { fromLine: mark });
    rig.sim.renameDoor(SAMPLE_GARAGE_DOOR_ID, 'Carport');
    rig.sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Main Gate');
    await rig.controller.waitFor(
      (value) => value === 'Carport',
      await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'Name'),
      WAIT_MS,
    );
    expect(
      await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'ConfiguredName')),
    ).toBe('Carport');
    expect(await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'Switch', 'Name'))).toBe(
      'Carport Switch',
    );
    // The switch has a ConfiguredName of its own (else iOS shows it under the door's name), and it follows too.
    expect(await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'Switch', 'ConfiguredName'))).toBe(
      'Carport Switch',
    );
    await rig.hb.waitForLog(/Garage Door was renamed Carport in the account; renamed in Home\./, WAIT_MS, { fromLine: mark });
    await rig.hb.waitForLog(/Driveway was renamed Main Gate in the account; it keeps the name given in the Home app\./, WAIT_MS, {
      fromLine: mark,
    });
    expect(
      await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'ConfiguredName')),
    ).toBe('Driveway');
    expect(await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'Name'))).toBe(
      'Driveway',
    );
    // The plugin's own ConfiguredName updates are not taken for renames in Home: one such line, the controller's.
    expect(rig.hb.log().match(/in the Home app;/g)).toHaveLength(1);
    // ConfiguredName is added to the GarageDoorOpener without HAP-NodeJS's "not in required or optional" warning.
    expect(rig.hb.log()).not.toMatch(/generated a warning from the characteristic/);
  });
});

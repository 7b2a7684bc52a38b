// Door options end to end: extra services present or absent, the switch and the sensors at work, read-only, who moved it, option changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHomebridge } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { hasValue, pairController } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, HAP_STATUS, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import { AUTOMATION_SWITCH_RESET_MS } from '../../src/settings.js';
import { SAMPLE_OWNED_DEVICE_ID } from '../../dev/simulator/account.js';
import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID } from '../../dev/simulator/server.js';
import { togglesReceived } from '../support/simulator.js';
import { sleep } from '../support/wait.js';
import { tearDown } from './teardown.js';

const TOKEN = 'options-e2e-token-77b2';
const POLL_INTERVAL_S = 5;
/** The left-open sensor's time in this test: short, since a real Homebridge runs on real time. */
const LEFT_OPEN_AFTER_S = 2;
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

let sim: AccessControlSimulator;
let hb: HomebridgeProcess;
let controller: HomeKitController;

function platform(options: Record<string, unknown>): Record<string, unknown> {
  return {
    platform: 'AccessControl',
    name: 'Access Control',
    accessToken: TOKEN,
    baseUrl: sim.baseUrl,
    pollInterval: POLL_INTERVAL_S,
    ...options,
  };
}

/** Every toggle the plugin sent the service, in order. */
const toggles = (): unknown[] => togglesReceived(sim);

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

beforeAll(async () => {
  sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: 500 });
  await sim.start();
  hb = await startHomebridge({ platforms: [platform(FIRST_OPTIONS)] });
  controller = await pairController(hb);
  await controller.waitForAccessory(SAMPLE_GARAGE_DOOR_ID, WAIT_MS);
});

afterAll(() => tearDown({ controllers: [controller], hb, sim }));

describe('door options with a real Homebridge and a HomeKit controller', () => {
  it('adds exactly the services each door asks for, renames, and leaves shared doors out when asked', async () => {
    const front = await controller.findAccessory(SAMPLE_FRONT_GATE_ID);
    const garage = await controller.findAccessory(SAMPLE_GARAGE_DOOR_ID);
    expect(serviceTypes(front)).toEqual(['Battery', 'ContactSensor', 'GarageDoorOpener', 'OccupancySensor', 'Switch']);
    expect(serviceTypes(garage)).toEqual(['ContactSensor', 'GarageDoorOpener', 'Switch']);
    await expect(controller.findAccessory(SAMPLE_SHARED_GATE_ID)).rejects.toThrow();
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'Name'))).toBe(
      'Street Gate',
    );
  });

  it('opens the door through an open-only switch (true in an old config) and the toggle endpoint; the sensors follow', async () => {
    const on = await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'Switch', 'On');
    await controller.write(on, true);
    expect(toggles()).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);
    await controller.waitFor(
      hasValue(CURRENT_DOOR_STATE.OPEN),
      await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'CurrentDoorState'),
      WAIT_MS,
    );
    await controller.waitFor(
      hasValue(CONTACT_NOT_DETECTED),
      await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'ContactSensor', 'ContactSensorState'),
      WAIT_MS,
    );
    // The switch turns itself off again; turning it off (a "turn everything off" scene) sends nothing.
    await controller.waitFor(hasValue(false), on, WAIT_MS);
    await controller.write(on, false);
    await sleep(AUTOMATION_SWITCH_RESET_MS + POLL_INTERVAL_S * 1000);
    expect(toggles()).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'CurrentDoorState'))).toBe(
      CURRENT_DOOR_STATE.OPEN,
    );
  });

  it('reports the door left open once it has stood open past its time, and not before it opened', async () => {
    const occupied = await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'OccupancySensor', 'OccupancyDetected');
    await controller.waitFor(hasValue(OCCUPIED), occupied, WAIT_MS);
    await controller.write(
      await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'TargetDoorState'),
      TARGET_DOOR_STATE.CLOSED,
    );
    await controller.waitFor(hasValue(0), occupied, WAIT_MS);
    await controller.waitFor(
      hasValue(CONTACT_DETECTED),
      await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'ContactSensor', 'ContactSensorState'),
      WAIT_MS,
    );
  });

  it('refuses to move a read-only door and says why', async () => {
    const target = await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'TargetDoorState');
    expect(await controller.writeResult(target, TARGET_DOOR_STATE.OPEN)).toBe(HAP_STATUS.INSUFFICIENT_PRIVILEGES);
    await hb.waitForLog(/Garage Door is read-only in the plugin settings; the command to open it was not sent/, WAIT_MS);
    // Its automation switch (open and close, for all doors) refuses too, with the same one line.
    const lines = hb.lineCount();
    expect(await controller.writeResult(await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'Switch', 'On'), true)).toBe(
      HAP_STATUS.INSUFFICIENT_PRIVILEGES,
    );
    await hb.waitForLog(/Garage Door is read-only in the plugin settings; the command to open it was not sent/, WAIT_MS, {
      fromLine: lines,
    });
    expect(sim.requests.filter((r) => r.path.endsWith('/endpoint/toggle') && r.body.includes(SAMPLE_GARAGE_DOOR_ID))).toEqual([]);
  });

  it('says who moved a door, from its history, when a poll finds it changed', async () => {
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { channel: 'Keypad' });
    await hb.waitForLog(/Garage Door is now open \(changed outside HomeKit\)/, WAIT_MS);
    await hb.waitForLog(/Garage Door was opened by Ada Lovelace \(Keypad\)/, WAIT_MS);
    expect(sim.countRequests('/endpoints/toggle-history')).toBe(1);
  });

  it('keeps accessories and identities when options change and Homebridge restarts; hidden battery information goes', async () => {
    const frontAid = (await controller.findAccessory(SAMPLE_FRONT_GATE_ID)).aid;
    await hb.stop();
    hb = await startHomebridge({
      platforms: [
        platform({
          doors: [
            { id: SAMPLE_FRONT_GATE_ID, leftOpenSensor: true, hideBattery: true },
            { id: SAMPLE_GARAGE_DOOR_ID, automationSwitch: 'open-close' },
          ],
        }),
      ],
      storageDir: hb.storageDir,
    });
    await controller.reconnect(hb);
    await controller.waitForAccessory(SAMPLE_SHARED_GATE_ID, WAIT_MS);
    const accessories = await controller.accessories();
    expect(accessories).toHaveLength(4);
    const front = await controller.findAccessory(SAMPLE_FRONT_GATE_ID);
    expect(front.aid).toBe(frontAid);
    // The cached Battery service is gone, and with it the level and any low-battery alarm.
    expect(serviceTypes(front)).toEqual(['GarageDoorOpener', 'OccupancySensor']);
    expect(serviceTypes(await controller.findAccessory(SAMPLE_GARAGE_DOOR_ID))).toEqual(['GarageDoorOpener', 'Switch']);
    // Its name left the settings: the door shows its name in the account again.
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'Name'))).toBe('Front Gate');
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'ConfiguredName'))).toBe(
      'Front Gate',
    );
  });

  it('closes and opens through an open-and-close switch, which follows the door, and refuses while No Response', async () => {
    const on = await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'Switch', 'On');
    const current = await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'CurrentDoorState');
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, WAIT_MS);
    const before = toggles().length;
    await controller.write(on, false);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), current, WAIT_MS);
    await controller.write(on, true);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, WAIT_MS);
    expect(toggles().slice(before)).toEqual([
      { door_id: SAMPLE_GARAGE_DOOR_ID, door_state: 'CLOSED' },
      { door_id: SAMPLE_GARAGE_DOOR_ID, door_state: 'OPEN' },
    ]);
    expect(await controller.read(on)).toSatisfy((value) => value === true || value === 1);

    sim.setDeviceActive(SAMPLE_OWNED_DEVICE_ID, false);
    await hb.waitForLog(/Garage Door shows No Response/, WAIT_MS);
    const lines = hb.lineCount();
    expect(await controller.writeResult(on, false)).toBe(HAP_STATUS.SERVICE_COMMUNICATION_FAILURE);
    await hb.waitForLog(/Garage Door answers No Response, so its switch did not close it\./, WAIT_MS, { fromLine: lines });
    expect(toggles().slice(before)).toHaveLength(2);
    sim.setDeviceActive(SAMPLE_OWNED_DEVICE_ID, true);
  });

  it('renames a door renamed in the account at the next poll, and keeps a name given in the Home app', async () => {
    const mark = hb.lineCount();
    // The user renames the Front Gate in the Home app: the controller writes its ConfiguredName.
    await controller.write(await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'ConfiguredName'), 'Driveway');
    await hb.waitForLog(/Front Gate was renamed Driveway in the Home app; the plugin keeps that name\./, WAIT_MS, { fromLine: mark });
    sim.renameDoor(SAMPLE_GARAGE_DOOR_ID, 'Carport');
    sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Main Gate');
    await controller.waitFor(
      (value) => value === 'Carport',
      await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'Name'),
      WAIT_MS,
    );
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'ConfiguredName'))).toBe(
      'Carport',
    );
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'Switch', 'Name'))).toBe('Carport Switch');
    // The switch has a ConfiguredName of its own (else iOS shows it under the door's name), and it follows too.
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'Switch', 'ConfiguredName'))).toBe(
      'Carport Switch',
    );
    await hb.waitForLog(/Garage Door was renamed Carport in the account; renamed in Home\./, WAIT_MS, { fromLine: mark });
    await hb.waitForLog(/Driveway was renamed Main Gate in the account; it keeps the name given in the Home app\./, WAIT_MS, {
      fromLine: mark,
    });
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'ConfiguredName'))).toBe(
      'Driveway',
    );
    expect(await controller.read(await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'Name'))).toBe('Driveway');
    // The plugin's own ConfiguredName updates are not taken for renames in Home: one such line, the controller's.
    expect(hb.log().match(/in the Home app;/g)).toHaveLength(1);
    // ConfiguredName is added to the GarageDoorOpener without HAP-NodeJS's "not in required or optional" warning.
    expect(hb.log()).not.toMatch(/generated a warning from the characteristic/);
  });
});

// Builders for the tests of one door (DoorAccessory and its parts): Front Gate and its controller as a sync
// reports them, door options with no extras, and Front Gate's accessory as Homebridge hands it over from the cache.
import * as hap from 'hap-nodejs';
import { PlatformAccessory } from 'homebridge/lib/platformAccessory.js';

import type { Device, Door } from '../../src/client/types.js';
import type { DoorContext } from '../../src/door/context.js';
import type { DoorOptions } from '../../src/door/options.js';

/**
 * Front Gate (door-1) as the client hands a synced door over (src/client/types.ts, not the simulator's SimDoor):
 * closed, owned, active, no sensor; `overrides` on top.
 */
export function reportedDoor(overrides: Partial<Door> = {}): Door {
  return {
    id: 'door-1',
    name: 'Front Gate',
    entityNumber: 1,
    active: true,
    state: 'CLOSED',
    rawState: 'CLOSED',
    relationship: 'Owner',
    hasBluetoothSensor: false,
    batteryLevel: undefined,
    autoCloseEnabled: false,
    autoCloseDelay: 0,
    ...overrides,
  };
}

/** The controller of a reported door (its doors are not read by a door's update). */
export const reportedDevice: Device = {
  id: 'dev-1',
  active: true,
  softwareVersion: '2.4.1',
  ownerName: 'Ada',
  timeBeforeDoorOpenAlert: 60,
  doors: [],
};

/** A door's options with every extra off, not read-only: the garage door alone. Spread it and set what a test needs. */
export const NO_EXTRAS: DoorOptions = {
  name: undefined,
  showAs: 'garage-door',
  readOnly: false,
  automationSwitch: 'off',
  leftOpenSensor: false,
  leftOpenAfterS: undefined,
  leftOpenRepeatMin: 0,
  contactSensor: false,
  hideBattery: false,
  accessAlert: false,
  accessAlertDurationS: 30,
};

/** Front Gate's accessory (door-1 on dev-1) as the cache holds it, last known closed; `cached` on top of its context. */
export function frontGateAccessory(cached: Partial<DoorContext> = {}): PlatformAccessory<DoorContext> {
  const accessory = new PlatformAccessory<DoorContext>('Front Gate', hap.uuid.generate('door-1'));
  accessory.context = { doorId: 'door-1', deviceId: 'dev-1', name: 'Front Gate', state: 'CLOSED', ...cached };
  return accessory;
}

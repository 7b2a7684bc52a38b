// Showing a door's new name everywhere HomeKit reads it (src/homekit/door-name.ts, showDoorName): Homebridge's cache, the
// accessory's details, the main service's Name and ConfiguredName, and each extra still named after the old name; an
// extra the user renamed in the Home app keeps its name. Real HAP-NodeJS and Homebridge's PlatformAccessory.
import * as hap from 'hap-nodejs';
import type { HAP, Service } from 'homebridge';
import { describe, expect, it } from 'vitest';

import { configuredNameOf, ensureNamedService, showDoorName } from '../../../src/homekit/door-name.js';
import { frontGateAccessory } from '../../support/door-fixtures.js';

const H = hap as unknown as HAP;
const { Characteristic: C, Service: S } = hap;
const SUFFIXES: ReadonlyMap<string, string> = new Map([
  ['automation-switch', ' Switch'],
  ['contact-sensor', ' Contact'],
]);

const nameOf = (service: Service | undefined) => service?.getCharacteristic(C.Name).value;
const configuredOf = (service: Service | undefined) => service?.getCharacteristic(C.ConfiguredName).value;

/** The Front Gate shown as a garage door, with two extras named after it, one of them renamed by the user in Home. */
function frontGate() {
  const accessory = frontGateAccessory();
  const service = accessory.addService(S.GarageDoorOpener, 'Front Gate', 'garage-door');
  service.setCharacteristic(C.Name, 'Front Gate');
  const configuredName = configuredNameOf(H, service, 'Front Gate');
  const derived = ensureNamedService(H, accessory, S.Switch, 'Front Gate', { subtype: 'automation-switch', suffix: ' Switch' });
  const userNamed = ensureNamedService(H, accessory, S.ContactSensor, 'Front Gate', { subtype: 'contact-sensor', suffix: ' Contact' });
  userNamed.getCharacteristic(C.ConfiguredName).updateValue('Gate Reed');
  return { accessory, main: { service, configuredName }, derived, userNamed };
}

describe("showing a door's new name", () => {
  it('reaches Homebridge’s cache, the accessory’s details and the main service’s Name and ConfiguredName', () => {
    const { accessory, main } = frontGate();
    showDoorName(H, accessory, main, 'Front Gate', 'Side Gate', SUFFIXES);
    expect(accessory.displayName).toBe('Side Gate');
    expect(nameOf(accessory.getService(S.AccessoryInformation))).toBe('Side Gate');
    expect([main.service.displayName, nameOf(main.service), main.configuredName.value]).toEqual(['Side Gate', 'Side Gate', 'Side Gate']);
  });

  it('renames the extras still named after the door, and keeps the name the user gave one in the Home app', () => {
    const { accessory, main, derived, userNamed } = frontGate();
    showDoorName(H, accessory, main, 'Front Gate', 'Side Gate', SUFFIXES);
    expect([nameOf(derived), configuredOf(derived)]).toEqual(['Side Gate Switch', 'Side Gate Switch']);
    expect(configuredOf(userNamed)).toBe('Gate Reed');
  });
});

// A door's details in the Home app: the plugin as maker, the door id as serial number, and the controller's firmware
// only when it reads as a version HomeKit takes (a wrong one is left out, the last good one kept).
import { PlatformAccessory } from 'homebridge/lib/platformAccessory.js';
import { describe, expect, it } from 'vitest';

import { describeDoorAccessory, showFirmware } from '../../../src/door/accessory-information.js';
import { ACCESSORY_MANUFACTURER, ACCESSORY_MODEL } from '../../../src/settings.js';
import { HomebridgeDouble } from '../../support/homebridge-double.js';

const { hap } = new HomebridgeDouble();
const { Characteristic: C, Service: S } = hap;

function accessory(): PlatformAccessory {
  return new PlatformAccessory('Front Gate', hap.uuid.generate('accessory-information-test'));
}
const info = (a: PlatformAccessory, characteristic: typeof C.Name) =>
  a.getService(S.AccessoryInformation)?.getCharacteristic(characteristic).value;

describe("a door accessory's information", () => {
  it('names the plugin as maker and model, and the door id as serial number, one line of it', () => {
    const a = accessory();
    describeDoorAccessory(hap, a, 'door-7\nforged');
    expect([info(a, C.Manufacturer), info(a, C.Model)]).toEqual([ACCESSORY_MANUFACTURER, ACCESSORY_MODEL]);
    expect(info(a, C.SerialNumber)).not.toMatch(/\n/);
    expect(info(a, C.SerialNumber)).toMatch(/^door-7/);
  });

  it('shows the controller’s firmware as x.y.z, and keeps the last good one when the service sends none or another shape', () => {
    const a = accessory();
    showFirmware(hap, a, 'v2.3.1-beta4');
    expect(info(a, C.FirmwareRevision)).toBe('2.3.1');
    showFirmware(hap, a, undefined);
    showFirmware(hap, a, 'unknown');
    expect(info(a, C.FirmwareRevision)).toBe('2.3.1');
  });
});

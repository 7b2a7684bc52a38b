// A door accessory's AccessoryInformation: who made it and its serial number at start, the controller's firmware as
// the service reports it (the Home app shows them under the accessory's details).
import type { HAP, PlatformAccessory } from 'homebridge';

import { ACCESSORY_MANUFACTURER, ACCESSORY_MODEL } from '../settings.js';
import { homeKitSerial, homeKitVersion } from '../util/homekit-name.js';

/** The plugin's manufacturer and model, and a serial number from the door's id (HomeKit's rules for it in homeKitSerial). */
export function describeDoorAccessory(hap: HAP, accessory: PlatformAccessory, doorId: string): void {
  const { Service: S, Characteristic: C } = hap;
  accessory
    .getService(S.AccessoryInformation)
    ?.setCharacteristic(C.Manufacturer, ACCESSORY_MANUFACTURER)
    .setCharacteristic(C.Model, ACCESSORY_MODEL)
    .setCharacteristic(C.SerialNumber, homeKitSerial(doorId));
}

/** The controller's software version as a FirmwareRevision, when it reads as one HomeKit takes (homeKitVersion). */
export function showFirmware(hap: HAP, accessory: PlatformAccessory, softwareVersion: string | undefined): void {
  const version = homeKitVersion(softwareVersion);
  if (version) {
    accessory.getService(hap.Service.AccessoryInformation)?.updateCharacteristic(hap.Characteristic.FirmwareRevision, version);
  }
}

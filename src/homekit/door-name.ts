// Where a door's name goes in HomeKit: the ConfiguredName of its services and the names of its extras (which name: model/naming.ts).
import type { Characteristic, HAP, PlatformAccessory, Service, WithUUID } from 'homebridge';

import { extraName } from '../util/homekit-name.js';

/**
 * The GarageDoorOpener's ConfiguredName: the name iOS 16 and later show for a service and write when the user renames it
 * in the Home app. HAP-NodeJS does not list it as optional on this service, so it is added directly: getCharacteristic()
 * would add it too, but with a warning in the log.
 */
export function configuredNameOf(hap: HAP, service: Service, name: string): Characteristic {
  const C = hap.Characteristic;
  if (service.testCharacteristic(C.ConfiguredName)) {
    return service.getCharacteristic(C.ConfiguredName);
  }
  return service.addCharacteristic(C.ConfiguredName).updateValue(name);
}

/**
 * A door's extra service (switch, sensors), found by subtype or added named "<door><suffix>", with a ConfiguredName:
 * without one, iOS 16 and later show every service of an accessory under the accessory's name, so "Front Gate Switch"
 * would read "Front Gate" beside the door itself. A ConfiguredName the user changed in the Home app is kept (it is cached).
 */
export function ensureNamedService(
  hap: HAP,
  accessory: PlatformAccessory,
  type: WithUUID<typeof Service>,
  doorName: string,
  { subtype, suffix }: { subtype: string; suffix: string },
): Service {
  const name = extraName(doorName, suffix);
  const service = accessory.getServiceById(type, subtype) ?? accessory.addService(type, name, subtype);
  configuredNameOf(hap, service, name);
  return service;
}

/** HAP-NodeJS cut a longer value to this many UTF-16 units: how older versions left the extras of a long door name. */
const HAP_CUT_LENGTH = 64;

/**
 * Gives a renamed door's extras (automation switch, sensors: "<door> Switch") the new door name, each only while its
 * name is still the one the plugin derived from the old door name; one the user renamed in the Home app keeps its name.
 * Found by subtype, not by name: an older version's extra of a long door name holds only what HAP-NodeJS left of it.
 * updateCharacteristic, never setCharacteristic: a set would run the handler meant for a controller's write.
 */
export function renameDerivedServices(
  hap: HAP,
  accessory: PlatformAccessory,
  oldName: string,
  newName: string,
  /** Each extra's suffix, by its subtype (door/extras/). */
  suffixes: ReadonlyMap<string, string>,
  skip: readonly Service[],
): void {
  const C = hap.Characteristic;
  for (const service of accessory.services) {
    const suffix = service.subtype === undefined ? undefined : suffixes.get(service.subtype);
    if (skip.includes(service) || suffix === undefined || !service.testCharacteristic(C.Name)) {
      continue;
    }
    const derived = extraName(oldName, suffix);
    const derivedNames = new Set([derived, derived.slice(0, HAP_CUT_LENGTH)]);
    const nameChar = service.getCharacteristic(C.Name);
    if (typeof nameChar.value !== 'string' || !derivedNames.has(nameChar.value)) {
      continue;
    }
    const renamed = extraName(newName, suffix);
    nameChar.updateValue(renamed);
    service.displayName = renamed;
    const configured = service.testCharacteristic(C.ConfiguredName) ? service.getCharacteristic(C.ConfiguredName) : undefined;
    if (typeof configured?.value === 'string' && derivedNames.has(configured.value)) {
      configured.updateValue(renamed);
    }
  }
}

/**
 * Shows `name` instead of `before` wherever HomeKit reads a door's name: Homebridge's cache (displayName), the
 * AccessoryInformation's Name (what a controller reads when it adds the door), the main service's Name and
 * ConfiguredName, and the extras whose names derive from the old one (renameDerivedServices).
 */
export function showDoorName(
  hap: HAP,
  accessory: PlatformAccessory,
  main: { service: Service; configuredName: Characteristic },
  before: string,
  name: string,
  /** Each extra's suffix, by its subtype (door/extras/). */
  suffixes: ReadonlyMap<string, string>,
): void {
  const { Characteristic: C, Service: S } = hap;
  accessory.updateDisplayName(name);
  accessory.getService(S.AccessoryInformation)?.updateCharacteristic(C.Name, name);
  main.service.displayName = name;
  main.service.updateCharacteristic(C.Name, name);
  if (main.configuredName.value !== name) {
    main.configuredName.updateValue(name);
  }
  renameDerivedServices(hap, accessory, before, name, suffixes, [main.service]);
}

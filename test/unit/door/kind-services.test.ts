// A door kind's service is found by what marks it as the kind (its type and the kind as subtype), never by type alone:
// a scratch kind built on the Switch service lives beside the automation switch (also a Switch) across restarts, and a
// cache written before kinds had a subtype (test/unit/door/fixtures/) is adopted as it is. Real HAP-NodeJS
// and Homebridge's PlatformAccessory; a restart hands the door its accessory as Homebridge reads it back from its cache.
import { readFileSync } from 'node:fs';

import * as hap from 'hap-nodejs';
import type { API, Service } from 'homebridge';
import { IdentifierCache } from 'hap-nodejs/dist/lib/model/IdentifierCache.js';
import { PlatformAccessory } from 'homebridge/lib/platformAccessory.js';
import type { SerializedPlatformAccessory } from 'homebridge/lib/platformAccessory.js';
import { describe, expect, it } from 'vitest';

import type { DoorContext } from '../../../src/door/model/context.js';
import { automationSwitch } from '../../../src/door/extras/automation-switch.js';
import { EXTRAS } from '../../../src/door/extras/index.js';
import { FACES } from '../../../src/door/face.js';
import type { DoorFace, FaceDeps, FaceSpec, FaceTable } from '../../../src/door/face.js';
import type { DoorOptions } from '../../../src/config/door-options.js';
import type { ShowAs } from '../../../src/option-catalog.js';
import { doorRig, NO_EXTRAS } from '../../support/door-fixtures.js';
import type { DoorRig } from '../../support/door-fixtures.js';

const { Characteristic: C, Service: S } = hap;

/** A scratch kind as a newcomer would add it, on the service the automation switch uses: on opens, off closes. */
class SwitchFace implements DoorFace {
  constructor(
    private readonly deps: FaceDeps,
    readonly service: Service,
  ) {
    service
      .getCharacteristic(C.On)
      .onGet(() => deps.answer(deps.model.target === 'OPEN'))
      .onSet((on) => deps.command(on === true ? 'OPEN' : 'CLOSED'));
  }

  push(): void {
    this.service.updateCharacteristic(C.On, this.deps.model.target === 'OPEN');
  }
}

const SWITCH_KIND: FaceSpec = {
  service: (h) => h.Service.Switch,
  Face: SwitchFace,
  showsUnknown: false,
  words: 'a switch',
  siri: { open: 'Turn on the', close: 'Turn off the' },
};
/** The table with the scratch kind as one more row ("switch" is no value of the catalog, hence the casts). */
const WITH_SWITCH = { ...FACES, switch: SWITCH_KIND } as unknown as FaceTable;
const SWITCH = 'switch' as ShowAs;

/** The accessory as Homebridge hands it over at the next start: written to its cache file as JSON and read back. */
function restored(accessory: PlatformAccessory): PlatformAccessory<DoorContext> {
  const onDisk = JSON.stringify([PlatformAccessory.serialize(accessory)]);
  return fromCache(onDisk);
}

function fromCache(text: string): PlatformAccessory<DoorContext> {
  const [json] = JSON.parse(text) as SerializedPlatformAccessory[];
  if (json === undefined) throw new Error('empty cache');
  return PlatformAccessory.deserialize(json) as PlatformAccessory<DoorContext>;
}

/** A cache written before kinds had a subtype: recorded from the DoorAccessory of commit 42ea5d1, its main service has none. */
const cachedWithoutSubtype = (kind: 'garage-door' | 'lock'): PlatformAccessory<DoorContext> =>
  fromCache(readFileSync(new URL(`fixtures/cached-${kind}-without-subtype.json`, import.meta.url), 'utf8'));

/** Restarts the door on `accessory` with `options`, on the table with the scratch kind, as the platform would build it. */
function start(options: DoorOptions, accessory?: PlatformAccessory<DoorContext>): DoorRig {
  const api = { hap, updatePlatformAccessories: () => undefined } as unknown as API;
  return doorRig({ api, options, faces: WITH_SWITCH }, accessory);
}

/**
 * Every service of the accessory as HomeKit tells them apart (HAP gives a service its id in HomeKit by type and
 * subtype: Service.getServiceId), with its name.
 */
const servicesOf = (accessory: PlatformAccessory): string[] =>
  accessory.services.map((service) => `${service.getServiceId()} ${JSON.stringify(service.getCharacteristic(C.Name).value)}`);

/**
 * The ids HomeKit knows the accessory's services and characteristics by, as HAP gives them from `ids` (the identifier
 * cache Homebridge keeps on disk for its bridge): a paired iPhone's automations and scenes point at these.
 */
function homeKitIds(accessory: PlatformAccessory, ids: IdentifierCache): string[] {
  accessory._associatedHAPAccessory._assignIDs(ids);
  return accessory.services.flatMap((service) => [
    `${service.getServiceId()} ${String(service.iid)}`,
    ...service.characteristics.map((characteristic) => `${service.getServiceId()} ${characteristic.UUID} ${String(characteristic.iid)}`),
  ]);
}

const theSwitchOf = (accessory: PlatformAccessory) => accessory.getServiceById(S.Switch, automationSwitch.subtype);
const SWITCH_ON: DoorOptions = { ...NO_EXTRAS, automationSwitch: 'open-close' };
/** The extras the older garage door's cache holds. */
const CACHED_EXTRAS_ON: DoorOptions = { ...SWITCH_ON, leftOpenSensor: true, contactSensor: true };

describe("what tells a kind's service from an extra's", () => {
  it('is the subtype: every extra has one, and none is the value of a kind', () => {
    const kinds = [...Object.keys(FACES), SWITCH];
    for (const { subtype } of Object.values(EXTRAS)) {
      expect({ subtype, marksAKind: subtype === '' || kinds.includes(subtype) }).toEqual({ subtype, marksAKind: false });
    }
  });
});

describe('a kind built on the Switch service, beside the automation switch', () => {
  it('has its own service, the automation switch keeps its own, and both stay through restarts without a throw', async () => {
    const first = start({ ...SWITCH_ON, showAs: SWITCH });
    const door = first.accessory.getServiceById(S.Switch, 'switch');
    expect(door?.getCharacteristic(C.Name).value).toBe('Front Gate');
    expect(theSwitchOf(first.accessory)?.getCharacteristic(C.Name).value).toBe('Front Gate Switch');
    const services = servicesOf(first.accessory);
    expect(services.filter((line) => line.startsWith(S.Switch.UUID))).toHaveLength(2);

    let accessory = first.accessory;
    for (let restart = 1; restart <= 2; restart++) {
      const again = start({ ...SWITCH_ON, showAs: SWITCH }, restored(accessory));
      accessory = again.accessory;
      expect(servicesOf(accessory)).toEqual(services);
      expect(again.door.kindChanged).toBe(false);
      // Each still does its own job: the door's switch and the automation switch both command the door.
      await accessory.getServiceById(S.Switch, 'switch')?.getCharacteristic(C.On).handleSetRequest(true);
      await theSwitchOf(accessory)?.getCharacteristic(C.On).handleSetRequest(false);
      expect(again.toggle.mock.calls).toEqual([
        ['door-1', 'OPEN'],
        ['door-1', 'CLOSED'],
      ]);
    }
  });

  it('comes and goes as the kind changes across restarts, and the automation switch stays every time', () => {
    let accessory = start(SWITCH_ON).accessory;
    const automation = servicesOf(accessory).filter((line) => line.startsWith(`${S.Switch.UUID}${automationSwitch.subtype}`));
    expect(automation).toEqual([`${S.Switch.UUID}automation-switch "Front Gate Switch"`]);
    for (const kind of [SWITCH, 'garage-door', 'lock', SWITCH, 'garage-door'] as const) {
      const again = start({ ...SWITCH_ON, showAs: kind }, restored(accessory));
      accessory = again.accessory;
      const doorServices = servicesOf(accessory).filter(
        (line) => line.endsWith(' "Front Gate"') && !line.startsWith(S.AccessoryInformation.UUID),
      );
      expect({ kind, doorServices }).toEqual({ kind, doorServices: [`${WITH_SWITCH[kind].service(hap).UUID}${kind} "Front Gate"`] });
      expect({ kind, automation: servicesOf(accessory).filter((line) => automation.includes(line)) }).toEqual({ kind, automation });
      expect(again.door.kindChanged).toBe(true);
    }
  });

  it('is never taken for the door, nor removed as a stray, while the door is a garage door', () => {
    const first = start(SWITCH_ON);
    const services = servicesOf(first.accessory);
    const again = start(SWITCH_ON, restored(first.accessory));
    expect(servicesOf(again.accessory)).toEqual(services);
    expect(again.door.kind).toBe('garage-door');
    expect(again.door.kindChanged).toBe(false);
  });
});

describe('a cache written before kinds had a subtype', () => {
  it.each(['garage-door', 'lock'] as const)(
    'keeps its %s service as it is (same id in HomeKit, name kept, nothing added) and writes nothing',
    (kind) => {
      const cached = cachedWithoutSubtype(kind);
      const before = servicesOf(cached);
      const main = cached.services.find((service) => service.UUID === FACES[kind].service(hap).UUID);
      expect(main?.subtype).toBeUndefined();
      const again = start({ ...(kind === 'lock' ? SWITCH_ON : CACHED_EXTRAS_ON), showAs: kind }, cached);
      expect(again.door.kind).toBe(kind);
      expect(again.door.kindChanged).toBe(false);
      expect(servicesOf(again.accessory)).toEqual(before);
      // The very service restored from the cache, not a copy: the user's name for it and its automations stay.
      expect(again.accessory.services).toContain(main);
      expect(main?.subtype).toBeUndefined();
    },
  );

  it.each(['garage-door', 'lock'] as const)('keeps every id HomeKit knows the %s by: nothing to pair or set up again', (kind) => {
    const ids = new IdentifierCache('0E:AC:00:00:00:45');
    const known = homeKitIds(cachedWithoutSubtype(kind), ids);
    const again = start({ ...(kind === 'lock' ? SWITCH_ON : CACHED_EXTRAS_ON), showAs: kind }, cachedWithoutSubtype(kind));
    expect(homeKitIds(again.accessory, ids)).toEqual(known);
  });

  it('keeps the name the user gave the door in the Home app', () => {
    const again = start(CACHED_EXTRAS_ON, cachedWithoutSubtype('garage-door'));
    const garage = again.accessory.getService(S.GarageDoorOpener);
    expect(garage?.getCharacteristic(C.ConfiguredName).value).toBe('Office Door');
    expect(again.door.name).toBe('Office Door');
  });

  it('shown as the Switch kind at last, adds its switch beside the cached automation switch without a throw', () => {
    const cached = cachedWithoutSubtype('garage-door');
    const extras = servicesOf(cached).filter((line) => Object.values(EXTRAS).some((spec) => line.includes(spec.subtype)));
    expect(extras).toHaveLength(3);
    const again = start({ ...CACHED_EXTRAS_ON, showAs: SWITCH }, cached);
    expect(again.accessory.getService(S.GarageDoorOpener)).toBeUndefined();
    expect(again.accessory.getServiceById(S.Switch, 'switch')?.getCharacteristic(C.Name).value).toBe('Office Door');
    expect(servicesOf(again.accessory).filter((line) => extras.includes(line))).toEqual(extras);
  });
});

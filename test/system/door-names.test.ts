// Door names follow the account: a rename there renames the door in HomeKit at the next sync, unless the user named it.
import * as hap from 'hap-nodejs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { AccessControlSimulator, makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { SimDevice, SimDoor } from '../../dev/simulator/server.js';
import { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import { captureLog } from '../support/log.js';
import type { CapturedLog } from '../support/log.js';

const { Characteristic: C, Service: S } = hap;
const TOKEN = 'door-names-token-51c2';
const POLLS = 3;
const EXTRAS = { automationSwitch: 'open', contactSensor: true };

let sim: AccessControlSimulator;
let device: SimDevice;
let gate: SimDoor;
let garage: SimDoor;

beforeAll(async () => {
  gate = makeDoor({ name: 'Front Gate', entityNumber: 1 });
  garage = makeDoor({ name: 'Garage', entityNumber: 2 });
  device = makeDevice({ doors: [gate, garage] });
  sim = new AccessControlSimulator({ accessToken: TOKEN, devices: [device] });
  await sim.start();
});

afterAll(async () => {
  await sim.stop();
});

beforeEach(() => {
  sim.renameDoor(gate.id, 'Front Gate');
  sim.renameDoor(garage.id, 'Garage');
});

type Cache = ReturnType<HomebridgeDouble['savedCache']>;

/** One Homebridge run on the double: boots from `cache`, syncs once, and polls on demand. */
async function boot(extra: Record<string, unknown> = {}, cache: Cache = []) {
  const clock = new ManualClock();
  const log = captureLog();
  const api = new HomebridgeDouble(cache);
  const platform = api.boot({ platform: 'AccessControl', accessToken: TOKEN, baseUrl: sim.baseUrl, ...EXTRAS, ...extra }, log, clock);
  const poll = async (times: number) => {
    for (let i = 0; i < times; i += 1) {
      clock.advance(clock.nextDueInMs ?? 0);
      await platform.syncSettled();
    }
  };
  await poll(1);
  const accessory = (doorId: string) => {
    const found = [...api.registered.values()].find(
      (a) => a.getService(S.AccessoryInformation)?.getCharacteristic(C.SerialNumber).value === doorId,
    );
    if (!found) throw new Error(`no door ${doorId}`);
    return found;
  };
  /** Every name HomeKit can read of a door, and its extras'. */
  const names = (doorId: string) => {
    const a = accessory(doorId);
    const opener = a.getService(S.GarageDoorOpener);
    return {
      displayName: a.displayName,
      information: a.getService(S.AccessoryInformation)?.getCharacteristic(C.Name).value,
      name: opener?.getCharacteristic(C.Name).value,
      configuredName: opener?.getCharacteristic(C.ConfiguredName).value,
      switchName: a.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.Name).value,
      // iOS 16 and later show an extra without a ConfiguredName under the door's own name.
      switchConfiguredName: a.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.ConfiguredName).value,
      contactName: a.getServiceById(S.ContactSensor, 'contact')?.getCharacteristic(C.Name).value,
      contactConfiguredName: a.getServiceById(S.ContactSensor, 'contact')?.getCharacteristic(C.ConfiguredName).value,
    };
  };
  /** The user renames the door in the Home app: the controller writes ConfiguredName. */
  const renameInHome = (doorId: string, name: string) =>
    accessory(doorId).getService(S.GarageDoorOpener)?.getCharacteristic(C.ConfiguredName).handleSetRequest(name);
  return { api, log, platform, poll, names, renameInHome, accessory };
}

const infos = (log: CapturedLog, about: string) => log.texts('info').filter((text) => text.includes(about));

const allNamed = (name: string) => ({
  displayName: name,
  information: name,
  name,
  configuredName: name,
  switchName: `${name} Switch`,
  switchConfiguredName: `${name} Switch`,
  contactName: `${name} Contact`,
  contactConfiguredName: `${name} Contact`,
});

describe('door names', () => {
  it('renames a door renamed in the account, everywhere HomeKit reads it, with one log line, once', async () => {
    const t = await boot();
    expect(t.names(gate.id)).toEqual(allNamed('Front Gate'));
    const writesBefore = t.api.cacheWrites.length;
    sim.renameDoor(gate.id, 'Main Gate');
    await t.poll(POLLS);
    expect(t.names(gate.id)).toEqual(allNamed('Main Gate'));
    expect(infos(t.log, 'renamed')).toEqual(['Front Gate was renamed Main Gate in the account; renamed in Home.']);
    expect(t.api.cacheWrites.length).toBeGreaterThan(writesBefore);
    // Kept across a restart, and not announced again.
    await t.platform.shutdown();
    const again = await boot({}, t.api.savedCache());
    await again.poll(POLLS);
    expect(again.names(gate.id)).toEqual(allNamed('Main Gate'));
    expect(infos(again.log, 'named')).toEqual([]);
    await again.platform.shutdown();
  });

  it('keeps a name given to an extra in the Home app (its ConfiguredName) through renames in the account and restarts', async () => {
    const t = await boot();
    const switchName = (a: ReturnType<typeof t.accessory>) => a.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.ConfiguredName);
    await switchName(t.accessory(gate.id))?.handleSetRequest('Gate Opener');
    sim.renameDoor(gate.id, 'Main Gate');
    await t.poll(POLLS);
    expect(t.names(gate.id)).toEqual({ ...allNamed('Main Gate'), switchConfiguredName: 'Gate Opener' });
    await t.platform.shutdown();
    const again = await boot({}, t.api.savedCache());
    expect(switchName(again.accessory(gate.id))?.value).toBe('Gate Opener');
    await again.platform.shutdown();
  });

  it('warns when a rename makes two doors Siri cannot tell apart', async () => {
    const t = await boot();
    sim.renameDoor(garage.id, 'front-gate');
    await t.poll(POLLS);
    expect(t.log.texts('warn').filter((text) => text.startsWith('Siri cannot tell'))).toEqual([
      `Siri cannot tell Front Gate (door ${gate.id}) from front-gate (door ${garage.id}) apart: their names differ only in case, spaces or punctuation. Give one of them its own "Name in Home" in the plugin settings.`,
    ]);
    await t.platform.shutdown();
  });

  it('keeps a name set in the plugin settings, and goes back to the account name once it is removed', async () => {
    const t = await boot({ doors: [{ id: gate.id, name: 'Street Gate' }] });
    expect(t.names(gate.id)).toEqual(allNamed('Street Gate'));
    expect(infos(t.log, 'Street Gate')).toEqual([`Added Street Gate to HomeKit (door ${gate.id}, controller ${device.id}).`]);
    sim.renameDoor(gate.id, 'Main Gate');
    await t.poll(POLLS);
    expect(t.names(gate.id)).toEqual(allNamed('Street Gate'));
    expect(infos(t.log, 'in the account')).toEqual(['Street Gate was renamed Main Gate in the account; it keeps the name given in the plugin settings.']);
    await t.platform.shutdown();

    // The user removes the name from the settings: at the restart the door shows the account's name, before any sync.
    const log = captureLog();
    const api = new HomebridgeDouble(t.api.savedCache());
    const platform = api.boot({ platform: 'AccessControl', accessToken: TOKEN, baseUrl: sim.baseUrl, ...EXTRAS }, log, new ManualClock());
    const restarted = [...api.registered.values()].find((a) => a.context.doorId === gate.id);
    expect(restarted?.displayName).toBe('Main Gate');
    expect(restarted?.getService(S.GarageDoorOpener)?.getCharacteristic(C.ConfiguredName).value).toBe('Main Gate');
    expect(log.texts('info')).toContain('Street Gate is now named Main Gate, from the account.');
    expect(api.cacheWrites.length).toBeGreaterThan(0);
    await platform.shutdown();
  });

  it('keeps a name given in the Home app across renames in the account and restarts', async () => {
    const t = await boot();
    await t.renameInHome(gate.id, 'Driveway');
    expect(t.names(gate.id)).toEqual(allNamed('Driveway'));
    expect(infos(t.log, 'Home app')).toEqual(['Front Gate was renamed Driveway in the Home app; the plugin keeps that name.']);
    sim.renameDoor(gate.id, 'Main Gate');
    await t.poll(POLLS);
    expect(t.names(gate.id)).toEqual(allNamed('Driveway'));
    expect(infos(t.log, 'in the account')).toEqual(['Driveway was renamed Main Gate in the account; it keeps the name given in the Home app.']);
    await t.platform.shutdown();

    const again = await boot({}, t.api.savedCache());
    sim.renameDoor(gate.id, 'North Gate');
    await again.poll(POLLS);
    expect(again.names(gate.id)).toEqual(allNamed('Driveway'));

    // Renamed in Home to its name in the account, it follows the account again.
    await again.renameInHome(gate.id, 'North Gate');
    sim.renameDoor(gate.id, 'Gate');
    await again.poll(POLLS);
    expect(again.names(gate.id)).toEqual(allNamed('Gate'));
    await again.platform.shutdown();
  });

  it('takes no name the Home app writes back unchanged, nor a value that is not a name, for a name of the user', async () => {
    const t = await boot();
    await t.renameInHome(gate.id, 'Front Gate');
    await t.renameInHome(gate.id, '!!!');
    sim.renameDoor(gate.id, 'Main Gate');
    await t.poll(POLLS);
    expect(t.names(gate.id)).toEqual(allNamed('Main Gate'));
    expect(infos(t.log, 'Home app')).toEqual([]);
    await t.platform.shutdown();
  });

  it('adopts the cache of an older version: no rename when nothing changed, and a stale settings name gives way', async () => {
    const first = await boot({ doors: [{ id: gate.id, name: 'Street Gate' }] });
    await first.platform.shutdown();
    // What an older version kept: the shown name only, the settings name written over the account's.
    const older = first.api.savedCache().map((json) => {
      const context = { ...(json.context as Record<string, unknown>) };
      delete context.accountName;
      delete context.homeName;
      return { ...json, context };
    });

    const kept = await boot({ doors: [{ id: gate.id, name: 'Street Gate' }] }, older);
    await kept.poll(POLLS);
    expect(kept.names(gate.id)).toEqual(allNamed('Street Gate'));
    expect(kept.names(garage.id)).toEqual(allNamed('Garage'));
    expect(infos(kept.log, 'named')).toEqual([]);
    await kept.platform.shutdown();

    const removed = await boot({}, older);
    await removed.poll(POLLS);
    expect(removed.names(gate.id)).toEqual(allNamed('Front Gate'));
    expect(infos(removed.log, 'named')).toEqual(['Street Gate is now named Front Gate, from the account.']);
    await removed.platform.shutdown();
  });
});

// Door names follow the account: a rename there renames the door in HomeKit at the next sync, unless the user named it.
import * as hap from 'hap-nodejs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { AccessControlSimulator, makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { SimDevice, SimDoor } from '../../dev/simulator/server.js';
import { ACCOUNT_RENAMES_BEFORE_QUIET, ACCOUNT_RENAME_QUIET_WINDOW_MS } from '../../src/settings.js';
import { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import { captureLog } from '../support/log.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import type { CapturedLog } from '../support/log.js';

const { Characteristic: C, Service: S } = hap;
const TOKEN = 'door-names-token-51c2';
const POLLS = 3;
const EXTRAS = { automationSwitch: 'open', contactSensor: true };

let sim: AccessControlSimulator;
let device: SimDevice;
let gate: SimDoor;
let garage: SimDoor;
const running = shutDownAfterEach();

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
  const { api, clock, log, platform, poll } = await bootSynced(
    sim,
    { accessToken: TOKEN, ...EXTRAS, ...extra },
    { api: new HomebridgeDouble(cache), running },
  );
  const accessory = (doorId: string) => {
    const found = api.accessory(doorId);
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
  return { api, log, platform, poll, names, renameInHome, accessory, clock };
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
    const switchName = (a: ReturnType<typeof t.accessory>) =>
      a.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.ConfiguredName);
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
    expect(infos(t.log, 'in the account')).toEqual([
      'Street Gate was renamed Main Gate in the account; it keeps the name given in the plugin settings.',
    ]);
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
    expect(infos(t.log, 'in the account')).toEqual([
      'Driveway was renamed Main Gate in the account; it keeps the name given in the Home app.',
    ]);
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

describe('door names that are long, hostile or keep changing', () => {
  /** What HAP-NodeJS writes to the console (a value cut at 64, a bad name): each such line quotes the whole value. */
  let hapWarnings: string[];
  beforeEach(() => {
    hapWarnings = [];
    const record = (...args: unknown[]) => void hapWarnings.push(args.map(String).join(' '));
    vi.spyOn(console, 'warn').mockImplementation(record);
    vi.spyOn(console, 'error').mockImplementation(record);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const longest = (t: Awaited<ReturnType<typeof boot>>, doorId: string) =>
    Math.max(
      ...t
        .accessory(doorId)
        .services.flatMap((service) => service.characteristics.map((c) => (typeof c.value === 'string' ? c.value.length : 0))),
    );

  it('names the extras of a door with a 64-character name in full, and they follow a rename in the account', async () => {
    const name64 = 'The Very Long Name Of The North Gate Beside The Old Stone Barn X';
    expect(name64).toHaveLength(64);
    sim.renameDoor(gate.id, name64);
    const t = await boot({ leftOpenSensor: true, accessAlert: true });
    const shown = t.names(gate.id).name as string;
    expect(name64.startsWith(shown)).toBe(true);
    expect(t.names(gate.id)).toEqual(allNamed(shown));
    expect(longest(t, gate.id)).toBeLessThanOrEqual(64);

    const renamed = 'The Very Long Name Of The South Gate Beside The Old Stone Barn Z';
    sim.renameDoor(gate.id, renamed);
    await t.poll(POLLS);
    const now = t.names(gate.id).name as string;
    expect(renamed.startsWith(now)).toBe(true);
    expect(t.names(gate.id)).toEqual(allNamed(now));
    const a = t.accessory(gate.id);
    expect(a.getServiceById(S.OccupancySensor, 'left-open')?.getCharacteristic(C.ConfiguredName).value).toBe(`${now} Left Open`);
    expect(a.getServiceById(S.MotionSensor, 'access-alert')?.getCharacteristic(C.ConfiguredName).value).toBe(`${now} Access Alert`);
    expect(hapWarnings).toEqual([]);
    await t.platform.shutdown();
  });

  it('cleans a 10,000-character name in the cache before HomeKit or the log sees it, and renames the extras cut from it', async () => {
    const first = await boot();
    await first.platform.shutdown();
    const huge = `Gate ${'x'.repeat(10_000)}`;
    // What an older version cached after such a rename: the whole name, and extras HAP-NodeJS cut to 64.
    const cache = first.api.savedCache().map((json) => {
      const context = json.context as Record<string, unknown>;
      if (context.doorId !== gate.id) return json;
      const text = JSON.stringify({ ...json, displayName: huge, context: { ...context, name: huge, accountName: huge, homeName: huge } });
      return JSON.parse(
        text.replace(/"Front Gate( [A-Za-z ]+)?"/g, (_all, suffix: string | undefined) =>
          JSON.stringify(`${huge}${suffix ?? ''}`.slice(0, 64)),
        ),
      ) as typeof json;
    });
    const t = await boot({}, cache);
    await t.poll(POLLS);
    const shown = t.names(gate.id).name as string;
    expect(shown.length).toBeLessThanOrEqual(51);
    expect(huge.startsWith(shown)).toBe(true);
    expect(t.names(gate.id)).toEqual(allNamed(shown));
    expect(longest(t, gate.id)).toBeLessThanOrEqual(64);
    // Homebridge itself names the accessory from the cache as it loads it, before the plugin sees it: that one line only.
    expect(hapWarnings.map((w) => w.replace(/x{20,}/g, 'x…'))).toEqual([
      "[Gate x…@@Name] characteristic was supplied illegal value: string 'Gate x…' exceeded max length of 64",
    ]);
    expect(Math.max(...t.log.lines.map((line) => line.text.length))).toBeLessThan(500);
    // The cache keeps the clean names: the next start has nothing to cut.
    const saved = t.api.savedCache();
    expect(JSON.stringify(saved)).not.toMatch(/x{64}/);
    await t.platform.shutdown();
    hapWarnings.length = 0;
    const again = await boot({}, saved);
    expect(again.names(gate.id)).toEqual(allNamed(shown));
    expect(hapWarnings).toEqual([]);
    await again.platform.shutdown();
  });

  it('drops a cached Home app name that cleans to nothing: the door follows the account', async () => {
    const first = await boot();
    await first.platform.shutdown();
    const cache = first.api.savedCache().map((json) => {
      const context = json.context as Record<string, unknown>;
      return context.doorId === gate.id ? { ...json, context: { ...context, homeName: '!!! ###' } } : json;
    });
    const t = await boot({}, cache);
    sim.renameDoor(gate.id, 'Main Gate');
    await t.poll(POLLS);
    expect(t.names(gate.id)).toEqual(allNamed('Main Gate'));
    expect(infos(t.log, 'in the account')).toEqual(['Front Gate was renamed Main Gate in the account; renamed in Home.']);
    await t.platform.shutdown();
  });

  it('follows a name that flips at every sync quietly after a few renames, with a bounded number of cache writes', async () => {
    const t = await boot();
    const writesBefore = t.api.cacheWrites.length;
    const flips = 40;
    for (let i = 1; i <= flips; i += 1) {
      sim.renameDoor(gate.id, i % 2 === 1 ? 'Gate B' : 'Front Gate');
      await t.poll(1);
      // HomeKit still follows the account.
      expect(t.names(gate.id)).toEqual(allNamed(i % 2 === 1 ? 'Gate B' : 'Front Gate'));
    }
    const renameLines = infos(t.log, 'was renamed');
    expect(renameLines).toHaveLength(ACCOUNT_RENAMES_BEFORE_QUIET);
    expect(t.log.texts('info').filter((text) => text.includes('keeps changing'))).toEqual([
      "Front Gate's name keeps changing in the account; further renames are logged at debug level.",
    ]);
    expect(t.log.texts('debug').filter((text) => text.includes('in the account')).length).toBeGreaterThan(
      flips - ACCOUNT_RENAMES_BEFORE_QUIET - 2,
    );
    expect(t.api.cacheWrites.length - writesBefore).toBeLessThanOrEqual(ACCOUNT_RENAMES_BEFORE_QUIET + 1);

    // The name settles: once a quiet window has passed, the cache gets the name the door shows, and renames are said again.
    sim.renameDoor(gate.id, 'Gate B');
    await t.poll(1);
    const writesWhileQuiet = t.api.cacheWrites.length;
    expect(writesWhileQuiet - writesBefore).toBeLessThanOrEqual(ACCOUNT_RENAMES_BEFORE_QUIET + 1);
    t.clock.advance(ACCOUNT_RENAME_QUIET_WINDOW_MS);
    await t.poll(1);
    expect(t.names(gate.id)).toEqual(allNamed('Gate B'));
    expect(t.api.cacheWrites.length).toBe(writesWhileQuiet + 1);
    // A copy: the double serializes the live context.
    const saved = structuredClone(t.api.savedCache());
    sim.renameDoor(gate.id, 'Main Gate');
    await t.poll(1);
    expect(infos(t.log, 'in the account').at(-1)).toBe('Gate B was renamed Main Gate in the account; renamed in Home.');
    await t.platform.shutdown();

    // What was written at the settle: a restart shows Gate B and says nothing of a rename.
    sim.renameDoor(gate.id, 'Gate B');
    const again = await boot({}, saved);
    expect(again.names(gate.id)).toEqual(allNamed('Gate B'));
    expect(infos(again.log, 'named')).toEqual([]);
    await again.platform.shutdown();
  });
});

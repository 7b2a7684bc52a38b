// The README's split of a large account: two AccessControl entries, each on its own child bridge, each paired like an iPhone and showing only its controllers' doors.
import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, STOP_BUDGET_MS, waitForChildBridge } from '../../dev/harness/homebridge-process.js';
import type { ChildBridge } from '../../dev/harness/homebridge-process.js';
import { pairController } from '../../dev/harness/homekit-controller.js';
import { HAP_CHARACTERISTIC, HAP_SERVICE } from '../../dev/harness/hap-types.js';
import type { HapAccessory, HomeKitController } from '../../dev/harness/homekit-controller.js';
import {
  makeDoor,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
  SAMPLE_SHARED_DEVICE_ID,
  SAMPLE_SHARED_GATE_ID,
} from '../../dev/simulator/server.js';
import { expectOnlyHomebridgePlumbingLeft, platformEntry, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-f5d7a9f89b0b';
/** The smallest poll interval the config allows, so a door added to the account shows up soon. */
const POLL_INTERVAL_S = 5;
/** A child bridge listens after the main bridge: Homebridge forks it, it loads the plugin and opens its own HAP server. */
const CHILD_BRIDGE_WAIT_MS = 60_000;
/** From a bridge listening (or the account gaining a door) to the door in HomeKit: a sync or two, on a shared machine. */
const DOOR_WAIT_MS = 25_000;
/** Not the main bridge's setup code (BRIDGE_PIN), so pairing with it must fail. */
const WRONG_PIN = '111-22-333';
/** hap-controller's error when the bridge answers pair-setup M4 with kTLVError_Authentication (2): a wrong setup code. */
const WRONG_PIN_ERROR = /M4: Error: 2\b/;
/**
 * Homebridge 1.11's warning at every start, on stderr: a timestamp alone (the message starts with blank lines),
 * its title, and lines starting with "> ". Homebridge 2 prints none.
 */
const HOMEBRIDGE_NOTICE_LINE = /^(\[[^\]]+\] *)?$|^NOTICE TO USERS AND PLUGIN DEVELOPERS$|^> /;
/** The bridge accessory itself always has aid 1; the doors are bridged behind it. */
const BRIDGE_AID = 1;

/** A door the account gains while Homebridge runs, on each controller. */
const LATER_OWNED_DOOR = makeDoor({ id: '3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a04', name: 'Side Gate', entityNumber: 3 });
const LATER_SHARED_DOOR = makeDoor({
  id: '3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a05',
  name: 'Back Gate',
  entityNumber: 2,
  userRelationship: 'Has Access',
});

interface DoorSeen {
  name: string;
  serial: string;
}

const door = (name: string, serial: string): DoorSeen => ({ name, serial });
/** The sample account, split as the two entries split it: by controller. */
const OWNED_SHARE = [door('Front Gate', SAMPLE_FRONT_GATE_ID), door('Garage Door', SAMPLE_GARAGE_DOOR_ID)];
const SHARED_SHARE = [door('Shared Gate', SAMPLE_SHARED_GATE_ID)];

/** A child bridge's HAP identity: locally administered like the main bridge's, 0E:AC:xx:xx:xx:xx as in the README. */
function childUsername(): string {
  return ['0E', 'AC', ...[...randomBytes(4)].map((b) => b.toString(16).padStart(2, '0').toUpperCase())].join(':');
}

/** Ports free a moment ago, none the same: the main bridge's and one per child bridge. */
async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

function infoValue(accessory: HapAccessory, characteristic: string): unknown {
  const info = accessory.services.find((s) => s.type === HAP_SERVICE.AccessoryInformation);
  return info?.characteristics.find((c) => c.type === characteristic)?.value;
}

/** Every accessory a controller sees behind a bridge, but the bridge itself. */
async function bridged(controller: HomeKitController): Promise<HapAccessory[]> {
  return (await controller.accessories()).filter((a) => a.aid !== BRIDGE_AID);
}

/** What the Home app lists for a bridge: each door's name and serial number (= door id), by serial. */
async function doorsOn(controller: HomeKitController): Promise<DoorSeen[]> {
  const accessories = await bridged(controller);
  for (const accessory of accessories) {
    expect(
      accessory.services.map((s) => s.type),
      `accessory ${accessory.aid} is a garage door`,
    ).toContain(HAP_SERVICE.GarageDoorOpener);
  }
  return accessories
    .map((a) => door(String(infoValue(a, HAP_CHARACTERISTIC.Name)), String(infoValue(a, HAP_CHARACTERISTIC.SerialNumber))))
    .sort((a, b) => a.serial.localeCompare(b.serial));
}

/** aid of each door by serial: HomeKit keeps rooms and automations by it. */
async function aidsBySerial(controller: HomeKitController): Promise<Record<string, number>> {
  return Object.fromEntries((await bridged(controller)).map((a) => [String(infoValue(a, HAP_CHARACTERISTIC.SerialNumber)), a.aid]));
}

/** The main bridge's port, then the child bridges' (Gates A, Gates B), as written in config.json. */
let ports: number[] = [];
let platforms: Record<string, unknown>[] = [];
const rig = useHomebridge({
  simulator: { accessToken: TOKEN },
  beforeHomebridge: async (sim) => {
    ports = await distinctFreePorts(3);
    const [, ownedPort, sharedPort] = ports;
    // As in the README's Limits section: one entry per child bridge, the account split by controller.
    const entry = (options: Record<string, unknown>) => platformEntry(sim.baseUrl, TOKEN, { pollInterval: POLL_INTERVAL_S, ...options });
    platforms = [
      entry({ name: 'Gates A', includeDeviceIds: [SAMPLE_OWNED_DEVICE_ID], _bridge: { username: childUsername(), port: ownedPort } }),
      entry({ name: 'Gates B', excludeDeviceIds: [SAMPLE_OWNED_DEVICE_ID], _bridge: { username: childUsername(), port: sharedPort } }),
    ];
  },
  platforms: () => platforms,
  homebridge: () => ({ bridgePort: ports[0] }),
  // The child bridges are paired by the tests, the main bridge later: it holds nothing of the platform.
  pair: false,
});

/** Waits for the child bridges of both entries to listen. */
async function childBridges(): Promise<[ChildBridge, ChildBridge]> {
  const [entryA, entryB] = platforms;
  if (!entryA || !entryB) throw new Error('two platform entries expected');
  return Promise.all([waitForChildBridge(rig.hb, entryA, CHILD_BRIDGE_WAIT_MS), waitForChildBridge(rig.hb, entryB, CHILD_BRIDGE_WAIT_MS)]);
}

/** The entry with the owned controller's doors, and the one with every other door. */
let owned: ChildBridge;
let shared: ChildBridge;
let mainController: HomeKitController | undefined;
let ownedController: HomeKitController | undefined;
let sharedController: HomeKitController | undefined;
/** What Homebridge wrote to stderr before the restart. */
let earlierStderr = '';

beforeAll(async () => {
  [owned, shared] = await childBridges();
});

// Registered after the rig's hooks: runs before the rig stops Homebridge.
afterAll(async () => {
  await Promise.all(
    [mainController, ownedController, sharedController]
      .filter((controller) => controller !== undefined)
      .map((controller) => controller.close()),
  );
});

describe('two entries of the platform, each on its own child bridge', () => {
  it('starts both child bridges on their own ports, next to the main bridge', () => {
    expect([owned.name, shared.name]).toEqual(['Gates A', 'Gates B']);
    expect([rig.hb.port, owned.port, shared.port]).toEqual(ports);
  });

  it("pairs each child bridge like an iPhone, with the main bridge's setup code (no _bridge.pin)", async () => {
    expect([owned.pin, shared.pin]).toEqual([rig.hb.pin, rig.hb.pin]);
    // The code matters: a wrong one is refused, as the Home app would say "incorrect setup code".
    await expect(pairController({ ...owned, pin: WRONG_PIN })).rejects.toThrow(WRONG_PIN_ERROR);
    ownedController = await pairController(owned);
    sharedController = await pairController(shared);
    // What the Home app shows for each bridge: its own name, with the 4 hex digits HAP-NodeJS adds.
    for (const [controller, bridge] of [
      [ownedController, owned],
      [sharedController, shared],
    ] as const) {
      expect(await controller.read(await controller.findCharacteristic(BRIDGE_AID, 'AccessoryInformation', 'Name'))).toBe(
        bridge.displayName,
      );
      expect(await controller.read(await controller.findCharacteristic(BRIDGE_AID, 'AccessoryInformation', 'SerialNumber'))).toBe(
        bridge.username,
      );
    }
  });

  it("shows on each child bridge exactly its controllers' garage doors, no door on both and none on the main bridge", async () => {
    const [a, b] = [ownedController, sharedController];
    if (!a || !b) throw new Error('the child bridges were not paired');
    await Promise.all([
      ...OWNED_SHARE.map((d) => a.waitForAccessory(d.serial, DOOR_WAIT_MS)),
      ...SHARED_SHARE.map((d) => b.waitForAccessory(d.serial, DOOR_WAIT_MS)),
    ]);
    expect(await doorsOn(a)).toEqual(OWNED_SHARE);
    expect(await doorsOn(b)).toEqual(SHARED_SHARE);
    // Every door of the account has a bridge, and only one: the "Added" line names the entry that shows it.
    for (const [prefix, share] of [
      ['Gates A', OWNED_SHARE],
      ['Gates B', SHARED_SHARE],
    ] as const) {
      for (const d of share) {
        expect(
          rig.hb
            .log()
            .split('\n')
            .filter((line) => line.includes(`Added ${d.name} to HomeKit (door ${d.serial}`)),
        ).toEqual([expect.stringContaining(`[${prefix}] Added ${d.name}`)]);
      }
    }
    // The platform runs in the child bridges only: the main bridge, paired as well, holds nothing of it.
    mainController = await pairController(rig.hb);
    expect(await bridged(mainController)).toEqual([]);
  });

  it('puts a door the account gains later on the bridge of its controller only', async () => {
    if (!ownedController || !sharedController) throw new Error('the child bridges were not paired');
    rig.sim.addDoor(SAMPLE_OWNED_DEVICE_ID, LATER_OWNED_DOOR);
    rig.sim.addDoor(SAMPLE_SHARED_DEVICE_ID, LATER_SHARED_DOOR);
    // The sync that brings each bridge its new door also saw the other one: no waiting on the clock.
    await ownedController.waitForAccessory(LATER_OWNED_DOOR.id, DOOR_WAIT_MS);
    await sharedController.waitForAccessory(LATER_SHARED_DOOR.id, DOOR_WAIT_MS);
    expect(await doorsOn(ownedController)).toEqual([...OWNED_SHARE, door(LATER_OWNED_DOOR.name, LATER_OWNED_DOOR.id)]);
    expect(await doorsOn(sharedController)).toEqual([...SHARED_SHARE, door(LATER_SHARED_DOOR.name, LATER_SHARED_DOOR.id)]);
  });

  it('after a restart, each child bridge brings back its own doors under the same accessory ids, still paired', async () => {
    if (!ownedController || !sharedController || !mainController) throw new Error('the bridges were not paired');
    const aidsBefore = [await aidsBySerial(ownedController), await aidsBySerial(sharedController)];
    const ownedDoors = await doorsOn(ownedController);
    const sharedDoors = await doorsOn(sharedController);
    await rig.restart({
      // Each child bridge waits on its channel to the main process, which waits for them, until Homebridge's force-exit:
      // neither exits by itself (Homebridge's design), so what is asserted is that nothing but that plumbing was left.
      checkStop: async (stopped, before) => {
        expect(stopped.killed).toBe(false);
        expect(stopped.ms).toBeLessThan(STOP_BUDGET_MS);
        await expectOnlyHomebridgePlumbingLeft(before, 2);
        earlierStderr = before.stderr();
      },
    });
    [owned, shared] = await childBridges();
    expect([rig.hb.port, owned.port, shared.port]).toEqual(ports);
    // Each child bridge keeps its own accessory cache, named by its username, holding its doors only.
    for (const [bridge, doors] of [
      [owned, ownedDoors],
      [shared, sharedDoors],
    ] as const) {
      const cacheName = `cachedAccessories.${bridge.username.replace(/:/g, '')}`;
      await rig.hb.waitForLog(new RegExp(`Loaded ${doors.length} cached accessories from ${cacheName}\\.`), CHILD_BRIDGE_WAIT_MS);
    }
    await Promise.all([ownedController.reconnect(owned), sharedController.reconnect(shared), mainController.reconnect(rig.hb)]);
    expect([await aidsBySerial(ownedController), await aidsBySerial(sharedController)]).toEqual(aidsBefore);
    expect([await doorsOn(ownedController), await doorsOn(sharedController)]).toEqual([ownedDoors, sharedDoors]);
    expect(await bridged(mainController)).toEqual([]);
  });

  it('logs no configuration problem and no error', () => {
    const log = rig.wholeLog();
    expect(log).not.toMatch(/configuration is not valid/i);
    expect(log).not.toMatch(/In the configuration,/);
    // Homebridge writes warnings and errors, its own and its child bridges', to stderr: nothing but its notice.
    const stderrLines = (earlierStderr + rig.hb.stderr()).split('\n').filter((line) => !HOMEBRIDGE_NOTICE_LINE.test(line));
    expect(stderrLines).toEqual([]);
  });
});

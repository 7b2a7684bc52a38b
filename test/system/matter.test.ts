// The doors on Matter (issue 23) on the Homebridge 2.4 double and its Matter controller, against the simulator: what a
// Google Home or Alexa user sees (devices, their state, reachability) and what the doors receive (toggles).
import * as hap from 'hap-nodejs';
import { afterEach, describe, expect, it } from 'vitest';

import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_OWNED_DEVICE_ID, SAMPLE_SHARED_GATE_ID } from '../../dev/simulator/server.js';
import { matterName, matterSerial } from '../../src/matter/matter-doors.js';
import { HomebridgeDouble } from '../support/homebridge-double.js';
import { Homebridge2Double, LockState, MatterApiDouble, matterSettled } from '../support/matter-double.js';
import type { SavedMatterDevice } from '../support/matter-double.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { togglesReceived, useSimulator } from '../support/simulator.js';
import { sleep } from '../support/wait.js';

const TOKEN = 'matter-token-4c1e9a';
const ALL_DOORS = [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID];

let sim: AccessControlSimulator;
const running = shutDownAfterEach();

useSimulator({ accessToken: TOKEN, travelTimeMs: 20 }, (started) => (sim = started));

afterEach(() => {
  sim.setOutage(false);
  sim.setDeviceActive(SAMPLE_OWNED_DEVICE_ID, true);
  sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED');
});

/** Boots on Homebridge 2.4 with `matter` set, from `api`'s caches, and runs the first sync. */
async function boot(config: Record<string, unknown>, api: HomebridgeDouble = new Homebridge2Double()) {
  const rig = await bootSynced(sim, { accessToken: TOKEN, pollInterval: 15, ...config }, { api, running, firstSync: false });
  await matterSettled();
  await rig.poll();
  await matterSettled();
  return rig;
}

const matterOf = (api: HomebridgeDouble): MatterApiDouble => {
  const matter = api instanceof Homebridge2Double ? api.matter : undefined;
  if (!matter) throw new Error('no Matter on this double');
  return matter;
};
const deviceOf = (api: HomebridgeDouble, doorId: string) => matterOf(api).device(matterSerial(doorId));
const lockStateOf = (api: HomebridgeDouble, doorId: string) => deviceOf(api, doorId)?.clusters.doorLock?.lockState;
const uuidOf = (api: HomebridgeDouble, doorId: string): string => deviceOf(api, doorId)?.uuid ?? 'none';

describe('matter: "locks"', () => {
  it('registers every shown door as a DoorLock named as in HomeKit, with its true state and a Normal operating mode', async () => {
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN');
    const { api, log } = await boot({ matter: 'locks' });
    const matter = matterOf(api);
    expect(matter.errors).toEqual([]);
    expect([...matter.devices.values()].map((d) => [d.serialNumber, d.deviceType]).sort()).toEqual(
      ALL_DOORS.map((id) => [matterSerial(id), 'DoorLock']).sort(),
    );
    const gate = deviceOf(api, SAMPLE_FRONT_GATE_ID);
    expect(gate?.displayName).toBe(api.accessory(SAMPLE_FRONT_GATE_ID)?.displayName);
    expect(gate?.clusters.doorLock).toMatchObject({ lockState: LockState.Unlocked, operatingMode: 0, actuatorEnabled: true });
    expect(lockStateOf(api, SAMPLE_GARAGE_DOOR_ID)).toBe(LockState.Locked);
    expect(gate?.clusters.bridgedDeviceBasicInformation?.reachable).toBe(true);
    // One batch, one line.
    expect(matter.registrations).toHaveLength(1);
    expect(log.texts('info').filter((t) => t.includes('to Matter'))).toEqual(['Added 3 doors to Matter (Google Home, Alexa) as locks.']);
  });

  it('unlocks with one OPEN toggle and locks with one CLOSED toggle, through the same path as HomeKit', async () => {
    const { api, poll } = await boot({ matter: 'locks' });
    const matter = matterOf(api);
    const uuid = uuidOf(api, SAMPLE_FRONT_GATE_ID);
    const before = togglesReceived(sim, SAMPLE_FRONT_GATE_ID).length;
    expect(await matter.command(uuid, 'unlockDoor')).toBe('Success');
    await matterSettled();
    expect(lockStateOf(api, SAMPLE_FRONT_GATE_ID)).toBe(LockState.Unlocked);
    await sleep(60);
    await poll();
    await matterSettled();
    expect(lockStateOf(api, SAMPLE_FRONT_GATE_ID)).toBe(LockState.Unlocked);
    expect(await matter.command(uuid, 'lockDoor')).toBe('Success');
    await sleep(60);
    await poll();
    await matterSettled();
    expect(lockStateOf(api, SAMPLE_FRONT_GATE_ID)).toBe(LockState.Locked);
    expect(togglesReceived(sim, SAMPLE_FRONT_GATE_ID).slice(before)).toEqual([
      { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' },
      { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'CLOSED' },
    ]);
  });

  it('sends one pulse for one wish: a second unlock while the door opens, and an unlock of an open door, send nothing', async () => {
    const { api, poll } = await boot({ matter: 'locks' });
    const matter = matterOf(api);
    const uuid = uuidOf(api, SAMPLE_FRONT_GATE_ID);
    const before = togglesReceived(sim, SAMPLE_FRONT_GATE_ID).length;
    const [first, second] = await Promise.all([matter.command(uuid, 'unlockDoor'), matter.command(uuid, 'unlockDoor')]);
    expect([first, second]).toEqual(['Success', 'Success']);
    await sleep(60);
    await poll();
    expect(await matter.command(uuid, 'unlockDoor')).toBe('Success');
    expect(togglesReceived(sim, SAMPLE_FRONT_GATE_ID).slice(before)).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);
  });

  it('refuses to unlock a read-only door with a Matter error, sends no toggle, and keeps showing it locked', async () => {
    const { api, log } = await boot({ matter: 'locks', doors: [{ id: SAMPLE_FRONT_GATE_ID, readOnly: true }] });
    const matter = matterOf(api);
    const before = togglesReceived(sim).length;
    expect(await matter.command(uuidOf(api, SAMPLE_FRONT_GATE_ID), 'unlockDoor')).toBe('UnsupportedAccess');
    await matterSettled();
    await sleep(60);
    expect(togglesReceived(sim).length).toBe(before);
    expect(lockStateOf(api, SAMPLE_FRONT_GATE_ID)).toBe(LockState.Locked);
    expect(log.texts('warn').some((t) => t.includes('read-only in the plugin settings'))).toBe(true);
  });

  it('shows a door that did not get where a command sent it as not fully locked, until it reports a state again', async () => {
    const { api, poll, clock } = await boot({ matter: 'locks', transitionTimeout: 10 });
    const matter = matterOf(api);
    sim.setTravelTime(600_000);
    try {
      expect(await matter.command(uuidOf(api, SAMPLE_FRONT_GATE_ID), 'unlockDoor')).toBe('Success');
      clock.advance(11_000);
      await poll();
      await matterSettled();
      expect(lockStateOf(api, SAMPLE_FRONT_GATE_ID)).toBe(LockState.NotFullyLocked);
      sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN');
      await poll();
      await matterSettled();
      expect(lockStateOf(api, SAMPLE_FRONT_GATE_ID)).toBe(LockState.Unlocked);
    } finally {
      sim.setTravelTime(20);
    }
  });

  it('shows a door moved by someone else at the sync that reports it, not later', async () => {
    const { api, poll } = await boot({ matter: 'locks' });
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN');
    await poll();
    await matterSettled();
    expect(lockStateOf(api, SAMPLE_GARAGE_DOOR_ID)).toBe(LockState.Unlocked);
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'CLOSED');
    await poll();
    await matterSettled();
    expect(lockStateOf(api, SAMPLE_GARAGE_DOOR_ID)).toBe(LockState.Locked);
  });

  it('shows a door unreachable while its controller is inactive, and reachable again after', async () => {
    const { api, poll } = await boot({ matter: 'locks' });
    const reachable = () => deviceOf(api, SAMPLE_FRONT_GATE_ID)?.clusters.bridgedDeviceBasicInformation?.reachable;
    sim.setDeviceActive(SAMPLE_OWNED_DEVICE_ID, false);
    await poll();
    await matterSettled();
    expect(reachable()).toBe(false);
    sim.setDeviceActive(SAMPLE_OWNED_DEVICE_ID, true);
    await poll();
    await matterSettled();
    expect(reachable()).toBe(true);
  });

  it('shows every door unreachable while the account cannot be read, and reachable again once it can', async () => {
    const { api, poll } = await boot({ matter: 'locks' });
    const reachable = () => ALL_DOORS.map((id) => deviceOf(api, id)?.clusters.bridgedDeviceBasicInformation?.reachable);
    sim.setOutage(true);
    await poll(3);
    await matterSettled();
    expect(reachable()).toEqual([false, false, false]);
    sim.setOutage(false);
    await poll();
    await matterSettled();
    expect(reachable()).toEqual([true, true, true]);
  });
});

describe('matter: "sensors"', () => {
  it('registers every door as a ContactSensor (true is closed) that follows the door, with no command', async () => {
    const { api, poll, log } = await boot({ matter: 'sensors' });
    const gate = deviceOf(api, SAMPLE_FRONT_GATE_ID);
    expect(gate?.deviceType).toBe('ContactSensor');
    expect(gate?.handlers).toBeUndefined();
    expect(gate?.clusters.booleanState?.stateValue).toBe(true);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN');
    await poll();
    await matterSettled();
    expect(deviceOf(api, SAMPLE_FRONT_GATE_ID)?.clusters.booleanState?.stateValue).toBe(false);
    expect(log.texts('info')).toContain('Added 3 doors to Matter (Google Home, Alexa) as contact sensors.');
  });
});

describe('which doors are on Matter', () => {
  it('leaves hidden and filtered-out doors off Matter, as off HomeKit, and removes a door hidden later', async () => {
    const first = await boot({ matter: 'locks', excludeDoorIds: [SAMPLE_SHARED_GATE_ID] });
    expect(deviceOf(first.api, SAMPLE_SHARED_GATE_ID)).toBeUndefined();
    expect(deviceOf(first.api, SAMPLE_FRONT_GATE_ID)).toBeDefined();
    await first.platform.shutdown();

    // Restart with the front gate hidden: it leaves Matter even though Homebridge restored it from its cache.
    const api = new Homebridge2Double(first.api.savedCache(), new MatterApiDouble(matterOf(first.api).saved()));
    const second = await boot(
      { matter: 'locks', excludeDoorIds: [SAMPLE_SHARED_GATE_ID], doors: [{ id: SAMPLE_FRONT_GATE_ID, hide: true }] },
      api,
    );
    expect(deviceOf(second.api, SAMPLE_FRONT_GATE_ID)).toBeUndefined();
    expect(deviceOf(second.api, SAMPLE_GARAGE_DOOR_ID)?.handlers).toBeDefined();
    expect(matterOf(second.api).errors).toEqual([]);
  });

  it('names a door within 32 characters, cut between characters, and gives each door its own serial number', async () => {
    // The 32nd character is a g with a combining diaeresis: two UTF-16 units that must stay together.
    const long = 'Tiefgarage Nordflügel Einfahrt g\u0308ate';
    sim.renameDoor(SAMPLE_FRONT_GATE_ID, long);
    try {
      const { api } = await boot({ matter: 'locks' });
      const name = deviceOf(api, SAMPLE_FRONT_GATE_ID)?.displayName ?? '';
      expect(name).toBe('Tiefgarage Nordflügel Einfahrt');
      expect(new Set(ALL_DOORS.map((id) => matterSerial(id))).size).toBe(3);
      expect(matterOf(api).errors).toEqual([]);
    } finally {
      sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Front Gate');
    }
  });
});

describe('names on Matter', () => {
  const labelOf = (api: HomebridgeDouble, doorId: string): unknown =>
    deviceOf(api, doorId)?.clusters.bridgedDeviceBasicInformation?.nodeLabel;

  afterEach(() => sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Front Gate'));

  it('follows a rename in the account at the next sync, as HomeKit does', async () => {
    const { api, poll } = await boot({ matter: 'locks' });
    expect(labelOf(api, SAMPLE_FRONT_GATE_ID)).toBe('Front Gate');
    sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Main Gate');
    await poll();
    await matterSettled();
    expect(api.accessory(SAMPLE_FRONT_GATE_ID)?.displayName).toBe('Main Gate');
    expect(labelOf(api, SAMPLE_FRONT_GATE_ID)).toBe('Main Gate');
    expect(labelOf(api, SAMPLE_GARAGE_DOOR_ID)).toBe(deviceOf(api, SAMPLE_GARAGE_DOOR_ID)?.displayName);
    expect(matterOf(api).errors).toEqual([]);
  });

  it('sends the new name again at the next sync when Homebridge refused it once', async () => {
    const { api, poll, log } = await boot({ matter: 'locks' });
    // A second sync, so that nothing is pushed again by force after the registration any more.
    await poll();
    await matterSettled();
    matterOf(api).refuseNextUpdate.add('bridgedDeviceBasicInformation');
    sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Main Gate');
    await poll();
    await matterSettled();
    expect(labelOf(api, SAMPLE_FRONT_GATE_ID)).toBe('Front Gate');
    expect(log.texts('debug').some((t) => t.includes('Matter did not take the state of Main Gate'))).toBe(true);
    await poll();
    await matterSettled();
    expect(labelOf(api, SAMPLE_FRONT_GATE_ID)).toBe('Main Gate');
  });

  it('gives a door renamed while Homebridge was down its new name at the restart (a restored device keeps its old one)', async () => {
    const first = await boot({ matter: 'locks' });
    await first.platform.shutdown();
    sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Main Gate');
    const api = new Homebridge2Double(first.api.savedCache(), new MatterApiDouble(matterOf(first.api).saved()));
    await boot({ matter: 'locks' }, api);
    expect(labelOf(api, SAMPLE_FRONT_GATE_ID)).toBe('Main Gate');
  });

  it("leaves a name a controller gave the device, across restarts, until the door's own name changes", async () => {
    const first = await boot({ matter: 'locks' });
    const gate = deviceOf(first.api, SAMPLE_FRONT_GATE_ID);
    // A controller wrote the node label (the attribute is writable), as a user renaming the device there might.
    if (gate?.clusters.bridgedDeviceBasicInformation) gate.clusters.bridgedDeviceBasicInformation.nodeLabel = 'Einfahrt';
    await first.platform.shutdown();

    const second = new Homebridge2Double(first.api.savedCache(), new MatterApiDouble(matterOf(first.api).saved()));
    const { poll, platform } = await boot({ matter: 'locks' }, second);
    await poll();
    await matterSettled();
    expect(labelOf(second, SAMPLE_FRONT_GATE_ID)).toBe('Einfahrt');
    await platform.shutdown();

    // The cache of a plugin before it kept the label in the context: the name the device was registered with counts.
    const saved = matterOf(second).saved();
    for (const device of saved) delete (device.context as Record<string, unknown>).label;
    const third = new Homebridge2Double(second.savedCache(), new MatterApiDouble(saved));
    const rig = await boot({ matter: 'locks' }, third);
    expect(labelOf(third, SAMPLE_FRONT_GATE_ID)).toBe('Einfahrt');

    sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Main Gate');
    await rig.poll();
    await matterSettled();
    expect(labelOf(third, SAMPLE_FRONT_GATE_ID)).toBe('Main Gate');
  });

  it('takes the name a user gives the door in the Home app, cut to 32 characters', async () => {
    const { api } = await boot({ matter: 'locks' });
    const long = 'Einfahrt Tiefgarage Nord, Tor zwei';
    // The Home app writes the garage door's ConfiguredName.
    await api
      .accessory(SAMPLE_FRONT_GATE_ID)
      ?.getService(hap.Service.GarageDoorOpener)
      ?.getCharacteristic(hap.Characteristic.ConfiguredName)
      .handleSetRequest(long);
    await matterSettled();
    expect(labelOf(api, SAMPLE_FRONT_GATE_ID)).toBe(matterName(long));
    expect(matterName(long)).toHaveLength(32);
  });
});

describe('a restart', () => {
  it('moves nothing, gives the cached devices their handlers again, and replaces stale cached values with the true state', async () => {
    const first = await boot({ matter: 'locks' });
    await first.platform.shutdown();
    // The cache says the gate was unlocked; it is closed now.
    const saved: SavedMatterDevice[] = matterOf(first.api).saved();
    const gate = saved.find((d) => d.serialNumber === matterSerial(SAMPLE_FRONT_GATE_ID));
    if (gate?.clusters.doorLock) gate.clusters.doorLock.lockState = LockState.Unlocked;
    const togglesBefore = togglesReceived(sim).length;

    const api = new Homebridge2Double(first.api.savedCache(), new MatterApiDouble(saved));
    const second = await boot({ matter: 'locks' }, api);
    expect(togglesReceived(sim).length).toBe(togglesBefore);
    expect(lockStateOf(second.api, SAMPLE_FRONT_GATE_ID)).toBe(LockState.Locked);
    expect(ALL_DOORS.map((id) => deviceOf(second.api, id)?.restored)).toEqual([false, false, false]);
    // The same devices (a controller keeps their rooms and names), not new ones.
    expect(ALL_DOORS.map((id) => uuidOf(second.api, id))).toEqual(ALL_DOORS.map((id) => uuidOf(first.api, id)));
    // And the door answers a controller again.
    expect(await matterOf(second.api).command(uuidOf(second.api, SAMPLE_FRONT_GATE_ID), 'unlockDoor')).toBe('Success');
  });

  it.each([
    ['"Locks" (a near miss of locks)', 'Locks', 'locks'],
    ['{} (no value at all)', {}, 'locks'],
    ['"sensor" after sensors (a near miss)', 'sensor', 'sensors'],
    ['true after sensors (no value at all)', true, 'sensors'],
  ])(
    'keeps every door on Matter, with the same devices and its handlers, when the setting becomes %s (issue 29)',
    async (_, typo, before) => {
      const first = await boot({ matter: before });
      await first.platform.shutdown();
      const api = new Homebridge2Double(first.api.savedCache(), new MatterApiDouble(matterOf(first.api).saved()));
      const second = await boot({ matter: typo }, api);
      const matter = matterOf(second.api);
      expect(matter.devices.size).toBe(3);
      expect(ALL_DOORS.map((id) => uuidOf(second.api, id))).toEqual(ALL_DOORS.map((id) => uuidOf(first.api, id)));
      expect(ALL_DOORS.map((id) => deviceOf(second.api, id)?.deviceType)).toEqual(
        Array(3).fill(before === 'locks' ? 'DoorLock' : 'ContactSensor'),
      );
      expect(ALL_DOORS.map((id) => deviceOf(second.api, id)?.restored)).toEqual([false, false, false]);
      expect(second.log.texts('info').filter((t) => t.includes('from Matter'))).toEqual([]);
      if (before === 'locks') expect(await matter.command(uuidOf(second.api, SAMPLE_FRONT_GATE_ID), 'unlockDoor')).toBe('Success');
    },
  );

  it('removes the doors from Matter when the option is turned off while the bridge still runs Matter', async () => {
    const first = await boot({ matter: 'locks' });
    expect(matterOf(first.api).devices.size).toBe(3);
    await first.platform.shutdown();
    const api = new Homebridge2Double(first.api.savedCache(), new MatterApiDouble(matterOf(first.api).saved()));
    const second = await boot({}, api);
    expect(matterOf(second.api).devices.size).toBe(0);
    expect(second.log.texts('info').filter((t) => t.includes('from Matter'))).toHaveLength(1);
    expect(second.api.registered.size).toBe(3);
  });
});

describe('matter set but the bridge does not run Matter', () => {
  const homeKitOf = (api: HomebridgeDouble) =>
    [...api.registered.values()].map((a) => [a.displayName, a.services.map((s) => s.UUID).sort()]).sort();

  it('on Homebridge 1.11 (no Matter at all): one line saying how to turn Matter on, on a child bridge or the main one; HomeKit unchanged', async () => {
    const plain = await boot({ _bridge: { username: '0E:11:22:33:44:55', port: 51830 } }, new HomebridgeDouble());
    const withMatter = await boot({ matter: 'locks', _bridge: { username: '0E:11:22:33:44:55', port: 51830 } }, new HomebridgeDouble());
    const lines = withMatter.log.lines.filter((l) => l.text.includes('Matter'));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('warn');
    // Homebridge deletes _bridge from a child bridge's copy of the config: the line names both places.
    expect(lines[0]?.text).toContain('"_bridge" block');
    expect(lines[0]?.text).toContain('"bridge" block');
    expect(withMatter.log.lines.filter((l) => !l.text.includes('Matter'))).toEqual(plain.log.lines);
    expect(homeKitOf(withMatter.api)).toEqual(homeKitOf(plain.api));
  });

  it('on Homebridge 2 with Matter off for the bridge: the same one line, naming the child and the main bridge', async () => {
    const { log, api } = await boot({ matter: 'sensors' }, new Homebridge2Double([], null));
    const lines = log.lines.filter((l) => l.text.includes('Matter'));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.text).toContain('"_bridge" block');
    expect(lines[0]?.text).toContain('"bridge" block');
    expect(api.registered.size).toBe(3);
  });

  it('when api.matter is offered only because another bridge runs Matter: the one line, and nothing tried again', async () => {
    const matter = new MatterApiDouble([], false);
    const { log, poll } = await boot({ matter: 'locks' }, new Homebridge2Double([], matter));
    await poll(2);
    await matterSettled();
    expect(log.lines.filter((l) => l.text.includes('Matter'))).toHaveLength(1);
    expect(matter.devices.size).toBe(0);
  });
});

describe('Homebridge refusing or throwing (issue 30)', () => {
  const RESTART_AT = '2026-11-21 12:00 UTC';
  const restartWith = async (matter: MatterApiDouble, config: Record<string, unknown>, before: Record<string, unknown> = {}) => {
    const first = await boot({ matter: 'locks', ...before });
    await first.platform.shutdown();
    const saved = new MatterApiDouble(matterOf(first.api).saved());
    Object.assign(saved.refuse, matter.refuse);
    const api = new Homebridge2Double(first.api.savedCache(), saved);
    return { first, second: await boot({ matter: 'locks', ...config }, api) };
  };

  it('refuses every Matter command to a door no longer shown while Homebridge refuses its removal, and says it removed once it is', async () => {
    const refusing = new MatterApiDouble();
    refusing.refuse.unregister = Infinity;
    // Restarted with the shared gate left out: the cached door reaches Matter before the first sync tells it is shared.
    const { first, second } = await restartWith(refusing, { includeDoors: 'owned' });
    const matter = matterOf(second.api);
    const uuid = uuidOf(first.api, SAMPLE_SHARED_GATE_ID);
    const name = deviceOf(first.api, SAMPLE_SHARED_GATE_ID)?.displayName ?? '';
    expect(second.api.accessory(SAMPLE_SHARED_GATE_ID)).toBeUndefined();
    expect(matter.devices.has(uuid)).toBe(true);
    const before = togglesReceived(sim, SAMPLE_SHARED_GATE_ID).length;
    expect(await matter.command(uuid, 'unlockDoor')).toBe('Failure');
    expect(await matter.command(uuid, 'lockDoor')).toBe('Failure');
    await sleep(60);
    expect(togglesReceived(sim, SAMPLE_SHARED_GATE_ID).length).toBe(before);
    expect(second.log.texts('info').filter((t) => t.includes('from Matter'))).toEqual([]);

    // Tried again at each sync, said once.
    await second.poll(5);
    await matterSettled();
    expect(matter.devices.has(uuid)).toBe(true);
    expect(await matter.command(uuid, 'unlockDoor')).toBe('Failure');
    const refusals = second.log.lines.filter((l) => l.level !== 'debug' && l.text.includes('from Matter'));
    expect(refusals.map((l) => l.level)).toEqual(['warn']);
    expect(refusals[0]?.text).toBe(
      `Could not remove ${name} from Matter: Matter server busy. Until it is removed it refuses every command; trying again at each sync.`,
    );

    matter.refuse.unregister = 0;
    await second.poll();
    await matterSettled();
    expect(matter.devices.has(uuid)).toBe(false);
    expect(second.log.texts('info').filter((t) => t.includes('from Matter'))).toEqual([
      `Removed ${name} from Matter (Homebridge refused 6 times since ${RESTART_AT}).`,
    ]);
    // The doors still shown answer as before.
    expect(await matter.command(uuidOf(second.api, SAMPLE_FRONT_GATE_ID), 'unlockDoor')).toBe('Success');
  });

  it('refuses Matter commands to a door gone from the account until Homebridge removes it, and adds it again after when it is back', async () => {
    const { api, poll, log } = await boot({ matter: 'locks' });
    const matter = matterOf(api);
    const uuid = uuidOf(api, SAMPLE_FRONT_GATE_ID);
    const door = sim.getDoor(SAMPLE_FRONT_GATE_ID);
    if (!door) throw new Error('no front gate in the simulator');
    matter.refuse.unregister = Infinity;
    sim.removeDoor(SAMPLE_FRONT_GATE_ID);
    try {
      // A door leaves HomeKit after two syncs without it.
      await poll(2);
      await matterSettled();
      expect(api.accessory(SAMPLE_FRONT_GATE_ID)).toBeUndefined();
      const before = togglesReceived(sim).length;
      expect(await matter.command(uuid, 'unlockDoor')).toBe('Failure');
      // Back in the account while Homebridge still keeps the old device: it waits for the removal, and refuses meanwhile.
      sim.addDoor(SAMPLE_OWNED_DEVICE_ID, door);
      await poll(2);
      await matterSettled();
      expect(api.accessory(SAMPLE_FRONT_GATE_ID)).toBeDefined();
      expect(await matter.command(uuid, 'unlockDoor')).toBe('Failure');
      await sleep(60);
      expect(togglesReceived(sim).length).toBe(before);
      expect(log.texts('info').filter((t) => t.includes('Front Gate from Matter'))).toEqual([]);
      expect(matter.registrations).toHaveLength(1);

      matter.refuse.unregister = 0;
      await poll(3);
      await matterSettled();
      expect(log.texts('info').filter((t) => t.includes('Front Gate') && t.includes('Matter'))).toEqual([
        'Removed Front Gate from Matter (Homebridge refused 3 times since 2026-11-21 12:00 UTC).',
        'Added Front Gate to Matter (Google Home, Alexa) as locks.',
      ]);
      expect(matter.errors).toEqual([]);
      expect(await matter.command(uuidOf(api, SAMPLE_FRONT_GATE_ID), 'unlockDoor')).toBe('Success');
    } finally {
      if (!sim.getDoor(SAMPLE_FRONT_GATE_ID)) sim.addDoor(SAMPLE_OWNED_DEVICE_ID, door);
    }
  });

  it('gives a door renamed while Homebridge was down its new name once a registration succeeds, when the first was refused', async () => {
    const refusing = new MatterApiDouble();
    refusing.refuse.register = 1;
    const first = await boot({ matter: 'locks' });
    await first.platform.shutdown();
    sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Main Gate');
    try {
      const saved = new MatterApiDouble(matterOf(first.api).saved());
      saved.refuse.register = 1;
      const api = new Homebridge2Double(first.api.savedCache(), saved);
      const { poll } = await boot({ matter: 'locks' }, api);
      const label = () => deviceOf(api, SAMPLE_FRONT_GATE_ID)?.clusters.bridgedDeviceBasicInformation?.nodeLabel;
      await poll(2);
      await matterSettled();
      expect(deviceOf(api, SAMPLE_FRONT_GATE_ID)?.restored).toBe(false);
      expect(label()).toBe('Main Gate');
      expect((deviceOf(api, SAMPLE_FRONT_GATE_ID)?.context as Record<string, unknown>).label).toBe('Main Gate');
    } finally {
      sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Front Gate');
    }
  });

  it('says a refused registration once, and when it ends with how often and since when', async () => {
    const matter = new MatterApiDouble();
    matter.refuse.register = Infinity;
    const { log, poll } = await boot({ matter: 'locks' }, new Homebridge2Double([], matter));
    await poll(40);
    await matterSettled();
    const lines = () => log.lines.filter((l) => l.level !== 'debug' && l.text.includes('to Matter'));
    expect(lines()).toEqual([
      { level: 'warn', text: 'Could not add 3 doors to Matter: Matter server busy. Trying again at each sync; said again once it works.' },
    ]);
    matter.refuse.register = 0;
    await poll();
    await matterSettled();
    expect(lines().slice(1)).toEqual([
      { level: 'info', text: `Added 3 doors to Matter (Google Home, Alexa) as locks (Homebridge refused 41 times since ${RESTART_AT}).` },
    ]);
    expect(matter.devices.size).toBe(3);
  });

  const unhandled = () => {
    const seen: unknown[] = [];
    const listener = (reason: unknown) => seen.push(reason);
    process.on('unhandledRejection', listener);
    return { seen, stop: () => process.off('unhandledRejection', listener) };
  };

  it('contains isMatterEnabled() throwing: one line, every door on HomeKit, no unhandled rejection', async () => {
    const rejections = unhandled();
    try {
      const api = new Homebridge2Double();
      api.matterEnabledError = new TypeError("Cannot read properties of undefined (reading 'matter')");
      const { log, poll } = await boot({ matter: 'locks' }, api);
      await poll(3);
      await matterSettled();
      await sleep(10);
      expect(rejections.seen).toEqual([]);
      expect(log.lines.filter((l) => l.text.includes('Matter'))).toEqual([
        {
          level: 'warn',
          text: `"Google Home and Alexa (Matter)" is set to locks, but Homebridge could not say whether this bridge runs Matter (Cannot read properties of undefined (reading 'matter')), so the doors are on HomeKit only. Restart Homebridge; if it stays, report it to Homebridge.`,
        },
      ]);
      expect(api.registered.size).toBe(3);
      expect(matterOf(api).devices.size).toBe(0);
    } finally {
      rejections.stop();
    }
  });

  it.each(['registerPlatformAccessories', 'updateAccessoryState'] as const)(
    'contains %s throwing at once: at most one line, every door on HomeKit, no unhandled rejection',
    async (call) => {
      const rejections = unhandled();
      try {
        const matter = new MatterApiDouble();
        matter.throwing.add(call);
        const { log, poll, api } = await boot({ matter: 'locks' }, new Homebridge2Double([], matter));
        sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN');
        await poll(5);
        await matterSettled();
        await sleep(10);
        expect(rejections.seen).toEqual([]);
        expect(log.lines.filter((l) => l.level !== 'debug' && l.text.includes('Matter') && !l.text.startsWith('Added'))).toHaveLength(
          call === 'registerPlatformAccessories' ? 1 : 0,
        );
        expect(log.texts('error')).toEqual([]);
        expect(api.registered.size).toBe(3);
      } finally {
        rejections.stop();
      }
    },
  );
});

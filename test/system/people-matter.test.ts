// Person sensors on Matter (issue 31) on the Homebridge 2.4 double: each person an occupancy sensor beside the doors, occupied
// while their HomeKit sensor detects, on a simulated clock; renamed, removed, turned off, kept through a restart and through
// a Matter setting that cannot be read, and Homebridge refusing or throwing, as a Google Home or Alexa user sees it.
import * as hap from 'hap-nodejs';
import type { PlatformAccessory } from 'homebridge';
import { describe, expect, it, vi } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_PEOPLE } from '../../dev/simulator/server.js';
import { matterSerial } from '../../src/matter/matter-doors.js';
import { ManualClock } from '../support/homebridge-double.js';
import { Homebridge2Double, MatterApiDouble, matterSettled } from '../support/matter-double.js';
import type { MatterDevice } from '../support/matter-double.js';
import { bootPlatform, shutDownAfterEach } from '../support/platform-rig.js';
import { simulatorPerTest } from '../support/simulator.js';

const { Characteristic: C, Service: S } = hap;
const TOKEN = 'people-matter-token-3b9e';
const API_KEY = 'ef'.repeat(48);
const DURATION_S = 20;
const { grace, alan } = SAMPLE_PEOPLE;
const GRACE = { name: 'Grace', user: 'grace@example.com' };
const ALAN = { name: 'Alan', user: 'alan@example.com' };
/** The first start's time, as the refusal lines say it. */
const STARTED_AT = '2026-11-21 12:00 UTC';

const startSimulator = simulatorPerTest();
const running = shutDownAfterEach();

interface BootWith {
  /** Homebridge's Matter side, with the Matter cache of a previous start; a new one by default. */
  matter?: MatterApiDouble;
  /** The HomeKit cache of a previous start. */
  cache?: ReturnType<Homebridge2Double['savedCache']>;
  /** false: no webhook listener (the toggle history alone tells who moved a door). */
  webhook?: boolean;
  sim?: AccessControlSimulator;
  clock?: ManualClock;
}

/** Boots on Homebridge 2.4 with Matter on the bridge, runs the first sync, and lets Matter's registrations take place. */
async function boot(options: Record<string, unknown>, how: BootWith = {}) {
  const { matter = new MatterApiDouble(), clock = new ManualClock() } = how;
  const sim = how.sim ?? (await startSimulator({ accessToken: TOKEN, travelTimeMs: 0, now: () => clock.now() }));
  const listener = how.webhook === false ? undefined : { port: await freePort(), host: '127.0.0.1', apiKey: API_KEY };
  const settings = { accessToken: TOKEN, pollInterval: 15, personSensorDuration: DURATION_S, ...(listener && { webhook: listener }) };
  const api = new Homebridge2Double(how.cache ?? [], matter);
  const { log, platform } = bootPlatform({ ...settings, baseUrl: sim.baseUrl, ...options }, { clock, api });
  running.push(platform);
  /** Moves the simulated clock, then lets the syncs due and Matter's deferred registrations and updates take place. */
  const wait = async (ms: number): Promise<void> => {
    clock.advance(ms);
    await platform.syncSettled();
    await matterSettled();
  };
  await wait(0);
  await wait(0);
  const texts = (level: string): string[] => log.lines.filter((l) => l.level === level).map((l) => l.text);
  if (listener) {
    await vi.waitFor(() => expect(texts('info').some((t) => t.startsWith('Webhook listener on'))).toBe(true));
    sim.setWebhook({ url: `http://127.0.0.1:${listener.port}/`, apiKey: API_KEY });
  }
  const homeKitPerson = (name: string): PlatformAccessory | undefined =>
    [...api.registered.values()].find(
      (a) => typeof (a.context as { personUser?: unknown }).personUser === 'string' && a.displayName === name,
    );
  const detected = (name: string): unknown =>
    homeKitPerson(name)?.getServiceById(S.MotionSensor, 'person')?.getCharacteristic(C.MotionDetected).value;
  /** The people's devices on Matter, as a controller sees them: the bridge's occupancy sensors. */
  const people = (): MatterDevice[] => [...matter.devices.values()].filter((d) => d.deviceType === 'OccupancySensor');
  const device = (name: string): MatterDevice | undefined =>
    people().find((d) => d.clusters.bridgedDeviceBasicInformation?.nodeLabel === name);
  const occupied = (name: string): unknown =>
    (device(name)?.clusters.occupancySensing?.occupancy as { occupied?: unknown } | undefined)?.occupied;
  /** A change outside HomeKit told by webhook, applied once the door shows it. */
  const moveByWebhook = async (doorId: string, state: 'OPEN' | 'CLOSED', user = grace as typeof grace | typeof alan) => {
    sim.setDoorState(doorId, state, { user });
    await sim.flushWebhooks();
    const shown = state === 'OPEN' ? C.CurrentDoorState.OPEN : C.CurrentDoorState.CLOSED;
    await vi.waitFor(() => expect(api.characteristic(doorId, C.CurrentDoorState).value).toBe(shown));
    await matterSettled();
  };
  /** Shuts this start down and boots again from both of its caches, Homebridge's Matter one included. */
  const restart = async (next: Record<string, unknown>, more: Omit<BootWith, 'cache' | 'clock' | 'sim'> = {}) => {
    await platform.shutdown();
    const restored = new MatterApiDouble(matter.saved());
    if (more.matter) {
      Object.assign(restored.refuse, more.matter.refuse);
      for (const call of more.matter.throwing) restored.throwing.add(call);
    }
    return boot(next, { webhook: false, ...more, matter: restored, cache: api.savedCache(), clock, sim });
  };
  return { sim, api, matter, log, clock, texts, wait, homeKitPerson, detected, people, device, occupied, moveByWebhook, restart };
}

describe('people on Matter', () => {
  it('adds each person as an occupancy sensor named for them, occupied while their HomeKit sensor detects, for the set time', async () => {
    const rig = await boot({ matter: 'locks', people: [GRACE, ALAN] });
    expect(rig.people().map((d) => d.clusters.bridgedDeviceBasicInformation?.nodeLabel)).toEqual(['Grace', 'Alan']);
    // Tied to the person's user as the HomeKit accessory is: the same UUID; the serial number says nothing of their e-mail.
    const grace = rig.device('Grace');
    expect(grace?.uuid).toBe(rig.homeKitPerson('Grace')?.UUID);
    expect(grace?.serialNumber).toBe(matterSerial(grace?.uuid ?? ''));
    expect(JSON.stringify(rig.matter.saved())).not.toContain('grace@example.com');
    expect(grace?.handlers).toBeUndefined();
    expect(grace?.clusters.occupancySensing).toMatchObject({ occupancySensorType: 0, occupancySensorTypeBitmap: { pir: true } });
    expect(rig.occupied('Grace')).toBe(false);
    expect(rig.texts('info')).toContain('Added 2 people to Matter (Google Home, Alexa) as occupancy sensors.');
    expect(rig.texts('info')).toContain('Added 3 doors to Matter (Google Home, Alexa) as locks.');

    await rig.moveByWebhook(SAMPLE_FRONT_GATE_ID, 'OPEN');
    expect([rig.detected('Grace'), rig.occupied('Grace')]).toEqual([true, true]);
    expect(rig.occupied('Alan')).toBe(false);
    // A move meanwhile starts the time again, on both sides.
    await rig.wait(DURATION_S * 1000 - 5000);
    await rig.moveByWebhook(SAMPLE_FRONT_GATE_ID, 'CLOSED');
    await rig.wait(10_000);
    expect([rig.detected('Grace'), rig.occupied('Grace')]).toEqual([true, true]);
    await rig.wait(DURATION_S * 1000);
    expect([rig.detected('Grace'), rig.occupied('Grace')]).toEqual([false, false]);
    await rig.moveByWebhook(SAMPLE_GARAGE_DOOR_ID, 'OPEN', alan);
    expect([rig.occupied('Alan'), rig.occupied('Grace')]).toEqual([true, false]);
    expect(rig.matter.errors).toEqual([]);
  });

  it('is on Matter in either mode: with the doors as contact sensors too', async () => {
    const rig = await boot({ matter: 'sensors', people: [GRACE] }, { webhook: false });
    expect(rig.people()).toHaveLength(1);
    expect([...rig.matter.devices.values()].filter((d) => d.deviceType === 'ContactSensor')).toHaveLength(3);
  });

  it('keeps the same devices across a restart, unoccupied at start, renamed as the settings say, and removes a person no longer listed', async () => {
    const first = await boot({ matter: 'locks', people: [GRACE, ALAN] });
    const uuid = first.device('Grace')?.uuid;
    await first.moveByWebhook(SAMPLE_FRONT_GATE_ID, 'OPEN');
    expect(first.occupied('Grace')).toBe(true);

    // Restarted while Grace's device was occupied: the cache says so, a restart starts unoccupied.
    const second = await first.restart({ matter: 'locks', people: [{ name: 'Grace H', user: ' Grace@Example.com' }] });
    expect(second.people().map((d) => [d.clusters.bridgedDeviceBasicInformation?.nodeLabel, d.uuid, d.restored])).toEqual([
      ['Grace H', uuid, false],
    ]);
    expect(second.occupied('Grace H')).toBe(false);
    expect(second.texts('info')).toContain('Removed Alan from Matter: the person is no longer in the people settings.');
    expect(second.texts('info').filter((t) => t.includes('from Matter'))).toHaveLength(1);
    // The doors are the same devices, with their handlers: a person's device was never taken for a door, nor a door for one.
    expect([...second.matter.devices.values()].map((d) => d.deviceType).sort()).toEqual([
      'DoorLock',
      'DoorLock',
      'DoorLock',
      'OccupancySensor',
    ]);
    expect(await second.matter.command(second.matter.device(matterSerial(SAMPLE_FRONT_GATE_ID))?.uuid ?? '', 'unlockDoor')).toBe('Success');

    // It follows the HomeKit sensor again after the restart (here, the toggle history tells who moved the door).
    second.sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { user: grace, silent: true });
    await second.wait(15_000);
    await vi.waitFor(async () => {
      await matterSettled();
      expect(second.occupied('Grace H')).toBe(true);
    });
  });

  it('removes the people from Matter, keeping them in HomeKit, when Matter is turned off', async () => {
    const first = await boot({ matter: 'sensors', people: [GRACE] }, { webhook: false });
    const second = await first.restart({ people: [GRACE] });
    expect(second.matter.devices.size).toBe(0);
    expect(second.texts('info')).toContain('Removed Grace from Matter: Google Home and Alexa (Matter) is off in the plugin settings.');
    expect(second.homeKitPerson('Grace')).toBeDefined();
  });

  it('keeps the people on Matter, the same devices following their sensors, while the Matter setting cannot be read', async () => {
    const first = await boot({ matter: 'sensors', people: [GRACE] });
    const uuids = [...first.matter.devices.keys()].sort();
    const second = await first.restart({ matter: true, people: [GRACE] }, { webhook: true });
    expect([...second.matter.devices.keys()].sort()).toEqual(uuids);
    expect([...second.matter.devices.values()].map((d) => [d.deviceType, d.restored]).sort()).toEqual([
      ['ContactSensor', false],
      ['ContactSensor', false],
      ['ContactSensor', false],
      ['OccupancySensor', false],
    ]);
    expect(second.texts('info').filter((t) => t.includes('from Matter'))).toEqual([]);
    await second.moveByWebhook(SAMPLE_FRONT_GATE_ID, 'OPEN');
    expect(second.occupied('Grace')).toBe(true);
  });

  it('keeps a person on Matter, unoccupied, while an entry of people cannot be read (it may be that entry)', async () => {
    const first = await boot({ matter: 'locks', people: [GRACE, ALAN] }, { webhook: false });
    const alan = first.device('Alan')?.uuid;
    const second = await first.restart({ matter: 'locks', people: [GRACE, { name: 'Alan', usr: 42 }] });
    expect(second.people().map((d) => [d.clusters.bridgedDeviceBasicInformation?.nodeLabel, d.restored])).toEqual([
      ['Grace', false],
      ['Alan', false],
    ]);
    expect(second.device('Alan')?.uuid).toBe(alan);
    expect(second.occupied('Alan')).toBe(false);
    expect(second.texts('info').filter((t) => t.includes('from Matter'))).toEqual([]);
  });

  it('keeps a cached person on Matter, and takes no door for a person, when only people were cached and the setting cannot be read', async () => {
    const first = await boot({ matter: 'locks', people: [GRACE] }, { webhook: false });
    await first.api.shutdown();
    // Only Grace's device in Homebridge's Matter cache: it must not give the doors a mode, nor be removed.
    const saved = first.matter.saved().filter((d) => d.deviceType === 'OccupancySensor');
    const second = await boot(
      { matter: true, people: [GRACE] },
      { webhook: false, matter: new MatterApiDouble(saved), cache: first.api.savedCache(), clock: first.clock, sim: first.sim },
    );
    expect([...second.matter.devices.values()].map((d) => [d.deviceType, d.restored])).toEqual([['OccupancySensor', false]]);
    expect(second.texts('info').filter((t) => t.includes('Matter'))).toEqual([
      'Added Grace to Matter (Google Home, Alexa) as occupancy sensors.',
    ]);
  });
});

describe('a Homebridge whose Matter has no occupancy sensor', () => {
  it('keeps the doors on Matter and the people on HomeKit only, and says so once', async () => {
    const matter = new MatterApiDouble();
    Object.assign(matter, { deviceTypes: { DoorLock: matter.deviceTypes.DoorLock, ContactSensor: matter.deviceTypes.ContactSensor } });
    const rig = await boot({ matter: 'locks', people: [GRACE] }, { webhook: false, matter });
    await rig.wait(15_000);
    expect([...matter.devices.values()].map((d) => d.deviceType)).toEqual(['DoorLock', 'DoorLock', 'DoorLock']);
    expect(rig.texts('warn')).toEqual([
      "This Homebridge's Matter has no occupancy sensor, so the people are on HomeKit only (the doors are on Matter). Update Homebridge.",
    ]);
    expect(rig.homeKitPerson('Grace')).toBeDefined();
  });
});

describe('Homebridge refusing or throwing, for the people', () => {
  it('says once that the bridge does not run Matter when api.matter is offered for another bridge, and tries nothing more', async () => {
    const matter = new MatterApiDouble([], false);
    const rig = await boot({ matter: 'locks', people: [GRACE] }, { webhook: false, matter });
    await rig.wait(15_000);
    await rig.wait(15_000);
    expect(rig.log.lines.filter((l) => l.text.includes('Matter')).map((l) => l.level)).toEqual(['warn']);
    expect(matter.devices.size).toBe(0);
    expect(rig.homeKitPerson('Grace')).toBeDefined();
  });

  it('says a refused registration once, tries again at each sync, and says when it is taken', async () => {
    const matter = new MatterApiDouble();
    matter.refuse.register = 3;
    const rig = await boot({ matter: 'locks', people: [GRACE] }, { webhook: false, matter });
    await rig.wait(15_000);
    await rig.wait(15_000);
    const lines = rig.log.lines.filter((l) => l.level !== 'debug' && l.text.includes('to Matter'));
    // The people are asked for at launch, the doors at the first sync: one incident, said once, by what met it first.
    expect(lines).toEqual([
      { level: 'warn', text: 'Could not add Grace to Matter: Matter server busy. Trying again at each sync; said again once it works.' },
      { level: 'info', text: `Added 3 doors to Matter (Google Home, Alexa) as locks (Homebridge refused 3 times since ${STARTED_AT}).` },
      { level: 'info', text: 'Added Grace to Matter (Google Home, Alexa) as occupancy sensors.' },
    ]);
    expect(rig.people()).toHaveLength(1);
    expect(rig.occupied('Grace')).toBe(false);
  });

  it('keeps trying to remove a person no longer listed while Homebridge refuses, and says it once it is removed', async () => {
    const first = await boot({ matter: 'locks', people: [GRACE, ALAN] }, { webhook: false });
    const refusing = new MatterApiDouble();
    refusing.refuse.unregister = 2;
    const second = await first.restart({ matter: 'locks', people: [GRACE] }, { matter: refusing });
    expect(second.device('Alan')).toBeDefined();
    await second.wait(15_000);
    await second.wait(15_000);
    expect(second.device('Alan')).toBeUndefined();
    const lines = second.log.lines.filter((l) => l.level !== 'debug' && l.text.includes('from Matter'));
    expect(lines).toEqual([
      {
        level: 'warn',
        text: 'Could not remove Alan from Matter: Matter server busy. Until it is removed it refuses every command; trying again at each sync.',
      },
      {
        level: 'info',
        text: `Removed Alan from Matter: the person is no longer in the people settings (Homebridge refused 2 times since ${STARTED_AT}).`,
      },
    ]);
  });

  it.each(['registerPlatformAccessories', 'updateAccessoryState', 'unregisterPlatformAccessories'] as const)(
    'contains %s throwing at once: HomeKit detects as before, no error line, no unhandled rejection',
    async (call) => {
      const seen: unknown[] = [];
      const listener = (reason: unknown) => seen.push(reason);
      process.on('unhandledRejection', listener);
      try {
        const first = await boot({ matter: 'locks', people: [GRACE, ALAN] });
        const throwing = new MatterApiDouble();
        throwing.throwing.add(call);
        // Alan is left out, so that a removal is asked for too.
        const second = await first.restart({ matter: 'locks', people: [GRACE] }, { matter: throwing, webhook: true });
        await second.moveByWebhook(SAMPLE_FRONT_GATE_ID, 'OPEN');
        expect(second.detected('Grace')).toBe(true);
        await second.wait(DURATION_S * 1000);
        expect(second.detected('Grace')).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(seen).toEqual([]);
        expect(second.texts('error')).toEqual([]);
        expect(second.log.lines.filter((l) => l.level === 'warn' && l.text.includes('Matter'))).toHaveLength(
          call === 'updateAccessoryState' ? 0 : 1,
        );
        // Tried again at each sync: once Homebridge answers, Grace is on Matter and follows her sensor, and Alan is gone.
        second.matter.throwing.clear();
        // The next sync, at the safety-net pace while webhooks arrive.
        await second.wait(300_000);
        await second.moveByWebhook(SAMPLE_GARAGE_DOOR_ID, 'OPEN');
        expect(second.people().map((d) => d.clusters.bridgedDeviceBasicInformation?.nodeLabel)).toEqual(['Grace']);
        expect(second.occupied('Grace')).toBe(true);
      } finally {
        process.off('unhandledRejection', listener);
      }
    },
  );

  it('shows each person unreachable while the account cannot be read, as the doors, and reachable again once it can', async () => {
    const rig = await boot({ matter: 'locks', people: [GRACE, ALAN] }, { webhook: false });
    const reachable = () => rig.people().map((d) => d.clusters.bridgedDeviceBasicInformation?.reachable);
    expect(reachable()).toEqual([true, true]);
    rig.sim.setOutage(true);
    for (let poll = 0; poll < 3; poll += 1) await rig.wait(60_000);
    expect(reachable()).toEqual([false, false]);
    rig.sim.setOutage(false);
    await rig.wait(120_000);
    expect(reachable()).toEqual([true, true]);
  });
});

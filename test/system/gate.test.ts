// One gate for every command, from the first second (issue 49): a cached door the settings leave out leaves Home at start
// whatever the first sync answers, and a command to a door the settings or the last sync do not let through is refused.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import * as hap from 'hap-nodejs';
import type { API } from 'homebridge';
import { PlatformAccessory } from 'homebridge/lib/platformAccessory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_DEVICE_ID, SAMPLE_SHARED_GATE_ID } from '../../dev/simulator/server.js';
import type { ProtectionCache } from '../../src/config/protection-cache.js';
import { AccessControlPlatform } from '../../src/platform.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import { captureLog } from '../support/log.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { accountEdited, togglesReceived, useSimulator } from '../support/simulator.js';

const TOKEN = 'gate-token-5e1d2c';
const { TargetDoorState } = hap.Characteristic;
/** The answer that keeps the first sync from coming good for an hour. */
const TOO_MANY = { kind: 'status', status: 429, retryAfterS: 3600 } as const;

let sim: AccessControlSimulator;
/** The toggles the simulator had received before this test. */
let before = 0;
const togglesNow = () => togglesReceived(sim).slice(before);
useSimulator({ accessToken: TOKEN, travelTimeMs: 20 }, (started) => (sim = started));
beforeEach(() => (before = togglesReceived(sim).length));
afterEach(() => sim.clearFaults());
const running = shutDownAfterEach();

/** A first run that caches every door, then a restart on that cache with `config`, its first sync answered by `fault`. */
async function restartWith(config: Record<string, unknown>, fault: () => Promise<Parameters<typeof sim.setFault>[1]>) {
  const first = await bootSynced(sim, { accessToken: TOKEN }, { running });
  await first.platform.shutdown();
  sim.setFault('sync', await fault());
  return bootSynced(sim, { accessToken: TOKEN, ...config }, { api: new HomebridgeDouble(first.api.savedCache()), running });
}

describe('a cached door the settings leave out', () => {
  for (const [what, config] of [
    ['excluded', { excludeDoorIds: [SAMPLE_FRONT_GATE_ID] }],
    ['hidden', { doors: [{ id: SAMPLE_FRONT_GATE_ID, hide: true }] }],
    ['filtered out by its controller', { excludeDeviceIds: [SAMPLE_SHARED_DEVICE_ID] }],
  ] as const) {
    it(`leaves Home at start when ${what}, while the first sync is answered 429 for an hour`, async () => {
      const gone = what === 'filtered out by its controller' ? SAMPLE_SHARED_GATE_ID : SAMPLE_FRONT_GATE_ID;
      const rig = await restartWith(config, () => Promise.resolve(TOO_MANY));
      expect(rig.api.accessory(gone)).toBeUndefined();
      expect(rig.api.registered.size).toBe(2);
      expect(rig.log.texts('info').filter((t) => t.startsWith('Removed '))).toEqual([
        expect.stringMatching(/: .*\(its automations in Home go with it; set them up again if you show it again\)\.$/),
      ]);
      expect(togglesNow()).toEqual([]);
    });
  }

  it('leaves Home at start when the first sync is partial, its controller arriving without doors', async () => {
    const partial = () =>
      accountEdited(sim, TOKEN, (account) => {
        for (const device of account.devices) if (device.id === SAMPLE_SHARED_DEVICE_ID) device.doors = null;
      }).then((body) => ({ kind: 'status' as const, status: 200, body }));
    const rig = await restartWith({ excludeDoorIds: [SAMPLE_SHARED_GATE_ID] }, partial);
    expect(rig.api.accessory(SAMPLE_SHARED_GATE_ID)).toBeUndefined();
    // The doors no setting names open as before.
    await rig.api.characteristic(SAMPLE_GARAGE_DOOR_ID, TargetDoorState).handleSetRequest(TargetDoorState.OPEN);
    expect(togglesReceived(sim).map((t) => t.door_id)).toEqual([SAMPLE_GARAGE_DOOR_ID]);
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'CLOSED', { silent: true });
  });
});

describe('the gate, asked at each command', () => {
  it('refuses a door the last complete sync no longer lists, while it waits to be removed', async () => {
    const rig = await bootSynced(sim, { accessToken: TOKEN }, { running });
    const body = await accountEdited(sim, TOKEN, (account) => {
      for (const device of account.devices) device.doors = (device.doors ?? []).filter((door) => door.id !== SAMPLE_FRONT_GATE_ID);
    });
    sim.setFault('sync', { kind: 'status', status: 200, body });
    await rig.poll();
    const target = rig.api.characteristic(SAMPLE_FRONT_GATE_ID, TargetDoorState);
    await expect(target.handleSetRequest(TargetDoorState.OPEN)).rejects.toBe(hap.HAPStatus.INSUFFICIENT_PRIVILEGES);
    expect(rig.log.texts('warn')).toContain(
      'Front Gate: the command to open it was not sent: the account, as last read, does not list it.',
    );
    expect(togglesNow()).toEqual([]);
  });

  it('refuses a read-only door as it always did, before any sync came good', async () => {
    const rig = await restartWith({ doors: [{ id: SAMPLE_GARAGE_DOOR_ID, readOnly: true }] }, () => Promise.resolve(TOO_MANY));
    const target = rig.api.characteristic(SAMPLE_GARAGE_DOOR_ID, TargetDoorState);
    await expect(target.handleSetRequest(TargetDoorState.OPEN)).rejects.toBe(hap.HAPStatus.INSUFFICIENT_PRIVILEGES);
    expect(togglesNow()).toEqual([]);
  });
});

describe('protection, read again only when the set of doors changes (issue 50, item 3)', () => {
  it('is not read again when the service lists the same doors in another order', async () => {
    const rig = await bootSynced(sim, { accessToken: TOKEN, excludeDoorIds: ['3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a0x'] }, { running });
    // The platform's reading, by identity: a new reading is a new object.
    const reading = (): unknown => (Reflect.get(rig.platform, 'protection') as ProtectionCache).current;
    const first = reading();
    sim.devices.reverse();
    for (const device of sim.devices) device.doors.reverse();
    await rig.poll();
    expect(reading()).toBe(first);
    sim.devices.reverse();
    const gone = sim.devices[0]?.doors.pop();
    await rig.poll();
    expect(reading()).not.toBe(first);
    if (gone) sim.devices[0]?.doors.push(gone);
  });
});

describe('two platform blocks of one account (item 6)', () => {
  it('the second refuses to start, the first takes the cached doors Homebridge hands the second, and its hide holds', async () => {
    const first = await bootSynced(sim, { accessToken: TOKEN }, { running });
    await first.platform.shutdown();
    const blocks = [
      {
        platform: PLATFORM_NAME,
        name: 'Gates',
        baseUrl: sim.baseUrl,
        accessToken: TOKEN,
        doors: [{ id: SAMPLE_FRONT_GATE_ID, hide: true }],
      },
      { platform: PLATFORM_NAME, name: 'Gates copy', baseUrl: sim.baseUrl, accessToken: TOKEN },
    ];
    const dir = mkdtempSync(path.join(tmpdir(), 'gate-blocks-'));
    const api = new HomebridgeDouble();
    api.configFile = path.join(dir, 'config.json');
    writeFileSync(api.configFile, JSON.stringify({ bridge: {}, platforms: blocks }));
    const log = captureLog();
    const clock = new ManualClock();
    const platforms = blocks.map((block) => new AccessControlPlatform(log, block, api as unknown as API, { clock }));
    running.push(...platforms);
    // Homebridge hands a platform configured twice its cache through the instance made last.
    for (const json of first.api.savedCache()) {
      const accessory = PlatformAccessory.deserialize(json);
      api.registered.set(accessory.UUID, accessory);
      platforms[1]?.configureAccessory(accessory);
    }
    api.emit('didFinishLaunching');
    clock.advance(clock.nextDueInMs ?? 0);
    await platforms[0]?.syncSettled();
    expect(log.texts('error')).toEqual([
      expect.stringMatching(/^This platform block, platforms\[1\] \("Gates copy"\), reads the same account/),
    ]);
    expect(api.accessory(SAMPLE_FRONT_GATE_ID)).toBeUndefined();
    expect(api.registered.size).toBe(2);
    await api.characteristic(SAMPLE_GARAGE_DOOR_ID, TargetDoorState).handleSetRequest(TargetDoorState.OPEN);
    expect(togglesNow().map((toggle) => toggle.door_id)).toEqual([SAMPLE_GARAGE_DOOR_ID]);
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'CLOSED', { silent: true });
  });
});

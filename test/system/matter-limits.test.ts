// On Matter as on HomeKit: an account larger than one bridge shows the same first 149 doors, in one registration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AccessControlSimulator, makeDevice, makeDoor } from '../../dev/simulator/server.js';
import { matterSerial } from '../../src/matter/matter-doors.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../../src/settings.js';
import { Homebridge2Double, MatterApiDouble, matterSettled } from '../support/matter-double.js';
import { bootPlatform } from '../support/platform-rig.js';

const TOKEN = 'matter-limits-token-2f0a';
let sim: AccessControlSimulator;

beforeAll(async () => {
  const devices = Array.from({ length: 20 }, (_, d) =>
    makeDevice({ doors: Array.from({ length: 8 }, (_, i) => makeDoor({ name: `Gate ${d}-${i}`, entityNumber: i + 1 })) }),
  );
  sim = new AccessControlSimulator({ accessToken: TOKEN, devices });
  await sim.start();
});

afterAll(async () => {
  await sim.stop();
});

describe('an account with more doors than one bridge holds, on Matter', () => {
  it('puts the same 149 doors on Matter as on HomeKit, in one batch, with no error', async () => {
    const matter = new MatterApiDouble();
    const { api, platform, poll } = bootPlatform(
      { accessToken: TOKEN, baseUrl: sim.baseUrl, matter: 'sensors' },
      { api: new Homebridge2Double([], matter) },
    );
    await poll(2);
    await matterSettled();
    await platform.shutdown();
    const onHomeKit = [...api.registered.values()].map((a) => matterSerial((a.context as { doorId: string }).doorId)).sort();
    expect(onHomeKit).toHaveLength(MAX_ACCESSORIES_PER_BRIDGE);
    expect([...matter.devices.values()].map((d) => d.serialNumber).sort()).toEqual(onHomeKit);
    expect(matter.registrations).toHaveLength(1);
    expect(matter.errors).toEqual([]);
  });

  it('puts the people beside the doors HomeKit shows, the same as on HomeKit: the doors leave them their place in the cap', async () => {
    const matter = new MatterApiDouble();
    const people = [
      { name: 'Grace', user: 'grace@example.com' },
      { name: 'Alan', user: 'alan@example.com' },
      { name: 'Someone Else', user: '*' },
    ];
    const { api, platform, poll } = bootPlatform(
      { accessToken: TOKEN, baseUrl: sim.baseUrl, matter: 'locks', people },
      { api: new Homebridge2Double([], matter) },
    );
    await poll(2);
    await matterSettled();
    await platform.shutdown();
    expect(api.registered.size).toBe(MAX_ACCESSORIES_PER_BRIDGE);
    expect([...matter.devices.keys()].sort()).toEqual([...api.registered.keys()].sort());
    const types = [...matter.devices.values()].map((d) => d.deviceType);
    expect([types.filter((t) => t === 'DoorLock').length, types.filter((t) => t === 'OccupancySensor').length]).toEqual([
      MAX_ACCESSORIES_PER_BRIDGE - people.length,
      people.length,
    ]);
    expect(matter.errors).toEqual([]);
  });
});

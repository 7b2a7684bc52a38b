// A large account: one bridge shows the first 149 doors in a stable order and warns once; filters split the rest; one sync per poll.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MAX_ACCESSORIES_PER_BRIDGE } from '../../src/settings.js';
import { AccessControlSimulator, makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { SimDevice } from '../../dev/simulator/server.js';
import { bootPlatform } from '../support/platform-rig.js';

const TOKEN = 'limits-token-5d0c';
const DEVICES = 20;
const DOORS_PER_DEVICE = 8;
const POLLS = 3;

let sim: AccessControlSimulator;
let devices: SimDevice[];

beforeAll(async () => {
  devices = Array.from({ length: DEVICES }, (_, d) =>
    makeDevice({ doors: Array.from({ length: DOORS_PER_DEVICE }, (_, i) => makeDoor({ name: `Gate ${d}-${i}`, entityNumber: i + 1 })) }),
  );
  sim = new AccessControlSimulator({ accessToken: TOKEN, devices });
  await sim.start();
});

afterAll(async () => {
  await sim.stop();
});

async function run(extra: Record<string, unknown>) {
  const syncsBefore = sim.countRequests('/endpoints/sync');
  const { api, log, platform, poll } = bootPlatform({ accessToken: TOKEN, baseUrl: sim.baseUrl, ...extra });
  await poll(POLLS);
  await platform.shutdown();
  const serials = [...api.registered.values()].map((a) => a.context as { doorId: string }).map((c) => c.doorId);
  return { log, api, serials, syncs: sim.countRequests('/endpoints/sync') - syncsBefore };
}

describe('an account with more doors than one bridge holds', () => {
  it('shows the first 149 doors by id, warns once, and syncs the whole account in one request per poll', async () => {
    const { log, serials, syncs } = await run({});
    const allIds = devices.flatMap((d) => d.doors.map((door) => door.id)).sort();
    expect(serials.sort()).toEqual(allIds.slice(0, MAX_ACCESSORIES_PER_BRIDGE));
    expect(log.lines.filter((l) => l.level === 'warn' && l.text.includes('one bridge holds at most 149'))).toHaveLength(1);
    expect(syncs).toBe(POLLS);
  });

  it('splits over two platform entries by controller, each under the limit and without overlap', async () => {
    const firstHalf = devices.slice(0, DEVICES / 2).map((d) => d.id);
    const a = await run({ includeDeviceIds: firstHalf });
    const b = await run({ excludeDeviceIds: firstHalf });
    expect(a.serials).toHaveLength((DEVICES / 2) * DOORS_PER_DEVICE);
    expect(b.serials).toHaveLength((DEVICES / 2) * DOORS_PER_DEVICE);
    expect(a.serials.filter((id) => b.serials.includes(id))).toEqual([]);
    expect([...a.log.lines, ...b.log.lines].filter((l) => l.level === 'warn')).toEqual([]);
  });
});

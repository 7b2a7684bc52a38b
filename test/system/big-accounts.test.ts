// Big accounts on the Homebridge double (which refuses the 150th accessory as HAP does): the bridge's room is planned
// with the person sensors before anything is added, a new door never displaces one in Home, and no bug line comes.
import { afterEach, describe, expect, it } from 'vitest';

import { AccessControlSimulator, makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { SimDevice } from '../../dev/simulator/server.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../../src/settings.js';
import { HomebridgeDouble } from '../support/homebridge-double.js';
import { bootPlatform, shutDownAfterEach } from '../support/platform-rig.js';

const TOKEN = 'big-accounts-token-41f7';
const DOORS_PER_DEVICE = 30;
const PEOPLE = [
  { name: 'Grace', user: 'grace@example.com' },
  { name: 'Alan', user: 'alan@example.com' },
  { name: 'Ada', user: 'ada@example.com' },
];

const running = shutDownAfterEach();
let sim: AccessControlSimulator | undefined;

afterEach(async () => {
  await sim?.stop();
  sim = undefined;
});

/** An account of `doors` doors over controllers of DOORS_PER_DEVICE, ids `door-0001`... so their order is known. */
async function account(doors: number): Promise<{ sim: AccessControlSimulator; devices: SimDevice[] }> {
  const devices = Array.from({ length: Math.ceil(doors / DOORS_PER_DEVICE) }, (_, d) =>
    makeDevice({
      id: `device-${d}`,
      doors: Array.from({ length: Math.min(DOORS_PER_DEVICE, doors - d * DOORS_PER_DEVICE) }, (_, i) => {
        const n = d * DOORS_PER_DEVICE + i + 1;
        return makeDoor({ id: `door-${String(n).padStart(4, '0')}`, name: `Gate ${n}`, entityNumber: i + 1 });
      }),
    }),
  );
  sim = new AccessControlSimulator({ accessToken: TOKEN, devices });
  await sim.start();
  return { sim, devices };
}

function boot(server: AccessControlSimulator, config: Record<string, unknown>, api?: HomebridgeDouble) {
  const rig = bootPlatform({ accessToken: TOKEN, baseUrl: server.baseUrl, ...config }, api ? { api } : {});
  running.push(rig.platform);
  const texts = (level: string): string[] => rig.log.lines.filter((l) => l.level === level).map((l) => l.text);
  const doorIds = (): string[] =>
    [...rig.api.registered.values()].flatMap((a) => {
      const id = (a.context as { doorId?: unknown }).doorId;
      return typeof id === 'string' ? [id] : [];
    });
  return { ...rig, texts, doorIds };
}

describe('the bridge cap with person sensors', () => {
  it('starts with 149 cached doors and three new people: the last cached doors by id leave first, named, and nothing throws', async () => {
    const { sim: server } = await account(MAX_ACCESSORIES_PER_BRIDGE);
    const first = boot(server, {});
    await first.poll();
    expect(first.doorIds()).toHaveLength(MAX_ACCESSORIES_PER_BRIDGE);
    await first.platform.shutdown();

    const second = boot(server, { people: PEOPLE }, new HomebridgeDouble(first.api.savedCache()));
    expect(second.texts('error')).toEqual([]);
    expect(second.api.registered.size).toBe(MAX_ACCESSORIES_PER_BRIDGE);
    const room = MAX_ACCESSORIES_PER_BRIDGE - PEOPLE.length;
    const kept = second.doorIds().sort();
    expect(kept).toEqual(first.doorIds().sort().slice(0, room));
    expect(second.texts('info').filter((t) => t.startsWith('Removed') && t.includes('one bridge holds at most 149'))).toHaveLength(
      PEOPLE.length,
    );

    await second.poll(2);
    expect(second.texts('error')).toEqual([]);
    expect(second.api.registered.size).toBe(MAX_ACCESSORIES_PER_BRIDGE);
    expect(second.texts('info').some((t) => t.includes('the account no longer has it'))).toBe(false);
    // The doors left out are named, with the settings that bring them in.
    const leftOut = second.texts('warn').filter((t) => t.includes('left out:'));
    expect(leftOut).toHaveLength(1);
    for (const id of ['door-0147', 'door-0148', 'door-0149']) expect(leftOut[0]).toContain(`(door ${id})`);
    expect(leftOut[0]).toContain('includeDeviceIds');
  });

  it('keeps the doors in Home when a 150-door account gains a door whose id sorts first: no bug, 149 accessories', async () => {
    const { sim: server, devices } = await account(MAX_ACCESSORIES_PER_BRIDGE + 1);
    const rig = boot(server, {});
    await rig.poll();
    const before = rig.doorIds().sort();
    expect(before).toHaveLength(MAX_ACCESSORIES_PER_BRIDGE);

    const device = devices[0];
    if (!device) throw new Error('no controller');
    server.addDoor(device.id, makeDoor({ id: 'door-0000', name: 'New Gate', entityNumber: DOORS_PER_DEVICE + 1 }));
    await rig.poll(3);

    expect(rig.texts('error')).toEqual([]);
    expect(rig.api.registered.size).toBe(MAX_ACCESSORIES_PER_BRIDGE);
    expect(rig.doorIds().sort()).toEqual(before);
    expect(rig.texts('info').some((t) => t.startsWith('Removed'))).toBe(false);
    const leftOut = rig.texts('warn').filter((t) => t.includes('left out:'));
    expect(leftOut.at(-1)).toContain('New Gate (door door-0000)');
  });

  it('removes a door gone from the account before adding the one that takes its place', async () => {
    const { sim: server, devices } = await account(MAX_ACCESSORIES_PER_BRIDGE);
    const rig = boot(server, {});
    await rig.poll();
    const device = devices[0];
    if (!device) throw new Error('no controller');
    server.removeDoor('door-0005');
    server.addDoor(device.id, makeDoor({ id: 'door-0000', name: 'New Gate', entityNumber: DOORS_PER_DEVICE + 1 }));
    await rig.poll(3);

    expect(rig.texts('error')).toEqual([]);
    expect(rig.api.registered.size).toBe(MAX_ACCESSORIES_PER_BRIDGE);
    expect(rig.doorIds()).toContain('door-0000');
    expect(rig.doorIds()).not.toContain('door-0005');
  });
});

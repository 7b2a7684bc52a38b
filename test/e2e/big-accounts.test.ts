// Big accounts in a real Homebridge (issue 50), one start shared by the cases: a 150-door account shows 149 doors and
// names the one left out; a new door whose id sorts first leaves no bug line and 149 accessories; a restart with 149
// cached doors and three new person sensors starts and keeps running, the doors that no longer fit named.
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { SimDevice } from '../../dev/simulator/server.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../../src/settings.js';
import { E2E_POLL_INTERVAL_S, platformEntry, RIG_WAIT_MS, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-20ba7c9d5d6c';
const DOORS = MAX_ACCESSORIES_PER_BRIDGE + 1;
const DOORS_PER_CONTROLLER = 30;
/** Syncs that must pass before "nothing went wrong" is believed: the new door's and the one after. */
const SYNCS_WATCHED = 3;
const PEOPLE = [
  { name: 'Grace', user: 'grace@example.com' },
  { name: 'Alan', user: 'alan@example.com' },
  { name: 'Ada', user: 'ada@example.com' },
];

const doorId = (n: number): string => `door-${String(n).padStart(4, '0')}`;

/** 150 doors over five controllers, ids door-0001…door-0150, so the order by id is known. */
function devices(): SimDevice[] {
  return Array.from({ length: Math.ceil(DOORS / DOORS_PER_CONTROLLER) }, (_, d) =>
    makeDevice({
      id: `controller-${d}`,
      doors: Array.from({ length: DOORS_PER_CONTROLLER }, (_, i) => {
        const n = d * DOORS_PER_CONTROLLER + i + 1;
        return makeDoor({ id: doorId(n), name: `Gate ${n}`, entityNumber: i + 1 });
      }),
    }),
  );
}

const rig = useHomebridge({
  simulator: { accessToken: TOKEN, devices: devices() },
  platforms: (sim) => [platformEntry(sim.baseUrl, TOKEN)],
  door: doorId(1),
  // 149 accessories to publish on a shared machine.
  waitMs: 2 * RIG_WAIT_MS,
});

/** The plugin's accessories the controller sees (the bridge itself is not one). */
async function pluginAccessories(): Promise<number> {
  return (await rig.controller.accessories()).length - 1;
}

/** Waits until the controller sees `count` accessories of the plugin. */
async function waitForAccessories(count: number): Promise<void> {
  const deadline = Date.now() + 2 * RIG_WAIT_MS;
  while ((await pluginAccessories()) !== count) {
    if (Date.now() > deadline)
      throw new Error(`the controller sees ${String(await pluginAccessories())} accessories, not ${String(count)}`);
    await sleep(1000);
  }
}

const bugLines = (): string[] => rig.wholeLog().match(/A bug in the plugin[^\n]*|Cannot Bridge more than[^\n]*/g) ?? [];

describe('a 150-door account on one bridge (Homebridge 1.11; the matrix runs 2.4)', () => {
  it('shows 149 doors and names the one left out, with the setting that brings it in', async () => {
    await waitForAccessories(MAX_ACCESSORIES_PER_BRIDGE);
    await rig.hb.waitForLog(/left out: Gate 150 \(door door-0150\)\. To show them, .*includeDeviceIds/, RIG_WAIT_MS);
    expect(bugLines()).toEqual([]);
  });

  it('keeps the 149 doors in Home when the account gains a door whose id sorts first: no bug line', async () => {
    const mark = rig.hb.lineCount();
    rig.sim.addDoor('controller-0', makeDoor({ id: doorId(0), name: 'New Gate', entityNumber: DOORS_PER_CONTROLLER + 1 }));
    await rig.hb.waitForLog(/left out: .*New Gate \(door door-0000\)/, RIG_WAIT_MS, { fromLine: mark });
    await sleep(SYNCS_WATCHED * E2E_POLL_INTERVAL_S * 1000);
    expect(bugLines()).toEqual([]);
    expect(await pluginAccessories()).toBe(MAX_ACCESSORIES_PER_BRIDGE);
    expect(rig.wholeLog()).not.toMatch(/the account no longer has it/);
  });

  it('starts with 149 cached doors and three new person sensors, and keeps running', async () => {
    await rig.restart({ platforms: [platformEntry(rig.sim.baseUrl, TOKEN, { people: PEOPLE })] });
    await waitForAccessories(MAX_ACCESSORIES_PER_BRIDGE);
    await rig.controller.waitForAccessory('Ada', RIG_WAIT_MS);
    // The last cached doors by id made room for the people before they were added.
    for (const n of [147, 148, 149]) {
      expect(rig.hb.log()).toMatch(new RegExp(`Removed Gate ${String(n)} from HomeKit: one bridge holds at most 149 accessories`));
    }
    await sleep(SYNCS_WATCHED * E2E_POLL_INTERVAL_S * 1000);
    expect(bugLines()).toEqual([]);
    expect(await pluginAccessories()).toBe(MAX_ACCESSORIES_PER_BRIDGE);
    expect(rig.wholeLog()).not.toMatch(/the account no longer has it/);
  });
});

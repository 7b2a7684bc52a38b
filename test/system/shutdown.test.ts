// Homebridge shutting down while a request is in flight: its late answer registers nothing, starts no timer, writes no cache, logs nothing.
import * as hap from 'hap-nodejs';
import { afterEach, describe, expect, it } from 'vitest';

import type { AccessControlPlatform } from '../../src/platform.js';
import type { AccessControlSimulator, SimEndpoint } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import { ManualClock } from '../support/homebridge-double.js';
import type { HomebridgeDouble } from '../support/homebridge-double.js';
import { bootPlatform, shutDownAfterEach } from '../support/platform-rig.js';
import type { CapturedLog } from '../support/log.js';
import { useSimulator } from '../support/simulator.js';
import { sleep } from '../support/wait.js';

const TOKEN = 'shutdown-token-7d1e4b';
/** Real time the simulator holds the answer: the test shuts the platform down meanwhile, then waits for the answer. */
const SLOW_ANSWER_MS = 200;
const PATHS: Record<SimEndpoint, string> = { sync: '/endpoints/sync', toggle: '/endpoint/toggle', history: '/endpoints/toggle-history' };
const CONFIG = { platform: 'AccessControl', accessToken: TOKEN, pollInterval: 15, leftOpenSensor: true, automationSwitch: 'open' };

let sim: AccessControlSimulator;
/** The running test's clock: the simulator dates its history by it, so the plugin's history query finds its changes. */
let clockNow: () => number = Date.now;
useSimulator({ accessToken: TOKEN, travelTimeMs: 20, now: () => clockNow() }, (started) => (sim = started));

const running = shutDownAfterEach();
afterEach(() => {
  sim.clearFaults();
  sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { silent: true });
});

interface Rig {
  api: HomebridgeDouble;
  platform: AccessControlPlatform;
  clock: ManualClock;
  log: CapturedLog;
  poll(): Promise<number>;
}

function boot(): Rig {
  const clock = new ManualClock();
  clockNow = () => clock.now();
  const { api, platform, log, poll } = bootPlatform({ ...CONFIG, baseUrl: sim.baseUrl }, { clock });
  running.push(platform);
  return { api, platform, clock, log, poll };
}

/** Resolves once the simulator has received one more request to `endpoint` than `before`. */
async function arrived(endpoint: SimEndpoint, before: number): Promise<void> {
  while (sim.countRequests(PATHS[endpoint]) <= before) {
    await sleep(5);
  }
}

/** Shuts down as Homebridge does while the slow answer is still on its way, and returns what happens after. */
async function shutDownDuring(rig: Rig, endpoint: SimEndpoint, before: number) {
  await arrived(endpoint, before);
  const linesAtShutdown = rig.log.lines.length;
  const cacheWritesAtShutdown = rig.api.cacheWrites.length;
  // The client's close() waits for requests in flight, so the answer comes while the shutdown is under way.
  await rig.api.shutdown();
  await rig.platform.syncSettled();
  await new Promise((resolve) => setImmediate(resolve));
  return {
    linesAfter: rig.log.lines.slice(linesAtShutdown).filter((line) => line.level !== 'debug'),
    cacheWritesAfter: rig.api.cacheWrites.slice(cacheWritesAtShutdown),
  };
}

describe('a shutdown while a request is in flight', () => {
  it('during the first sync: no door added, no timer left, no line logged', async () => {
    // Open, so a door added now would start its left-open timer.
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    sim.setFault('sync', { kind: 'delay', ms: SLOW_ANSWER_MS }, { times: 1 });
    const before = sim.countRequests(PATHS.sync);
    const rig = boot();
    rig.clock.advance(rig.clock.nextDueInMs ?? 0);
    const after = await shutDownDuring(rig, 'sync', before);
    expect(rig.api.registered.size).toBe(0);
    expect(after.linesAfter).toEqual([]);
    expect(after.cacheWritesAfter).toEqual([]);
    expect(rig.clock.nextDueInMs).toBeUndefined();
  });

  it('during a sync that fails: no failure logged, no timer left', async () => {
    const rig = boot();
    await rig.poll();
    expect(rig.api.registered.size).toBe(3);
    sim.setFault('sync', { kind: 'delay', ms: SLOW_ANSWER_MS, then: { kind: 'status', status: 500 } }, { times: 1 });
    const before = sim.countRequests(PATHS.sync);
    rig.clock.advance(rig.clock.nextDueInMs ?? 0);
    const after = await shutDownDuring(rig, 'sync', before);
    expect(after.linesAfter).toEqual([]);
    expect(after.cacheWritesAfter).toEqual([]);
    expect(rig.clock.nextDueInMs).toBeUndefined();
  });

  it('during a toggle from the automation switch: no timer left, no line logged', async () => {
    const rig = boot();
    await rig.poll();
    const accessory = [...rig.api.registered.values()].find((a) => a.context.doorId === SAMPLE_FRONT_GATE_ID);
    const onSwitch = accessory?.getServiceById(hap.Service.Switch, 'automation-switch')?.getCharacteristic(hap.Characteristic.On);
    expect(onSwitch).toBeDefined();
    sim.setFault('toggle', { kind: 'delay', ms: SLOW_ANSWER_MS }, { times: 1 });
    const before = sim.countRequests(PATHS.toggle);
    const written = onSwitch?.handleSetRequest(true).catch(() => undefined);
    const after = await shutDownDuring(rig, 'toggle', before);
    await written;
    expect(after.linesAfter).toEqual([]);
    expect(after.cacheWritesAfter).toEqual([]);
    // The switch's own "turn off again" timer would otherwise outlive Homebridge.
    expect(rig.clock.nextDueInMs).toBeUndefined();
  });

  it('during a history read ("who moved it"): no line logged', async () => {
    const rig = boot();
    await rig.poll();
    sim.setFault('history', { kind: 'delay', ms: SLOW_ANSWER_MS }, { times: 1 });
    const before = sim.countRequests(PATHS.history);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    await rig.poll();
    const linesAtShutdown = rig.log.lines.length;
    const after = await shutDownDuring(rig, 'history', before);
    // Nothing else waits for the history read: its answer is known to have come once a line (any level) names the door.
    while (!rig.log.lines.slice(linesAtShutdown).some((line) => line.text.includes('Front Gate'))) {
      await sleep(5);
    }
    expect(rig.log.lines.slice(linesAtShutdown).filter((line) => line.level !== 'debug')).toEqual([]);
    expect(after.cacheWritesAfter).toEqual([]);
    expect(rig.clock.nextDueInMs).toBeUndefined();
  });
});

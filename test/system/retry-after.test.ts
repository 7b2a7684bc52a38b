// A limiting service on the Homebridge double: a Retry-After holds every sync and history request until it passes, a
// command still toggles but brings no sync forward, and a door whose state grows older than the stale bound (a cached
// one at start included) shows No Response.
import * as hap from 'hap-nodejs';
import { describe, expect, it, vi } from 'vitest';

import { SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { READ_TIMEOUT_MS, STATE_STALE_AFTER_SYNC_INTERVALS } from '../../src/settings.js';
import { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import { bootPlatform, shutDownAfterEach } from '../support/platform-rig.js';
import { simulatorPerTest } from '../support/simulator.js';

const { CurrentDoorState, TargetDoorState } = hap.Characteristic;
const TOKEN = 'retry-after-token-9b3e';
const POLL_INTERVAL_S = 15;
const RETRY_AFTER_S = 3600;
/** The documented bound (docs/limits.md): two poll intervals and a sync's longest read. */
const STALE_BOUND_MS = STATE_STALE_AFTER_SYNC_INTERVALS * POLL_INTERVAL_S * 1000 + READ_TIMEOUT_MS;
const SECOND_MS = 1000;

const startSimulator = simulatorPerTest();
const running = shutDownAfterEach();

const PATHS = {
  sync: '/oauth/v1/endpoints/sync',
  toggle: '/oauth/v1/endpoint/toggle',
  history: '/oauth/v1/endpoints/toggle-history',
};

/** The platform restarted over the cache of a first run, its first sync answered as `sim` is set up then. */
async function restarted(sim: AccessControlSimulator, clock: ManualClock, before: () => void) {
  const config = { accessToken: TOKEN, baseUrl: sim.baseUrl, pollInterval: POLL_INTERVAL_S };
  const first = bootPlatform(config, { clock });
  running.push(first.platform);
  await first.poll();
  await first.platform.shutdown();
  before();
  const rig = bootPlatform(config, { clock, api: new HomebridgeDouble(first.api.savedCache()) });
  running.push(rig.platform);
  const wait = async (ms: number): Promise<void> => {
    clock.advance(ms);
    await rig.platform.syncSettled();
  };
  await wait(0);
  const read = (): Promise<unknown> => rig.api.characteristic(SAMPLE_FRONT_GATE_ID, CurrentDoorState).handleGetRequest();
  return { ...rig, wait, read };
}

/** A restart whose first sync the service answers 429 with a Retry-After of RETRY_AFTER_S; later ones as usual. */
async function limitedRestart() {
  const clock = new ManualClock();
  const sim = await startSimulator({ accessToken: TOKEN, travelTimeMs: 0 });
  const rig = await restarted(sim, clock, () =>
    sim.setFault('sync', { kind: 'status', status: 429, retryAfterS: RETRY_AFTER_S }, { times: 1 }),
  );
  return { sim, rig };
}

describe('a service answering the first sync after a restart with 429 and Retry-After', () => {
  it('shows the cached door until the stale bound, then No Response; says until when; asks again only after the wait', async () => {
    const { sim, rig } = await limitedRestart();
    const syncs = sim.countRequests(PATHS.sync);
    expect(await rig.read()).toBe(CurrentDoorState.CLOSED);
    const until = rig.log.lines.find((l) => l.text.startsWith('The service asked the plugin to wait'));
    expect(until?.text).toMatch(/no sync or history request until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in 60 minutes\)/);

    await rig.wait(STALE_BOUND_MS - SECOND_MS);
    expect(await rig.read()).toBe(CurrentDoorState.CLOSED);
    await rig.wait(2 * SECOND_MS);
    await expect(rig.read()).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);

    await rig.wait(RETRY_AFTER_S * SECOND_MS - STALE_BOUND_MS - 2 * SECOND_MS);
    expect(sim.countRequests(PATHS.sync)).toBe(syncs);
    await rig.wait(2 * SECOND_MS);
    expect(sim.countRequests(PATHS.sync)).toBe(syncs + 1);
    expect(await rig.read()).toBe(CurrentDoorState.CLOSED);
  });

  it('sends a command from HomeKit during the wait, but no sync until the wait is over: one sync then', async () => {
    const { sim, rig } = await limitedRestart();
    const syncs = sim.countRequests(PATHS.sync);
    const toggles = sim.countRequests(PATHS.toggle);
    const target = rig.api.characteristic(SAMPLE_FRONT_GATE_ID, TargetDoorState);
    await target.handleSetRequest(TargetDoorState.OPEN);
    await vi.waitFor(() => expect(sim.countRequests(PATHS.toggle)).toBe(toggles + 1));
    for (let s = 10; s < RETRY_AFTER_S; s += 10) {
      await rig.wait(10 * SECOND_MS);
    }
    expect(sim.countRequests(PATHS.sync)).toBe(syncs);
    await rig.wait(10 * SECOND_MS);
    expect(sim.countRequests(PATHS.sync)).toBe(syncs + 1);
    expect(rig.log.lines.filter((l) => l.text.startsWith('A bug'))).toEqual([]);
  });
});

describe('a history read answered 429 with Retry-After', () => {
  it('holds every history and sync request until the wait has passed', async () => {
    const clock = new ManualClock();
    const sim = await startSimulator({ accessToken: TOKEN, travelTimeMs: 0, now: () => clock.now() });
    const rig = bootPlatform({ accessToken: TOKEN, baseUrl: sim.baseUrl, pollInterval: POLL_INTERVAL_S }, { clock });
    running.push(rig.platform);
    sim.setFault('history', { kind: 'status', status: 429, retryAfterS: 600 });
    rig.clock.advance(0);
    await rig.platform.syncSettled();
    const histories = sim.countRequests(PATHS.history);
    const syncs = sim.countRequests(PATHS.sync);
    expect(histories).toBeGreaterThan(0);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN');
    for (let s = 0; s < 590; s += 10) {
      clock.advance(10 * SECOND_MS);
      await rig.platform.syncSettled();
    }
    expect(sim.countRequests(PATHS.history)).toBe(histories);
    expect(sim.countRequests(PATHS.sync)).toBe(syncs);
    sim.setFault('history', null);
    for (let s = 0; s < 60; s += 10) {
      clock.advance(10 * SECOND_MS);
      await rig.platform.syncSettled();
    }
    expect(sim.countRequests(PATHS.sync)).toBeGreaterThan(syncs);
    await expect(rig.api.characteristic(SAMPLE_FRONT_GATE_ID, CurrentDoorState).handleGetRequest()).resolves.toBe(CurrentDoorState.OPEN);
  });
});

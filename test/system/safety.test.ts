// No door moves unless Home asks: not at start, not after a restart from the cache, an outage or a time-out, nor twice for one wish.
import * as hap from 'hap-nodejs';
import { afterEach, describe, expect, it } from 'vitest';

import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID } from '../../dev/simulator/server.js';
import { optionSpec } from '../../src/option-catalog.js';
import { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { useSimulator } from '../support/simulator.js';

const TOKEN = 'safety-token-3c9a1f';
const { CurrentDoorState, TargetDoorState } = hap.Characteristic;
const POLLS = 6;

let sim: AccessControlSimulator;

useSimulator({ accessToken: TOKEN, travelTimeMs: 20 }, (started) => (sim = started));

// Registered before the shutdown, so it runs after it (vitest runs after-hooks last registered first).
afterEach(() => {
  sim.clearFaults();
  sim.setOutage(false);
});
const running = shutDownAfterEach();

const toggles = (): number => sim.countRequests('/endpoint/toggle');

async function boot(api = new HomebridgeDouble(), clock = new ManualClock()) {
  return bootSynced(sim, { accessToken: TOKEN, pollInterval: 15 }, { api, clock, running });
}

describe('the plugin never moves a door by itself', () => {
  it('not at start, with doors open and closed', async () => {
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { silent: true });
    const before = toggles();
    const { poll, api } = await boot();
    for (let i = 0; i < POLLS; i += 1) await poll();
    expect(toggles()).toBe(before);
    expect(api.characteristic(SAMPLE_SHARED_GATE_ID, CurrentDoorState).value).toBe(CurrentDoorState.OPEN);
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'CLOSED', { silent: true });
  });

  it('not when restarting from the accessory cache, even when the door moved meanwhile', async () => {
    const first = await boot();
    await first.platform.shutdown();
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    const before = toggles();
    // The cache says CLOSED; the service says OPEN. Home must follow the door, not the other way round.
    const second = await boot(new HomebridgeDouble(first.api.savedCache()));
    for (let i = 0; i < POLLS; i += 1) await second.poll();
    expect(toggles()).toBe(before);
    expect(second.api.registered.size).toBe(3);
    expect(second.api.characteristic(SAMPLE_FRONT_GATE_ID, TargetDoorState).value).toBe(TargetDoorState.OPEN);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { silent: true });
  });

  it('writes the accessory cache only when a door changed, not on every poll', async () => {
    const { api, poll } = await boot();
    const writesAfterStart = api.cacheWrites.length;
    for (let i = 0; i < POLLS; i += 1) await poll();
    expect(api.cacheWrites.length).toBe(writesAfterStart);
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { silent: true });
    await poll();
    expect(api.cacheWrites.slice(writesAfterStart)).toEqual([1]);
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'CLOSED', { silent: true });
  });

  it('not when the service comes back after an outage', async () => {
    const { poll } = await boot();
    const before = toggles();
    sim.setOutage(true);
    for (let i = 0; i < POLLS; i += 1) await poll();
    sim.setOutage(false);
    for (let i = 0; i < POLLS; i += 1) await poll();
    expect(toggles()).toBe(before);
  });

  it('once for a wish Home repeats', async () => {
    const { api } = await boot();
    const target = api.characteristic(SAMPLE_GARAGE_DOOR_ID, TargetDoorState);
    const before = toggles();
    await Promise.all([target.handleSetRequest(TargetDoorState.OPEN), target.handleSetRequest(TargetDoorState.OPEN)]);
    await target.handleSetRequest(TargetDoorState.OPEN);
    expect(toggles()).toBe(before + 1);
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'CLOSED', { silent: true });
  });

  it('never again after a command timed out: the service may have acted', async () => {
    const { api, poll, clock } = await boot();
    sim.setFault('toggle', { kind: 'hang' }, { times: 1 });
    const before = toggles();
    await expect(api.characteristic(SAMPLE_FRONT_GATE_ID, TargetDoorState).handleSetRequest(TargetDoorState.OPEN)).rejects.toBe(
      hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE,
    );
    for (let i = 0; i < POLLS; i += 1) await poll();
    expect(toggles()).toBe(before + 1);
    // The service may still act on it: Home sees the door as possibly opening, not as closed for sure.
    expect(api.characteristic(SAMPLE_FRONT_GATE_ID, CurrentDoorState).value).toBe(CurrentDoorState.OPENING);
    // Past the transition time-out with the door still closed, Home shows it closed again, with the obstruction.
    clock.advance(optionSpec('transitionTimeout').default * 1000);
    await poll();
    expect(api.characteristic(SAMPLE_FRONT_GATE_ID, TargetDoorState).value).toBe(TargetDoorState.CLOSED);
    expect(api.characteristic(SAMPLE_FRONT_GATE_ID, hap.Characteristic.ObstructionDetected).value).toBe(true);
    expect(toggles()).toBe(before + 1);
  });
});

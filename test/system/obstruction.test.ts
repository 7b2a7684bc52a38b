// Obstruction on the Homebridge double with the simulator: a toggle the service accepts for a door that never moves
// turns ObstructionDetected on after transitionTimeout; it goes off when the door gets there or at the next command,
// and a restart from the accessory cache brings it back as it was, for the first sync to decide.
import * as hap from 'hap-nodejs';
import { afterEach, describe, expect, it } from 'vitest';

import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import { OWN_COMMAND_LATE_MS } from '../../src/settings.js';
import { HomebridgeDouble } from '../support/homebridge-double.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { useSimulator } from '../support/simulator.js';

// Random, as a real token is: one made of words ('obstruction-…') is rightly found in a log line holding the word.
const TOKEN = 'tok-7d2e4b9c1a5f';
const { CurrentDoorState, TargetDoorState, ObstructionDetected } = hap.Characteristic;
const TIMEOUT_S = 10;
const QUICK_TRAVEL_MS = 20;
/** Far longer than any test: the door accepts the toggle and never gets there. */
const NEVER_MS = 3_600_000;

let sim: AccessControlSimulator;
const running = shutDownAfterEach();

useSimulator({ accessToken: TOKEN, travelTimeMs: QUICK_TRAVEL_MS }, (started) => (sim = started));

afterEach(() => {
  sim.setTravelTime(QUICK_TRAVEL_MS);
  sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { silent: true });
});

async function boot(api = new HomebridgeDouble()) {
  const { clock, log, platform, poll } = await bootSynced(
    sim,
    { accessToken: TOKEN, pollInterval: 15, transitionTimeout: TIMEOUT_S },
    { api, running },
  );
  /** Polls (fast after a command, then at the regular pace) until the time-out has passed. */
  const pastTimeout = async (): Promise<void> => {
    const end = clock.now() + TIMEOUT_S * 1000;
    while (clock.now() < end) await poll();
  };
  const garage = (): hap.Service => {
    const service = api.accessory(SAMPLE_FRONT_GATE_ID)?.getService(hap.Service.GarageDoorOpener);
    if (!service) throw new Error('no front gate');
    return service;
  };
  const obstruction = async (): Promise<[unknown, unknown]> => {
    const characteristic = garage().getCharacteristic(ObstructionDetected);
    return [await characteristic.handleGetRequest(), characteristic.value];
  };
  return { api, platform, log, clock, poll, pastTimeout, garage, obstruction };
}

async function stuckOpen() {
  const t = await boot();
  sim.setTravelTime(NEVER_MS);
  await t.garage().getCharacteristic(TargetDoorState).handleSetRequest(TargetDoorState.OPEN);
  await t.pastTimeout();
  return t;
}

describe('obstruction when a commanded move does not arrive', () => {
  it('turns on after transitionTimeout with one warning, and stays on while polls report the old state', async () => {
    const t = await stuckOpen();
    expect(await t.obstruction()).toEqual([true, true]);
    expect(t.garage().getCharacteristic(CurrentDoorState).value).toBe(CurrentDoorState.CLOSED);
    for (let i = 0; i < 4; i += 1) await t.poll();
    expect(await t.obstruction()).toEqual([true, true]);
    expect(t.log.lines.filter((line) => line.level === 'warn')).toEqual([
      {
        level: 'warn',
        text: `Front Gate did not report open within ${TIMEOUT_S} s; showing its last reported state (closed) and an obstruction until it reports open or gets a new command.`,
      },
    ]);
  });

  it('turns off at the next poll that finds the door where it was asked to go', async () => {
    const t = await stuckOpen();
    expect(await t.obstruction()).toEqual([true, true]);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    await t.poll();
    expect(await t.obstruction()).toEqual([false, false]);
    expect(t.garage().getCharacteristic(CurrentDoorState).value).toBe(CurrentDoorState.OPEN);
  });

  it('logs a move our command asked for, reported after the time-out, as ours, never as changed outside HomeKit', async () => {
    const t = await stuckOpen();
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    await t.poll();
    const texts = t.log.lines.map((line) => line.text);
    expect(texts).toContain('Front Gate is now open (from HomeKit, reported late).');
    expect(texts.filter((text) => text.includes('changed outside HomeKit'))).toEqual([]);
    // The next move is someone else's.
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { silent: true });
    await t.poll();
    expect(t.log.lines.map((line) => line.text)).toContain('Front Gate is now closed (changed outside HomeKit).');
  });

  it("takes a move to the commanded state long after the command for someone else's", async () => {
    const t = await stuckOpen();
    t.clock.advance(OWN_COMMAND_LATE_MS + 1000);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    await t.poll();
    expect(t.log.lines.map((line) => line.text)).toContain('Front Gate is now open (changed outside HomeKit).');
  });

  it('turns off at the next command, and on again if that one does not arrive either', async () => {
    const t = await stuckOpen();
    expect(await t.obstruction()).toEqual([true, true]);
    await t.garage().getCharacteristic(TargetDoorState).handleSetRequest(TargetDoorState.OPEN);
    expect(await t.obstruction()).toEqual([false, false]);
    expect(t.garage().getCharacteristic(CurrentDoorState).value).toBe(CurrentDoorState.OPENING);
    await t.pastTimeout();
    expect(await t.obstruction()).toEqual([true, true]);
  });

  it('comes back as it was after a restart, and the first sync clears it once the door got there', async () => {
    const first = await stuckOpen();
    await first.platform.shutdown();
    running.splice(running.indexOf(first.platform), 1);

    const still = await boot(new HomebridgeDouble(first.api.savedCache()));
    expect(await still.obstruction()).toEqual([true, true]);
    for (let i = 0; i < 3; i += 1) await still.poll();
    expect(await still.obstruction()).toEqual([true, true]);
    await still.platform.shutdown();
    running.splice(running.indexOf(still.platform), 1);

    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    const arrived = await boot(new HomebridgeDouble(still.api.savedCache()));
    expect(await arrived.obstruction()).toEqual([false, false]);
    expect(arrived.garage().getCharacteristic(CurrentDoorState).value).toBe(CurrentDoorState.OPEN);
  });

  it('writes the obstruction to the accessory cache when it turns on, not only at shutdown', async () => {
    const t = await boot();
    sim.setTravelTime(NEVER_MS);
    await t.garage().getCharacteristic(TargetDoorState).handleSetRequest(TargetDoorState.OPEN);
    const writesBefore = t.api.cacheWrites.length;
    await t.pastTimeout();
    expect(t.api.cacheWrites.length).toBeGreaterThan(writesBefore);
  });
});

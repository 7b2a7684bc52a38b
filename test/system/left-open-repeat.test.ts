// The left-open sensor's repeat through the whole platform on the Homebridge double, against the simulator, on a simulated
// clock: what Home is told while doors stand open (detected, cleared, detected...), per door and for all doors.
import * as hap from 'hap-nodejs';
import { describe, expect, it } from 'vitest';

import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { simulatorPerTest } from '../support/simulator.js';

const { Characteristic: C, Service: S } = hap;
const TOKEN = 'repeat-token-7c2a';
const MINUTE_MS = 60_000;

const startSimulator = simulatorPerTest();
const running = shutDownAfterEach();

describe('the left-open sensor with a repeat, through the platform', () => {
  it('tells Home detected, cleared, detected again while a door stays open, stops when it closes; a door set to 0 is told once', async () => {
    const sim = await startSimulator({ accessToken: TOKEN, travelTimeMs: 20 });
    const rig = await bootSynced(
      sim,
      {
        accessToken: TOKEN,
        pollInterval: 15,
        leftOpenSensor: true,
        leftOpenAfter: 60,
        leftOpenRepeat: 1,
        doors: [{ id: SAMPLE_GARAGE_DOOR_ID, leftOpenRepeat: 0 }],
      },
      { running },
    );
    /** Each value Home is sent for a door's left-open sensor: HAP sends only values that differ from the one before. */
    const told = new Map<string, boolean[]>();
    for (const doorId of [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID]) {
      const sensor = rig.api.accessory(doorId)?.getServiceById(S.OccupancySensor, 'left-open');
      expect(sensor?.displayName).toBeDefined();
      told.set(doorId, []);
      sensor?.getCharacteristic(C.OccupancyDetected).on('change', ({ oldValue, newValue }) => {
        if (oldValue !== newValue) told.get(doorId)?.push(newValue === C.OccupancyDetected.OCCUPANCY_DETECTED);
      });
    }
    const runFor = async (ms: number): Promise<void> => {
      const end = rig.clock.now() + ms;
      while (rig.clock.now() + (rig.clock.nextDueInMs ?? ms) <= end) {
        await rig.poll();
      }
    };

    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN');
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN');
    // Seen at the next sync, left open a minute later, then a repeat each minute: four detections in four minutes.
    await runFor(4 * MINUTE_MS + 30_000);
    expect(told.get(SAMPLE_FRONT_GATE_ID)).toEqual([true, false, true, false, true, false, true]);
    expect(told.get(SAMPLE_GARAGE_DOOR_ID)).toEqual([true]);

    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED');
    await runFor(30 * MINUTE_MS);
    expect(told.get(SAMPLE_FRONT_GATE_ID)).toEqual([true, false, true, false, true, false, true, false]);
    expect(told.get(SAMPLE_GARAGE_DOOR_ID)).toEqual([true]);
  });
});

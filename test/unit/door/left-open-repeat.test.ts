// The left-open sensor's repeat (leftOpenRepeat) on the real HAP-NodeJS, with a simulated clock: what Home is told while
// a door stays open, and that the repeat stops when the door closes, answers No Response or goes.
import * as hap from 'hap-nodejs';
import type { PlatformAccessory } from 'homebridge';
import { describe, expect, it } from 'vitest';

import type { DoorContext } from '../../../src/door/model/context.js';
import type { DoorOptions } from '../../../src/config/door-options.js';
import { LEFT_OPEN_REPEAT_CLEARED_MS } from '../../../src/settings.js';
import { doorRig, frontGateAccessory, NO_EXTRAS, reportedDevice as device, reportedDoor as makeDoor } from '../../support/door-fixtures.js';
import { ManualClock } from '../../support/homebridge-double.js';

const { Characteristic: C, Service: S } = hap;
const LEFT_OPEN_AFTER_S = 60;
const REPEAT_MIN = 30;
const MINUTE_MS = 60_000;
const OPTIONS: DoorOptions = { ...NO_EXTRAS, leftOpenSensor: true, leftOpenAfter: LEFT_OPEN_AFTER_S, leftOpenRepeat: REPEAT_MIN };

/** A change Home is told of: when (ms after the door opened) and whether the sensor detects. */
interface Told {
  atMs: number;
  detected: boolean;
}

function setup(
  options: DoorOptions = OPTIONS,
  accessory: PlatformAccessory<DoorContext> = frontGateAccessory(),
  clock = new ManualClock(),
) {
  const { door, deps } = doorRig({ options, now: () => clock.now(), clock }, accessory);
  const occupancy = accessory.getServiceById(S.OccupancySensor, 'left-open')?.getCharacteristic(C.OccupancyDetected);
  if (!occupancy) throw new Error('no left-open sensor');
  const startMs = clock.now();
  const told: Told[] = [];
  // HAP sends Home an event only for a value that differs from the one before (Accessory.js): record exactly those.
  occupancy.on('change', ({ oldValue, newValue }) => {
    if (oldValue !== newValue) told.push({ atMs: clock.now() - startMs, detected: newValue === C.OccupancyDetected.OCCUPANCY_DETECTED });
  });
  return { door, accessory, clock, occupancy, told, deps, startMs };
}

/** The changes a repeat of `repeatMin` makes from the left-open time on, up to `untilMs` after the door opened. */
function expectedRepeats(repeatMin: number, untilMs: number): Told[] {
  const leftOpenMs = LEFT_OPEN_AFTER_S * 1000;
  const told: Told[] = [{ atMs: leftOpenMs, detected: true }];
  for (let k = 1; leftOpenMs + k * repeatMin * MINUTE_MS <= untilMs; k += 1) {
    const detectsMs = leftOpenMs + k * repeatMin * MINUTE_MS;
    told.push({ atMs: detectsMs - LEFT_OPEN_REPEAT_CLEARED_MS, detected: false }, { atMs: detectsMs, detected: true });
  }
  return told;
}

describe('the left-open sensor with a repeat', () => {
  it('detects at the left-open time, then clears for a moment and detects again at each repeat while the door stays open', () => {
    const t = setup();
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    t.clock.advance(2 * 60 * MINUTE_MS);
    // Left open after a minute, then again at 31, 61, 91 minutes: each time a change Home notifies of.
    expect(t.told).toEqual(expectedRepeats(REPEAT_MIN, 2 * 60 * MINUTE_MS));
    expect(t.told.filter((change) => change.detected)).toHaveLength(4);
    t.door.dispose();
  });

  it('answers a read during the clear moment as not detected, and as detected again after it', async () => {
    const t = setup();
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    t.clock.advance(LEFT_OPEN_AFTER_S * 1000 + REPEAT_MIN * MINUTE_MS - LEFT_OPEN_REPEAT_CLEARED_MS / 2);
    expect(await t.occupancy.handleGetRequest()).toBe(C.OccupancyDetected.OCCUPANCY_NOT_DETECTED);
    t.clock.advance(LEFT_OPEN_REPEAT_CLEARED_MS / 2);
    expect(await t.occupancy.handleGetRequest()).toBe(C.OccupancyDetected.OCCUPANCY_DETECTED);
    t.door.dispose();
  });

  it('tells Home once and sets no timer when the repeat is 0 (the default)', () => {
    const t = setup({ ...OPTIONS, leftOpenRepeat: 0 });
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    t.clock.advance(24 * 60 * MINUTE_MS);
    expect(t.told).toEqual([{ atMs: LEFT_OPEN_AFTER_S * 1000, detected: true }]);
    expect(t.clock.nextDueInMs).toBeUndefined();
    t.door.dispose();
  });

  it.each([
    ['while it detects', 10 * MINUTE_MS],
    ['during the clear moment', LEFT_OPEN_AFTER_S * 1000 + REPEAT_MIN * MINUTE_MS - LEFT_OPEN_REPEAT_CLEARED_MS / 2],
  ])('stops the moment the door closes (%s)', (_when, closesAtMs) => {
    const t = setup();
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    t.clock.advance(closesAtMs);
    const before = t.told.length;
    t.door.update(makeDoor({ state: 'CLOSED' }), device);
    expect(t.occupancy.value).toBe(C.OccupancyDetected.OCCUPANCY_NOT_DETECTED);
    expect(t.clock.nextDueInMs).toBeUndefined();
    t.clock.advance(3 * 60 * MINUTE_MS);
    expect(t.told.slice(before).filter((change) => change.detected)).toEqual([]);
    t.door.dispose();
  });

  it('starts no new repeat while the door answers No Response, and repeats again once a sync finds it open', () => {
    const t = setup();
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    t.clock.advance(10 * MINUTE_MS);
    t.door.setAccountReadable(false);
    const before = t.told.length;
    t.clock.advance(3 * 60 * MINUTE_MS);
    expect(t.told.slice(before)).toEqual([]);
    expect(t.clock.nextDueInMs).toBeUndefined();
    t.door.setAccountReadable(true);
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    t.clock.advance(REPEAT_MIN * MINUTE_MS);
    expect(t.told.slice(before).map((change) => change.detected)).toEqual([false, true]);
    t.door.dispose();
  });

  it('after a restart with the door open, counts from the left-open time again: no burst of the repeats missed meanwhile', () => {
    const first = setup();
    first.door.update(makeDoor({ state: 'OPEN' }), device);
    first.clock.advance(5 * 60 * MINUTE_MS);
    first.door.dispose();
    // Homebridge restarts five hours on, the cached accessory saying open, its sensor detecting.
    const clock = first.clock;
    clock.advance(5 * 60 * MINUTE_MS);
    expect(first.accessory.context.state).toBe('OPEN');
    expect(first.occupancy.value).toBe(C.OccupancyDetected.OCCUPANCY_DETECTED);
    const t = setup(OPTIONS, first.accessory, clock);
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    // The door counts as opened at the restart: the sensor clears, then detects and repeats as after any opening.
    expect(t.occupancy.value).toBe(C.OccupancyDetected.OCCUPANCY_NOT_DETECTED);
    t.clock.advance(2 * 60 * MINUTE_MS);
    expect(t.told).toEqual(expectedRepeats(REPEAT_MIN, 2 * 60 * MINUTE_MS));
    t.door.dispose();
  });

  it('leaves no timer behind when the door is disposed, in either phase', () => {
    for (const disposeAtMs of [10 * MINUTE_MS, LEFT_OPEN_AFTER_S * 1000 + REPEAT_MIN * MINUTE_MS - 1]) {
      const t = setup();
      t.door.update(makeDoor({ state: 'OPEN' }), device);
      t.clock.advance(disposeAtMs);
      t.door.dispose();
      expect(t.clock.nextDueInMs).toBeUndefined();
    }
  });
});

// ObstructionDetected: on when a commanded move does not arrive in time, off when the door reports the state asked for
// or at the next command, and through a restart (the accessory cache) exactly as it was.
import * as hap from 'hap-nodejs';
import { PlatformAccessory } from 'homebridge/lib/platformAccessory.js';
import { describe, expect, it } from 'vitest';

import type { DoorContext } from '../../../src/door/model/context.js';
import { ToggleRejectedError } from '../../../src/client/errors.js';
import type { Door, DoorState } from '../../../src/client/types.js';
import { doorRig, frontGateAccessory, reportedDevice as device, reportedDoor } from '../../support/door-fixtures.js';

const { Characteristic: C, Service: S } = hap;
const TIMEOUT_MS = 30_000;
/** A sync's report of Front Gate in `state`. */
const report = (state: DoorState): Door => reportedDoor({ state, rawState: state });

function handler(
  accessory: PlatformAccessory<DoorContext>,
  toggle: (id: string, state: DoorState) => Promise<void> = () => Promise.resolve(),
) {
  const clock = { now: 0 };
  const { door, log } = doorRig(
    // No options: a fresh accessory gets no extras, and the door is not read-only.
    { toggle, transitionTimeoutMs: TIMEOUT_MS, options: undefined, now: () => clock.now, clock: undefined },
    accessory,
  );
  const garage = accessory.getService(S.GarageDoorOpener);
  if (!garage) throw new Error('no garage door service');
  const obstruction = garage.getCharacteristic(C.ObstructionDetected);
  const target = garage.getCharacteristic(C.TargetDoorState);
  const current = garage.getCharacteristic(C.CurrentDoorState);
  return { door, accessory, log, clock, obstruction, target, current };
}

function setup(toggle?: (id: string, state: DoorState) => Promise<void>, cached: Partial<DoorContext> = {}) {
  return handler(frontGateAccessory(cached), toggle);
}

/** Both what Home reads (onGet) and the last value pushed to it (events). */
async function shown(t: ReturnType<typeof setup>): Promise<[unknown, unknown]> {
  return [await t.obstruction.handleGetRequest(), t.obstruction.value];
}

/** Open, and let the door not get there within the time-out (no report at all, as in an outage). */
async function missOpen(t: ReturnType<typeof setup>): Promise<void> {
  await t.target.handleSetRequest(C.TargetDoorState.OPEN);
  t.clock.now += TIMEOUT_MS;
  t.door.tick();
}

describe('ObstructionDetected', () => {
  it('turns on with one warning when the door does not arrive in time, and stays on while it reports the old state', async () => {
    const t = setup();
    await missOpen(t);
    expect(await shown(t)).toEqual([true, true]);
    expect(t.current.value).toBe(C.CurrentDoorState.CLOSED);
    const warnings = t.log.lines.filter((line) => line.level === 'warn');
    expect(warnings).toEqual([
      {
        level: 'warn',
        text: 'Front Gate did not report open within 30 s; showing its last reported state (closed) and an obstruction until it reports open or gets a new command.',
      },
    ]);
    for (let poll = 0; poll < 5; poll += 1) {
      t.clock.now += 15_000;
      t.door.update(report('CLOSED'), device);
      t.door.tick();
    }
    expect(await shown(t)).toEqual([true, true]);
    expect(t.log.lines.filter((line) => line.level === 'warn')).toHaveLength(1);
  });

  it('stays off for a move that arrives, and turns on when the first report after the deadline still shows the old state', async () => {
    const t = setup();
    await t.target.handleSetRequest(C.TargetDoorState.OPEN);
    t.door.update(report('OPEN'), device);
    t.clock.now += TIMEOUT_MS;
    t.door.tick();
    expect(await shown(t)).toEqual([false, false]);
    await t.target.handleSetRequest(C.TargetDoorState.CLOSED);
    t.clock.now += TIMEOUT_MS + 1;
    expect(t.door.update(report('OPEN'), device)).toBe('timed-out');
    expect(await shown(t)).toEqual([true, true]);
  });

  it('turns off when the door reports the state asked for, by poll or by webhook', async () => {
    const polled = setup();
    await missOpen(polled);
    expect(await shown(polled)).toEqual([true, true]);
    polled.door.update(report('OPEN'), device);
    expect(await shown(polled)).toEqual([false, false]);
    expect(polled.current.value).toBe(C.CurrentDoorState.OPEN);

    const pushed = setup();
    await missOpen(pushed);
    expect(await shown(pushed)).toEqual([true, true]);
    pushed.door.applyEvent('OPEN', undefined, 'Keypad');
    expect(await shown(pushed)).toEqual([false, false]);
  });

  it('turns off at the next command, whether it is sent, refused or needs nothing sent', async () => {
    const sent = setup();
    await missOpen(sent);
    expect(await shown(sent)).toEqual([true, true]);
    await sent.target.handleSetRequest(C.TargetDoorState.OPEN);
    expect(await shown(sent)).toEqual([false, false]);
    expect(sent.current.value).toBe(C.CurrentDoorState.OPENING);

    const refused = setup(() => Promise.reject(new ToggleRejectedError(404, 'not found')), { missedTarget: 'OPEN' });
    expect(await shown(refused)).toEqual([true, true]);
    await expect(refused.target.handleSetRequest(C.TargetDoorState.OPEN)).rejects.toBeDefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(await shown(refused)).toEqual([false, false]);

    const already = setup();
    await missOpen(already);
    expect(await shown(already)).toEqual([true, true]);
    await already.target.handleSetRequest(C.TargetDoorState.CLOSED);
    expect(await shown(already)).toEqual([false, false]);
  });

  it('comes back as it was after a restart, and the first sync ends it only if the door got there', async () => {
    const before = setup();
    await missOpen(before);
    expect(before.accessory.context.missedTarget).toBe('OPEN');

    const stillClosed = handler(
      PlatformAccessory.deserialize(PlatformAccessory.serialize(before.accessory)) as PlatformAccessory<DoorContext>,
    );
    expect(await shown(stillClosed)).toEqual([true, true]);
    stillClosed.door.update(report('CLOSED'), device);
    expect(await shown(stillClosed)).toEqual([true, true]);

    const openedMeanwhile = handler(
      PlatformAccessory.deserialize(PlatformAccessory.serialize(before.accessory)) as PlatformAccessory<DoorContext>,
    );
    openedMeanwhile.door.update(report('OPEN'), device);
    expect(await shown(openedMeanwhile)).toEqual([false, false]);
    expect(openedMeanwhile.accessory.context.missedTarget).toBeUndefined();
  });

  it('is off after a restart from a cache that holds none, or a bad one, whatever value HAP cached', async () => {
    const before = setup();
    await missOpen(before);
    expect(await shown(before)).toEqual([true, true]);
    for (const missedTarget of [undefined, 'SIDEWAYS', 'CLOSED']) {
      const json = PlatformAccessory.serialize(before.accessory);
      json.context = { ...before.accessory.context, missedTarget };
      const after = handler(PlatformAccessory.deserialize(json) as PlatformAccessory<DoorContext>);
      expect(await shown(after)).toEqual([false, false]);
      expect(after.accessory.context.missedTarget).toBeUndefined();
    }
  });
});

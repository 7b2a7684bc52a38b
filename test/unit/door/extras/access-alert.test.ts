// The access alert of a door (a MotionSensor) on the real HAP-NodeJS, with a simulated clock: detects, extends, clears, leaves.
import * as hap from 'hap-nodejs';
import { describe, expect, it } from 'vitest';

import type { DoorOptions } from '../../../../src/config/door-options.js';
import { doorRig, frontGateAccessory, NO_EXTRAS } from '../../../support/door-fixtures.js';

const { Characteristic: C, Service: S } = hap;
const DURATION_S = 30;
const OPTIONS: DoorOptions = { ...NO_EXTRAS, accessAlert: true, accessAlertDuration: DURATION_S };

function setup(options: DoorOptions | undefined = OPTIONS, accessory = frontGateAccessory()) {
  // A handler built again on the same accessory starts from the same cached record.
  accessory.context = frontGateAccessory().context;
  const { door, clock, toggle } = doorRig({ options }, accessory);
  const sensor = () => accessory.getServiceById(S.MotionSensor, 'access-alert');
  const detected = async (): Promise<unknown> => sensor()?.getCharacteristic(C.MotionDetected).handleGetRequest();
  return { door, accessory, clock, toggle, sensor, detected };
}

describe('the access alert', () => {
  it('is a motion sensor named after the door, at rest until an enforcer event', async () => {
    const t = setup();
    expect(t.sensor()?.displayName).toBe('Front Gate Access Alert');
    expect(await t.detected()).toBe(false);
    t.door.dispose();
  });

  it('detects on an event for its time, longer when another event comes meanwhile, and never moves the door', async () => {
    const t = setup();
    expect(t.door.alertAccess()).toBe(true);
    expect(await t.detected()).toBe(true);
    t.clock.advance((DURATION_S - 10) * 1000);
    t.door.alertAccess();
    t.clock.advance(20 * 1000);
    // 40 s after the first event, 20 s after the second: still detecting.
    expect(await t.detected()).toBe(true);
    t.clock.advance(10 * 1000);
    expect(await t.detected()).toBe(false);
    expect(t.sensor()?.getCharacteristic(C.MotionDetected).value).toBe(false);
    expect(t.toggle).not.toHaveBeenCalled();
    expect(t.accessory.getService(S.GarageDoorOpener)?.getCharacteristic(C.CurrentDoorState).value).toBe(C.CurrentDoorState.CLOSED);
    t.door.dispose();
  });

  it('answers reads from memory also while the door answers No Response: its facts come from webhooks, not syncs', async () => {
    const t = setup();
    t.door.setAccountReadable(false);
    t.door.alertAccess();
    expect(await t.detected()).toBe(true);
    t.door.dispose();
  });

  it('stops its timer on dispose', () => {
    const t = setup();
    t.door.alertAccess();
    expect(t.clock.nextDueInMs).toBe(DURATION_S * 1000);
    t.door.dispose();
    expect(t.clock.nextDueInMs).toBeUndefined();
  });

  it('is absent when off, leaves when turned off, and stays when the config cannot be read', () => {
    const off = setup({ ...OPTIONS, accessAlert: false });
    expect(off.sensor()).toBeUndefined();
    expect(off.door.alertAccess()).toBe(false);
    off.door.dispose();

    const on = setup();
    on.door.dispose();
    const unreadable = setup(undefined, on.accessory);
    expect(unreadable.sensor()).toBeDefined();
    expect(unreadable.door.alertAccess()).toBe(true);
    unreadable.door.dispose();
    const turnedOff = setup({ ...OPTIONS, accessAlert: false }, on.accessory);
    expect(turnedOff.sensor()).toBeUndefined();
    expect(on.accessory.getService(S.GarageDoorOpener)).toBeDefined();
    turnedOff.door.dispose();
  });

  it('starts at rest after a restart, whatever the cache held', async () => {
    const first = setup();
    first.door.alertAccess();
    first.door.dispose();
    const again = setup(OPTIONS, first.accessory);
    expect(again.sensor()?.getCharacteristic(C.MotionDetected).value).toBe(false);
    expect(await again.detected()).toBe(false);
    again.door.dispose();
  });
});

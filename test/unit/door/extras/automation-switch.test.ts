// The automation switch of a garage door (src/door/extras/automation-switch.ts) on the real HAP-NodeJS: open-only and open-and-close.
import * as hap from 'hap-nodejs';
import { describe, expect, it, vi } from 'vitest';

import { AUTOMATION_SWITCH_RESET_MS } from '../../../../src/settings.js';
import {
  ALL_EXTRAS,
  garageRig as setup,
  NO_EXTRAS,
  reportedDevice as device,
  reportedDoor as makeDoor,
} from '../../../support/door-fixtures.js';

const { Characteristic: C, Service: S } = hap;

describe('the automation switch', () => {
  it('opens only, through an open-only switch: one toggle on "on", back to off by itself, nothing on "off"', async () => {
    vi.useFakeTimers();
    try {
      const t = setup(undefined, { ...NO_EXTRAS, automationSwitch: 'open' });
      const on = t.accessory.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.On);
      await on?.handleSetRequest(true);
      expect(t.toggle.mock.calls).toEqual([['door-1', 'OPEN']]);
      expect(on?.value).toBe(true);
      t.door.update(makeDoor({ state: 'OPEN' }), device);
      await vi.advanceTimersByTimeAsync(AUTOMATION_SWITCH_RESET_MS - 1);
      expect(on?.value).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      expect(on?.value).toBe(false);
      expect(await on?.handleGetRequest()).toBe(false);
      // A "turn everything off" scene: the door is open, and stays so.
      await on?.handleSetRequest(false);
      await vi.advanceTimersByTimeAsync(AUTOMATION_SWITCH_RESET_MS);
      expect(t.toggle.mock.calls).toEqual([['door-1', 'OPEN']]);
      expect(t.target.value).toBe(C.TargetDoorState.OPEN);
      // The door following an open door never turns the switch on again.
      t.door.update(makeDoor({ state: 'OPEN' }), device);
      expect(on?.value).toBe(false);
      t.door.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens and closes through the automation switch, which follows the door', async () => {
    const t = setup(undefined, ALL_EXTRAS);
    const on = t.accessory.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.On);
    expect(on?.value).toBe(false);
    await on?.handleSetRequest(true);
    expect(t.toggle).toHaveBeenLastCalledWith('door-1', 'OPEN');
    expect(on?.value).toBe(true);
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    await on?.handleSetRequest(false);
    expect(t.toggle).toHaveBeenLastCalledWith('door-1', 'CLOSED');
    expect(t.toggle).toHaveBeenCalledTimes(2);
  });
});

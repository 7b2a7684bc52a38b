// The left-open sensor of a garage door (src/door/extras/left-open-sensor.ts) on the real HAP-NodeJS, with fake timers.
import * as hap from 'hap-nodejs';
import { describe, expect, it, vi } from 'vitest';

import { ALL_EXTRAS, garageRig as setup, reportedDevice as device, reportedDoor as makeDoor } from '../../../support/door-fixtures.js';

const { Characteristic: C, Service: S } = hap;

describe('the left-open sensor', () => {
  it('trips the left-open sensor once the door has stood open past its time, and clears it on close', async () => {
    vi.useFakeTimers();
    try {
      const t = setup(undefined, ALL_EXTRAS);
      t.clock.now = Date.now();
      const occupancy = t.accessory.getServiceById(S.OccupancySensor, 'left-open')?.getCharacteristic(C.OccupancyDetected);
      const contact = t.accessory.getServiceById(S.ContactSensor, 'contact')?.getCharacteristic(C.ContactSensorState);
      t.door.update(makeDoor({ state: 'OPEN' }), device);
      expect(contact?.value).toBe(C.ContactSensorState.CONTACT_NOT_DETECTED);
      expect(occupancy?.value).toBe(C.OccupancyDetected.OCCUPANCY_NOT_DETECTED);
      t.clock.now += 119_000;
      await vi.advanceTimersByTimeAsync(119_000);
      expect(occupancy?.value).toBe(C.OccupancyDetected.OCCUPANCY_NOT_DETECTED);
      t.clock.now += 1_000;
      await vi.advanceTimersByTimeAsync(1_000);
      expect(occupancy?.value).toBe(C.OccupancyDetected.OCCUPANCY_DETECTED);
      t.door.update(makeDoor({ state: 'CLOSED' }), device);
      expect(occupancy?.value).toBe(C.OccupancyDetected.OCCUPANCY_NOT_DETECTED);
      expect(contact?.value).toBe(C.ContactSensorState.CONTACT_DETECTED);
      t.door.dispose();
    } finally {
      vi.useRealTimers();
    }
  });
});

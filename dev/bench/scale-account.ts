// The accounts the scale measurements run against: N plain doors spread over controllers of at most 15 doors each.
import { makeDevice, makeDoor } from '../simulator/server.js';
import type { SimDevice } from '../simulator/server.js';

/** Doors per controller (device), like a large site with many multi-door controllers: 149 doors → 10 devices. */
export const DOORS_PER_DEVICE = 15;

/**
 * `doorCount` doors with makeDoor's defaults (closed, owned, wired sensor: no battery service, no extras), named
 * `Door 001`…, filling devices of DOORS_PER_DEVICE in order. 0 doors gives an account without devices.
 */
export function scaleAccount(doorCount: number): SimDevice[] {
  const devices: SimDevice[] = [];
  for (let first = 0; first < doorCount; first += DOORS_PER_DEVICE) {
    const count = Math.min(DOORS_PER_DEVICE, doorCount - first);
    const doors = Array.from({ length: count }, (_, k) =>
      makeDoor({ name: `Door ${String(first + k + 1).padStart(3, '0')}`, entityNumber: k + 1 }),
    );
    devices.push(makeDevice({ blackboxCode: `BB-${String(devices.length + 1).padStart(4, '0')}`, doors }));
  }
  return devices;
}

/** The account's last door: the plugin reconciles it after all the others, so its event waits for the whole sync. */
export function lastDoorId(devices: readonly SimDevice[]): string | undefined {
  return devices.at(-1)?.doors.at(-1)?.id;
}

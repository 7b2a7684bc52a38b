// The doors' ticks: each door's movement that took too long ended, also when syncs fail, one door's bug apart from the others'.
import type { PlatformAccessory } from 'homebridge';

import type { DoorAccessory } from '../door/door-accessory.js';
import type { BugLog } from '../util/bug-log.js';

/** Ticks each door, a bug of one reported to `bugs`; the accessories whose cached context changed, for Homebridge's cache. */
export function tickDoors(doors: Iterable<DoorAccessory>, bugs: BugLog): PlatformAccessory[] {
  const changed: PlatformAccessory[] = [];
  for (const door of doors) {
    try {
      const cachedBefore = JSON.stringify(door.accessory.context);
      door.tick();
      // A movement that timed out leaves an obstruction, which the cache keeps across a restart.
      if (JSON.stringify(door.accessory.context) !== cachedBefore) {
        changed.push(door.accessory);
      }
    } catch (error) {
      bugs.report('ending a door movement', error);
    }
  }
  return changed;
}

// A door id listed under more than one controller is shown once: shown as both, it flipped between their states at every poll.
import type { Device, Door } from '../client/types.js';

/** A door as one controller lists it; the settings page's summary of the account (ids, no more) is read by the same rule. */
export interface DoorOfDevice<D extends Pick<Door, 'id'> = Door, V extends Pick<Device, 'id'> = Device> {
  door: D;
  device: V;
}

export interface DuplicateDoor {
  doorId: string;
  /** Every controller listing it, the one whose copy is kept first. */
  deviceIds: string[];
}

/** Code-unit order: the same on every machine, whatever its locale. */
function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Keeps one listing of each door id: the one under the controller whose id sorts first (then the first listed), so the
 * same copy wins however the service orders its answer. The kept doors stay in the order given; `duplicates` names
 * the ids listed more than once, sorted by door id.
 */
export function keepFirstOfEachDoor<T extends DoorOfDevice<Pick<Door, 'id'>, Pick<Device, 'id'>>>(
  doors: readonly T[],
): { kept: T[]; duplicates: DuplicateDoor[] } {
  const ranked = doors
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => compareIds(a.entry.device.id, b.entry.device.id) || a.index - b.index);
  const winners = new Set<T>();
  const listedUnder = new Map<string, string[]>();
  for (const { entry } of ranked) {
    const deviceIds = listedUnder.get(entry.door.id);
    if (deviceIds) {
      deviceIds.push(entry.device.id);
    } else {
      listedUnder.set(entry.door.id, [entry.device.id]);
      winners.add(entry);
    }
  }
  const duplicates = [...listedUnder]
    .filter(([, deviceIds]) => deviceIds.length > 1)
    .map(([doorId, deviceIds]) => ({ doorId, deviceIds }))
    .sort((a, b) => compareIds(a.doorId, b.doorId));
  return { kept: doors.filter((entry) => winners.has(entry)), duplicates };
}

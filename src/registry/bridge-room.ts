// The bridge's room for doors: its cap less the plugin's other accessories, the doors already in Home keeping their place,
// and which doors in Home leave when they no longer fit.
import type { DoorContext } from '../door/model/context.js';
import { byDoorIdOrder, capDoors } from './shown-doors.js';

/** A door in Home as the room reads it: its cached door id. */
interface DoorInHome {
  readonly accessory: { readonly context: Pick<DoorContext, 'doorId'> };
}

/** The doors in Home past `room`, the last by door id. */
export function pastRoom<D extends DoorInHome>(inHome: Iterable<D>, room: number): D[] {
  const doors = [...inHome];
  if (doors.length <= room) return [];
  return doors.sort((a, b) => byDoorIdOrder(a.accessory.context.doorId, b.accessory.context.doorId)).slice(room);
}

/**
 * Where a complete or partial sync's doors fit: `listed` (the doors the options let in, before the cap) on a bridge with
 * `room` for doors, `inHome` the doors Home shows by UUID, `seen` the UUIDs of the listed ones. Gives the doors to show,
 * those left out (`overLimit`: how many were listed, when more than fit), and `cut`: the doors in Home the cap leaves out.
 */
export function fitOnBridge<T extends { door: { id: string } }, D extends DoorInHome>(
  listed: T[],
  inHome: ReadonlyMap<string, D>,
  seen: ReadonlySet<string>,
  room: number,
  uuid: (doorId: string) => string,
): { shown: T[]; leftOut: T[]; overLimit: number | undefined; cut: D[] } {
  // The bridge's room is planned before anything is added: the plugin's other accessories (person sensors) and the doors
  // still shown though this answer lacks them take theirs first.
  const held = [...inHome.keys()].filter((key) => !seen.has(key)).length;
  const ids = new Set([...inHome.values()].map((door) => door.accessory.context.doorId));
  const { shown, leftOut, overLimit } = capDoors(listed, Math.max(0, room - held), ids);
  const cut = shown.length === listed.length ? new Set<string>() : new Set(leftOut.map(({ door }) => uuid(door.id)));
  return { shown, leftOut, overLimit, cut: [...inHome.entries()].filter(([key]) => cut.has(key)).map(([, door]) => door) };
}

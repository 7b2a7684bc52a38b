// One shown door's part of a successful sync: its report applied, those who follow the doors told what it did, and
// whether the door's cached state changed.
import type { Device, Door, DoorState } from '../client/types.js';
import type { DoorAccessory } from '../door/door-accessory.js';

/** What a sync's report did to a door (whether it changed what Home shows). */
export type SyncOutcome = ReturnType<DoorAccessory['update']>;

/** Who follows what the syncs find of the doors (the platform wires them into DoorRegistryDeps). */
export interface DoorReportFollowers {
  /** Each door a sync reported, and what the report did to it. */
  notePolled: (door: DoorAccessory, outcome: SyncOutcome) => void;
  /** A sync found a door moved to `state`; `lastToggled` is the door's, as the service wrote it. */
  doorMoved: (doorId: string, name: string, state: DoorState, lastToggled: string | undefined) => void;
  /** A sync's state of a door was used (not older than a webhook): the door is in `state`, its last move dated `lastToggled`. */
  doorSeen?: (doorId: string, state: DoorState, lastToggled: string | undefined) => void;
}

/** Applies a sync's report (sent at `sentMs`) to a door Home shows, and tells `followers`; true: its cache must be written. */
export function applyReport(handler: DoorAccessory, door: Door, device: Device, sentMs: number, followers: DoorReportFollowers): boolean {
  handler.setAccountReadable(true);
  // A name that keeps changing in the account is left out of the comparison until it holds (see cacheSnapshot).
  const cachedBefore = handler.cacheSnapshot();
  const outcome = handler.update(door, device, sentMs);
  const cacheChanged = handler.cacheSnapshot() !== cachedBefore;
  followers.notePolled(handler, outcome);
  if (outcome !== undefined && door.state !== null) {
    followers.doorSeen?.(door.id, door.state, door.lastToggled);
  }
  if (outcome === 'changed' && door.state !== null) {
    followers.doorMoved(door.id, handler.name, door.state, door.lastToggled);
  }
  return cacheChanged;
}

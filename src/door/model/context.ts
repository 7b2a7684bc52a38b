// What the accessory cache keeps of a door between restarts, so Home shows its last known state before the first sync.
import type { DoorState } from '../../client/types.js';

export interface DoorContext {
  doorId: string;
  deviceId: string;
  /** The name shown in HomeKit and the log (see model/naming.ts for which one wins). */
  name: string;
  /** The door's name in the account at the last sync, cleaned for HomeKit; absent in caches of older versions until the first sync. */
  accountName?: string;
  /** The name the user gave the door in the Home app (a controller wrote ConfiguredName); absent when none. */
  homeName?: string;
  /** The last state the service reported; CLOSED, standing for nothing, while `stateUnknown` is set. */
  state: DoorState;
  /** No state was ever known: the door was first seen with a state the plugin cannot read. Absent once one is. */
  stateUnknown?: true;
  /** The state a command asked for that the door did not reach in time (Home shows an obstruction); absent otherwise. */
  missedTarget?: DoorState;
  /** The `name` of the platform entry that shows the door (the settings page lists a cached door under that entry only); absent in caches of older versions. */
  entry?: string;
}

/** Cached accessories come from disk and from older versions of the plugin: check before trusting. */
export function isDoorContext(value: unknown): value is DoorContext {
  const c = value as Partial<DoorContext> | undefined;
  return (
    typeof c?.doorId === 'string' &&
    typeof c.deviceId === 'string' &&
    typeof c.name === 'string' &&
    (c.state === 'OPEN' || c.state === 'CLOSED')
  );
}

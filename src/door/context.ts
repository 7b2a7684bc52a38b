// What the accessory cache keeps of a door between restarts, so Home shows its last known state before the first sync.
import type { DoorState } from '../client/types.js';

export interface DoorContext {
  doorId: string;
  deviceId: string;
  name: string;
  state: DoorState;
  /** The state a command asked for that the door did not reach in time (Home shows an obstruction); absent otherwise. */
  missedTarget?: DoorState;
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

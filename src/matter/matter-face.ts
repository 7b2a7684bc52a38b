// What a door's Matter face needs of the door, and what every face gives: its device type, its state as cluster
// attributes, and its command handlers (a lock has them, a contact sensor none).
import type { DoorState } from '../client/types.js';
import type { MatterHandler } from './matter-api.js';

/** The door as the Matter side sees it (DoorAccessory): what the model decided, and the door's one command path. */
export interface MatterDoor {
  readonly doorId: string;
  readonly name: string;
  /** The last state the service reported. */
  readonly reported: DoorState;
  /** Where the door is going, or where it is. */
  readonly target: DoorState;
  /** The state a command asked for that the door did not reach in time. */
  readonly missedTarget: DoorState | undefined;
  /** false while the door's state may be stale (HomeKit shows No Response; Matter shows it unreachable). */
  readonly available: boolean;
  /** false while no state of the door was ever known: its `reported` and `target` stand for nothing. */
  readonly stateKnown: boolean;
  /** A wish from a controller, through the same path as HomeKit's (door-commands.ts): one wish, at most one pulse. */
  command(wanted: DoorState): Promise<void>;
  /** Calls `listener` whenever what the door shows may have changed; returns the way to stop. */
  onChange(listener: () => void): () => void;
}

/** One cluster's attributes, as api.matter.updateAccessoryState and registration's `clusters` take them. */
export interface ClusterState {
  cluster: string;
  attributes: Record<string, unknown>;
}

export interface MatterFace {
  /** api.matter.deviceTypes' entry. */
  readonly deviceType: unknown;
  /** What a controller reads of the door now. */
  state(): ClusterState;
  /** The fixed attributes a device type needs besides the state (registered once, in `clusters`). */
  fixed(): Record<string, unknown>;
  readonly handlers: Record<string, Record<string, MatterHandler>> | undefined;
  /** True while a controller's command to the door is being handled: Homebridge sets the state when it ends. */
  readonly busy: boolean;
}

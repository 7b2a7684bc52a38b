// What a door's Matter face needs of the door (a DoorAccessory is one), and what every face gives: its state as cluster
// attributes, and its command handlers (a lock has them, a contact sensor none).
import type { HAP } from 'homebridge';

import type { DoorState } from '../client/types.js';
import type { MatterApi, MatterHandler } from './matter-api.js';

/** What the Matter side reads of a door: what its model decided (DoorAccessory's facts), read at each call, never copied. */
export interface MatterDoorFacts {
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
}

/** The door as the Matter side sees it (a DoorAccessory): its model read-only, its one command path, its changes. */
export interface MatterDoor {
  readonly facts: MatterDoorFacts;
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
  /** What a controller reads of the door now. */
  state(): ClusterState;
  /** The fixed attributes a device type needs besides the state (registered once, in `clusters`). */
  fixed(): Record<string, unknown>;
  readonly handlers: Record<string, Record<string, MatterHandler>> | undefined;
  /** True while a controller's command to the door is being handled: Homebridge sets the state when it ends. */
  readonly busy: boolean;
}

export interface MatterFaceDeps {
  matter: MatterApi;
  hap: HAP;
  door: MatterDoor;
  /**
   * A controller's command ended, however: Homebridge has set the state by itself if it resolved, so the truth is
   * pushed after.
   */
  settled: () => void;
  /** false once the door is no longer shown: its device may stay on the bridge (Homebridge may refuse to remove it), but it takes no command. */
  shown: () => boolean;
}

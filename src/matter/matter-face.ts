// What a door's Matter face needs of the door (matterDoorOf makes it of a door in HomeKit), and what every face gives:
// its state as cluster attributes, and its command handlers (a lock has them, a contact sensor none).
import type { HAP } from 'homebridge';

import type { DoorState } from '../client/types.js';
import type { MatterApi, MatterHandler } from './matter-api.js';

/** The door as the Matter side sees it (matterDoorOf): what the model decided, and the door's one command path. */
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

/** What the Matter side needs of a door in HomeKit (DoorAccessory): its model read-only, its command path, its changes. */
export interface ShownDoorSource {
  readonly view: Omit<MatterDoor, 'command' | 'onChange'>;
  command(wanted: DoorState): Promise<void>;
  onChange(listener: () => void): () => void;
}

/** The door as its Matter face sees it: its model's decisions read at each call (never copied), and its command path. */
export function matterDoorOf(door: ShownDoorSource): MatterDoor {
  const { view } = door;
  return {
    get doorId() {
      return view.doorId;
    },
    get name() {
      return view.name;
    },
    get reported() {
      return view.reported;
    },
    get target() {
      return view.target;
    },
    get missedTarget() {
      return view.missedTarget;
    },
    get available() {
      return view.available;
    },
    get stateKnown() {
      return view.stateKnown;
    },
    command: (wanted) => door.command(wanted),
    onChange: (listener) => door.onChange(listener),
  };
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

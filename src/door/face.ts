// The door's main service in HomeKit, one per kind the settings offer ("Show in Home as"): what a face needs, and the
// one table of the kinds (FACES), which everything that differs by kind reads. A kind is one row here and its face file.
import type { HAP, PlatformAccessory, Service, WithUUID } from 'homebridge';

import type { DoorState } from '../client/types.js';
import type { ShowAs } from '../option-catalog.js';
import { GarageDoorFace } from './garage-door.js';
import { LockFace } from './lock.js';
import type { DoorModel } from './model/door.js';

export interface FaceDeps {
  hap: HAP;
  /** What the door does, decided apart from HomeKit: the face only shows it. */
  model: DoorModel;
  /** Answers a read from memory, or throws "No Response" while the door's state may be stale. */
  answer: <T>(value: T) => T;
  /** Home asked for the door to be `wanted`: the door's one command path (door-commands.ts). */
  command: (wanted: DoorState) => Promise<void>;
}

/** The main service of one kind, found in the accessory or added to it, with its characteristics wired to the model. */
export interface DoorFace {
  readonly service: Service;
  /** Shows the model's state on the main service (target before current). */
  push(): void;
}

/** Everything about one kind of door in Home. */
export interface FaceSpec {
  /**
   * HomeKit's service of the kind: the one the face shows the door through, and the one a cached accessory holds when it
   * shows the door as this kind.
   */
  service: (hap: HAP) => WithUUID<typeof Service>;
  /** The face: finds or adds the service on the accessory (named `name`) and wires it to the model. */
  Face: new (deps: FaceDeps, accessory: PlatformAccessory, name: string) => DoorFace;
  /**
   * True when the service can show a state as unknown (a lock can): Home then reads that until a state is known.
   * False: the door answers No Response instead (a garage door has no unknown state).
   */
  showsUnknown: boolean;
  /** What the kind is called in the log: "… is now shown in Home as a lock instead of a garage door". */
  words: string;
  /** What Siri is told to open and to close the door, said before its name ("Unlock the Front Gate"). */
  siri: { open: string; close: string };
}

/** One row per kind of "Show in Home as": a kind without a row, or a row of no kind, does not compile. */
export type FaceTable = Readonly<Record<ShowAs, FaceSpec>>;

export const FACES: FaceTable = {
  'garage-door': {
    service: (hap) => hap.Service.GarageDoorOpener,
    Face: GarageDoorFace,
    showsUnknown: false,
    words: 'a garage door',
    siri: { open: 'Open the', close: 'Close the' },
  },
  lock: {
    service: (hap) => hap.Service.LockMechanism,
    Face: LockFace,
    showsUnknown: true,
    words: 'a lock',
    siri: { open: 'Unlock the', close: 'Lock the' },
  },
};

/** Every kind, in the table's order. */
const KINDS = Object.keys(FACES) as ShowAs[];

/** HomeKit's service of each kind. */
export function mainServiceOf(hap: HAP, kind: ShowAs): WithUUID<typeof Service> {
  return FACES[kind].service(hap);
}

/**
 * The kind the cached accessory shows now, undefined for a new accessory. A cache that holds the services of several
 * kinds (an older version, an edited cache) shows `wanted` when it is one of them, else the first in the table.
 */
export function cachedKind(hap: HAP, accessory: PlatformAccessory, wanted?: ShowAs): ShowAs | undefined {
  const held = KINDS.filter((kind) => accessory.getService(mainServiceOf(hap, kind)) !== undefined);
  return wanted !== undefined && held.includes(wanted) ? wanted : held[0];
}

/** The door-kind services the accessory holds of every kind but `kind`. */
export function otherKindServices(hap: HAP, accessory: PlatformAccessory, kind: ShowAs): Service[] {
  return KINDS.filter((other) => other !== kind).flatMap((other) => accessory.getService(mainServiceOf(hap, other)) ?? []);
}

/** What Siri is told to open and to close `name` shown as `kind` ("Unlock the Front Gate", "Lock the Front Gate"). */
export function siriPhrases(kind: ShowAs, name: string): { open: string; close: string } {
  const { open, close } = FACES[kind].siri;
  return { open: `${open} ${name}`, close: `${close} ${name}` };
}

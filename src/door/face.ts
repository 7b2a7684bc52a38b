// The door's main service in HomeKit, one per kind the settings offer ("Show in Home as"): what a face needs, the one
// table of the kinds (FACES), which everything that differs by kind reads, and the one place a kind's service is found.
// A kind is one row here and its face file.
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

/** The main service of one kind (found or added by kindService), with its characteristics wired to the model. */
export interface DoorFace {
  readonly service: Service;
  /** Shows the model's state on the main service (target before current). */
  push(): void;
}

/** Everything about one kind of door in Home. */
export interface FaceSpec {
  /**
   * HomeKit's service of the kind, the one the face shows the door through. An extra may use the same service (the
   * automation switch is a Switch): the door's is told apart by its subtype, the kind (kindService).
   */
  service: (hap: HAP) => WithUUID<typeof Service>;
  /** The face: wires the kind's service, found or added by kindService, to the model. */
  Face: new (deps: FaceDeps, service: Service) => DoorFace;
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

/** Every kind of a table, in its order. */
const kindsOf = (faces: FaceTable): ShowAs[] => Object.keys(faces) as ShowAs[];

/**
 * Kinds older than the subtype: the plugin added their service with none until it had one, and a cache keeps it so.
 * Such a service is adopted as it is, never given the subtype: HAP keys a service's id in HomeKit by its type and
 * subtype, so a new subtype would be a new service to Home (its automations and scenes lost). No extra has a service
 * without a subtype, so it cannot be an extra's. A new kind is never listed here.
 */
const KINDS_CACHED_WITHOUT_SUBTYPE: readonly ShowAs[] = ['garage-door', 'lock'];

// What follows reads FACES unless given another table: a test adds a scratch kind so (test/unit/door/kind-services.test.ts).

/** HomeKit's service of each kind. */
export function mainServiceOf(hap: HAP, kind: ShowAs, faces: FaceTable = FACES): WithUUID<typeof Service> {
  return faces[kind].service(hap);
}

/** Whether `service` is the one that shows the door as `kind`: its type, with the kind as subtype (or none, from before). */
function marksKind(hap: HAP, service: Service, kind: ShowAs, faces: FaceTable): boolean {
  if (service.UUID !== mainServiceOf(hap, kind, faces).UUID) return false;
  // HAP reads an empty subtype as none (Service.getServiceId), and a cache may hold either.
  return service.subtype === kind || (!service.subtype && KINDS_CACHED_WITHOUT_SUBTYPE.includes(kind));
}

/** The service that shows the door as `kind` on the accessory, if it has one; never an extra's, whatever its type. */
export function findKindService(hap: HAP, accessory: PlatformAccessory, kind: ShowAs, faces: FaceTable = FACES): Service | undefined {
  const marked = accessory.services.filter((service) => marksKind(hap, service, kind, faces));
  // The subtype's first, should an edited cache hold both.
  return marked.find((service) => service.subtype === kind) ?? marked[0];
}

/** The kind's service, found (see findKindService) or added named `name` with the kind as subtype. */
export function kindService(hap: HAP, accessory: PlatformAccessory, kind: ShowAs, name: string, faces: FaceTable = FACES): Service {
  return findKindService(hap, accessory, kind, faces) ?? accessory.addService(mainServiceOf(hap, kind, faces), name, kind);
}

/**
 * The kind the cached accessory shows now, undefined for a new accessory. A cache that holds the services of several
 * kinds (an older version, an edited cache) shows `wanted` when it is one of them, else the first in the table.
 */
export function cachedKind(hap: HAP, accessory: PlatformAccessory, wanted?: ShowAs, faces: FaceTable = FACES): ShowAs | undefined {
  const held = kindsOf(faces).filter((kind) => findKindService(hap, accessory, kind, faces) !== undefined);
  return wanted !== undefined && held.includes(wanted) ? wanted : held[0];
}

/** The services the accessory holds that show the door as a kind, other than `kept`: an extra's is never one. */
export function strayKindServices(hap: HAP, accessory: PlatformAccessory, kept: Service | undefined, faces: FaceTable = FACES): Service[] {
  const kinds = kindsOf(faces);
  return accessory.services.filter((service) => service !== kept && kinds.some((kind) => marksKind(hap, service, kind, faces)));
}

/** What Siri is told to open and to close `name` shown as `kind` ("Unlock the Front Gate", "Lock the Front Gate"). */
export function siriPhrases(kind: ShowAs, name: string): { open: string; close: string } {
  const { open, close } = FACES[kind].siri;
  return { open: `${open} ${name}`, close: `${close} ${name}` };
}

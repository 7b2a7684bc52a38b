// The door's main service in HomeKit, one per kind the settings offer ("Show in Home as"): what a face needs, and which
// kind a door shows.
import type { HAP, PlatformAccessory, Service, WithUUID } from 'homebridge';

import type { DoorState } from '../client/types.js';
import type { ShowAs } from '../option-catalog.js';
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

/** HomeKit's service of each kind. */
export function mainServiceOf(hap: HAP, kind: ShowAs): WithUUID<typeof Service> {
  return kind === 'lock' ? hap.Service.LockMechanism : hap.Service.GarageDoorOpener;
}

/** The kind the cached accessory shows now, undefined for a new accessory. */
export function cachedKind(hap: HAP, accessory: PlatformAccessory): ShowAs | undefined {
  if (accessory.getService(hap.Service.LockMechanism)) return 'lock';
  if (accessory.getService(hap.Service.GarageDoorOpener)) return 'garage-door';
  return undefined;
}

/** What each kind is called in the log. */
export const KIND_WORDS: Record<ShowAs, string> = { 'garage-door': 'a garage door', lock: 'a lock' };

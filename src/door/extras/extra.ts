// What one extra of a door is (a service it gains in Home while its option is on) and what it may read of its door:
// every extra is a row of this shape in its own file, and the table (index.ts) has one row per catalog extra.
import type { API, CharacteristicValue, HAP, Logging, PlatformAccessory, Service, WithUUID } from 'homebridge';

import type { DoorState } from '../../client/types.js';
import type { ExtraKey, ShowAs } from '../../option-catalog.js';
import type { Clock } from '../../util/clock.js';
import type { LeftOpenSignal } from '../model/timings.js';
import type { DoorOptions } from '../../config/door-options.js';
import type { EveDoor } from '../../eve/eve-door.js';

/** Answers a read from memory, or throws "No Response" while the door is unavailable. */
export type Answer = <T extends CharacteristicValue>(value: T) => T;

/** What the extras may know of their door: they show it and send commands through its one command path. */
export interface ExtraDoor {
  target: () => DoorState;
  reported: () => DoorState;
  /** What the left-open sensor shows now (open past the alert time, less a repeat's clear moment) and when that changes. */
  leftOpen: () => LeftOpenSignal;
  command: (wanted: DoorState) => Promise<void>;
  answer: Answer;
  /** False while the door answers No Response: the automation switch refuses then. */
  available: () => boolean;
  log: Logging;
  /** Sets the extras' timers (the left-open sensor, the automation switch, the access alert). */
  clock: Clock;
  /** The door's name now, for the log (it follows renames). */
  name: () => string;
  /** False while no state of the door is known yet (the Eve history writes no move from a state that stands for nothing). */
  stateKnown?: () => boolean;
  /** The service's last_toggled at the last sync, as written (the Eve history dates a move the sync found by it). */
  lastToggled?: () => string | undefined;
  /** The door's main service and its kind: the Eve history puts the counters Eve reads of a door there. */
  main?: { service: Service; kind: ShowAs };
  /** The door's Eve history, kept in the bridge's file (src/eve/); without it, one in memory only. */
  eve?: () => EveDoor;
}

/** What an extra is built with. */
export interface ExtraDeps {
  api: API;
  accessory: PlatformAccessory;
  /** The door's name when the extra is built: its service is named "<door><suffix>". */
  doorName: string;
  door: ExtraDoor;
  /** The door's options; while the settings cannot be read, the catalog's defaults (what a kept extra runs with). */
  options: DoorOptions;
}

/** One extra while it is on; what it does not need to hear of, it leaves out. */
export interface DoorExtra {
  /** What the door shows may have changed. */
  update?(): void;
  /** An enforcer event named the door (only the access alert hears of it). */
  alertAccess?(): void;
  /** The door stops (shutdown, or it leaves HomeKit): timers stop. */
  dispose?(): void;
}

/** Everything about one extra, whose option's value is `V` (a flag's boolean, the automation switch's mode). */
export interface ExtraSpec<V> {
  /** HomeKit's service of the extra, found on a cached accessory by it and `subtype`. */
  service: (hap: HAP) => WithUUID<typeof Service>;
  /** Tells the door's services of one kind apart and keeps each extra's service stable across restarts and versions. */
  subtype: string;
  /**
   * Added to the door's name to name the extra ("Front Gate Switch"); at most MAX_EXTRA_SUFFIX_LENGTH units, so the name
   * fits in HomeKit whole (util/homekit-name.ts).
   */
  suffix: string;
  /** The value that leaves the extra out. */
  off: V;
  /** The value a door whose settings cannot be read keeps while its cached accessory has the extra: the safe one. */
  kept: V;
  /** Finds or adds the service and wires it; `value` is never `off`. */
  create: (deps: ExtraDeps, value: V) => DoorExtra;
  /** Removes what the extra adds besides its service (the Eve history's counters on the main service), when off. */
  remove?: (hap: HAP, accessory: PlatformAccessory) => void;
}

/** One row per extra of the catalog: a catalog extra without a row, or a row of no catalog extra, does not compile. */
export type ExtraTable = { readonly [K in ExtraKey]: ExtraSpec<DoorOptions[K]> };

/** Removes an extra's service from the accessory, if it has it. */
export function removeExtra(hap: HAP, accessory: PlatformAccessory, spec: Pick<ExtraSpec<unknown>, 'service' | 'subtype'>): void {
  const service = accessory.getServiceById(spec.service(hap), spec.subtype);
  if (service) {
    accessory.removeService(service);
  }
}

/** Whether a cached accessory holds an extra's service (a config that cannot be read keeps what is there). */
export function hasExtra(hap: HAP, accessory: PlatformAccessory, spec: Pick<ExtraSpec<unknown>, 'service' | 'subtype'>): boolean {
  return accessory.getServiceById(spec.service(hap), spec.subtype) !== undefined;
}

// The Eve history: Eve's History service on the door, which Eve downloads the door's opens and closes from, and the
// counters Eve shows of a door (times opened, last activation) on its main service. Wire format: src/eve/eve-wire.ts.
import type { API, CharacteristicValue, HAP, PlatformAccessory, Service } from 'homebridge';

import { ensureNamedService } from '../../homekit/door-name.js';
import { EveDoor } from '../../eve/eve-door.js';
import { EveRing } from '../../eve/eve-ring.js';
import { eveTypes } from '../../eve/eve-types.js';
import type { EveTypes } from '../../eve/eve-types.js';
import { historyEntries, historyStatus, NO_MORE_RECORDS, requestedEntry } from '../../eve/eve-wire.js';
import { backfillWindow } from '../../eve/backfill.js';
import { EVE_BACKFILL_DAYS, EVE_HISTORY_CAPACITY } from '../../settings.js';
import type { DoorExtra, ExtraDeps, ExtraDoor, ExtraSpec } from './extra.js';

const base64 = (bytes: Buffer): string => bytes.toString('base64');

export class DoorEveHistory implements DoorExtra {
  private readonly api: API;
  private readonly types: EveTypes;
  private readonly history: EveDoor;
  private readonly service: Service;
  /** Where the counters go: the door's main service (Eve reads a door's there), else the History service. */
  private readonly counters: Service;
  /** A garage door's records say 0 for open (see docs/eve-history.md); a lock's 1, as Eve's Door & Window. */
  private readonly inverted: boolean;
  private readonly door: ExtraDoor;
  /** The next entry a read of HistoryEntries sends, once Eve asked for one (HistoryRequest); undefined otherwise. */
  private cursor: number | undefined;
  /**
   * True during one synchronous run of read handlers: HAP reads every characteristic when a controller reads all
   * accessories (GET /accessories), the status and counters before the entries; that read must not move the cursor.
   */
  private sweeping = false;
  private readonly stopListening: () => void;

  constructor(deps: ExtraDeps) {
    const { api, accessory, doorName, door } = deps;
    this.api = api;
    this.door = door;
    this.types = eveTypes(api.hap);
    this.history = door.eve?.() ?? inMemory(door);
    this.service = ensureNamedService(api.hap, accessory, this.types.History, doorName, eveHistory);
    this.counters = door.main?.service ?? this.service;
    this.inverted = door.main?.kind === 'garage-door';
    const T = this.types;
    for (const Type of [T.TimesOpened, T.LastActivation]) this.counters.addOptionalCharacteristic(Type);
    this.service.getCharacteristic(T.HistoryStatus).onGet(() => this.marked(base64(historyStatus(this.history.ring))));
    this.service.getCharacteristic(T.HistoryEntries).onGet(() => this.entries());
    this.service.getCharacteristic(T.HistoryRequest).onSet((value) => this.request(value));
    this.service.getCharacteristic(T.SetTime).onSet(() => undefined);
    this.service.getCharacteristic(T.ResetTotal).onSet(() => this.history.resetTotal());
    this.counters.getCharacteristic(T.TimesOpened).onGet(() => this.marked(this.history.ring.timesOpened));
    this.counters.getCharacteristic(T.LastActivation).onGet(() => this.marked(this.lastActivation()));
    this.stopListening = this.history.onChange(() => this.show());
    this.update();
    this.show();
  }

  /** The door's state may have changed: a move is a record. */
  update(): void {
    if (this.door.stateKnown?.() === false) return;
    this.history.observe(this.door.reported() === 'OPEN', this.door.lastToggled?.());
  }

  dispose(): void {
    this.stopListening();
  }

  /** Seconds from the reference time to the last move (Eve's LastActivation); 0 before any. */
  private lastActivation(): number {
    const { ring } = this.history;
    return ring.lastMoveS === 0 ? 0 : ring.lastMoveS - ring.referenceS;
  }

  /** Pushes the status and counters to controllers that listen (updateValue runs no handler). */
  private show(): void {
    const T = this.types;
    this.service.getCharacteristic(T.HistoryStatus).updateValue(base64(historyStatus(this.history.ring)));
    this.counters.getCharacteristic(T.TimesOpened).updateValue(this.history.ring.timesOpened);
    this.counters.getCharacteristic(T.LastActivation).updateValue(this.lastActivation());
  }

  /** Answers a read that comes before the entries in a sweep, and marks the sweep until the handlers' run ends. */
  private marked<T>(value: T): T {
    if (!this.sweeping) {
      this.sweeping = true;
      queueMicrotask(() => {
        this.sweeping = false;
      });
    }
    return value;
  }

  /** Eve asked for records from an entry number on: the reads of HistoryEntries that follow send them. */
  private request(value: CharacteristicValue): void {
    const wanted = typeof value === 'string' ? requestedEntry(Buffer.from(value, 'base64')) : undefined;
    this.cursor = wanted === undefined ? undefined : Math.max(wanted, this.history.ring.referenceNumber);
  }

  /** The next records of a download, moving on; `00` when none was asked for, past the last, and in a sweep. */
  private entries(): string {
    if (this.sweeping || this.cursor === undefined) return base64(NO_MORE_RECORDS);
    const { bytes, next } = historyEntries(this.history.ring, this.cursor, this.inverted);
    this.cursor = bytes.equals(NO_MORE_RECORDS) ? undefined : next;
    return base64(bytes);
  }
}

/** A history kept in memory only, for a door built without the bridge's file (a test of one door). */
function inMemory({ clock }: ExtraDoor): EveDoor {
  const nowS = (): number => Math.floor(clock.now() / 1000);
  const ring = new EveRing(backfillWindow(clock.now(), EVE_BACKFILL_DAYS).fromS, EVE_HISTORY_CAPACITY);
  const door = new EveDoor(ring, {
    nowS,
    changed: () => undefined,
  });
  // No history read comes for it: its moves are written as they come.
  door.goLive();
  return door;
}

/** Removes the counters from whichever service holds them: with the option off, Eve shows no stale count. */
function removeCounters(hap: HAP, accessory: PlatformAccessory): void {
  const { TimesOpened, LastActivation } = eveTypes(hap);
  for (const service of accessory.services) {
    for (const Type of [TimesOpened, LastActivation]) {
      const characteristic = service.characteristics.find((c) => c.UUID === Type.UUID);
      if (characteristic) service.removeCharacteristic(characteristic);
    }
  }
}

export const eveHistory: ExtraSpec<boolean> = {
  service: (hap) => eveTypes(hap).History,
  subtype: 'eve-history',
  suffix: ' History',
  off: false,
  kept: true,
  create: (deps) => new DoorEveHistory(deps),
  remove: removeCounters,
};

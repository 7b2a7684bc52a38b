// The bridge's Eve histories: each door's, kept in one file of its own in Homebridge's storage (history-file.ts), the
// history read at start handed to each door, the 10-minute repeat for all doors at once, and doors that left dropped.
import type { Logging } from 'homebridge';

import type { ToggleEvent } from '../client/types.js';
import {
  EVE_BACKFILL_DAYS,
  EVE_BACKFILL_WAIT_MS,
  EVE_HISTORY_CAPACITY,
  EVE_HISTORY_REPEAT_MS,
  EVE_HISTORY_WRITE_DELAY_MS,
} from '../settings.js';
import type { Clock } from '../util/clock.js';
import { backfillWindow } from './backfill.js';
import { EveDoor } from './eve-door.js';
import { EveRing } from './eve-ring.js';
import { readHistoryFile, writeHistoryFile } from './history-file.js';

export interface EveHistoriesDeps {
  /** The history file; undefined keeps the histories in memory only (tests of one door). */
  path: string | undefined;
  log: Logging;
  clock: Clock;
  capacity?: number;
}

export class EveHistories {
  private readonly rings: Map<string, EveRing>;
  private readonly doors = new Map<string, EveDoor>();
  private saveTimer: unknown;
  private repeatTimer: unknown;
  private readonly waits = new Map<string, unknown>();
  private stopped = false;

  constructor(private readonly deps: EveHistoriesDeps) {
    if (deps.path === undefined) {
      this.rings = new Map();
      return;
    }
    const read = readHistoryFile(deps.path, this.capacity);
    this.rings = read.rings;
    for (const problem of read.problems) deps.log.warn(problem);
  }

  private get capacity(): number {
    return this.deps.capacity ?? EVE_HISTORY_CAPACITY;
  }

  private nowS(): number {
    return Math.floor(this.deps.clock.now() / 1000);
  }

  /** The window the history read at start covers (the backfill's), as of now. */
  window(): { startDay: string; fromS: number } {
    return backfillWindow(this.deps.clock.now(), EVE_BACKFILL_DAYS);
  }

  /** A door's history: kept from the file, or new, its reference time at the start of the backfill's window. */
  door(doorId: string): EveDoor {
    const known = this.doors.get(doorId);
    if (known) return known;
    let ring = this.rings.get(doorId);
    if (!ring) {
      ring = new EveRing(this.window().fromS, this.capacity);
      this.rings.set(doorId, ring);
    }
    const door = new EveDoor(ring, { nowS: () => this.nowS(), changed: () => this.scheduleSave() });
    this.doors.set(doorId, door);
    if (!this.stopped) {
      // The history read at start may fail or be slow: the door's moves are not held back for ever.
      this.waits.set(
        doorId,
        this.deps.clock.setTimeout(() => door.goLive(), EVE_BACKFILL_WAIT_MS),
      );
    }
    this.startRepeat();
    return door;
  }

  /** A read of one door's toggle history (its entries only, or a door's own history). */
  read(doorId: string, events: readonly ToggleEvent[]): void {
    const door = this.doors.get(doorId);
    if (!door || this.stopped) return;
    this.deps.clock.clearTimeout(this.waits.get(doorId));
    this.waits.delete(doorId);
    door.imported(events, doorId);
  }

  /** The doors in HomeKit now: any other door's history is dropped (a door removed from Home takes its history along). */
  retain(doorIds: readonly string[]): void {
    const kept = new Set(doorIds);
    let dropped = false;
    for (const doorId of [...this.rings.keys()]) {
      if (kept.has(doorId)) continue;
      this.rings.delete(doorId);
      this.doors.delete(doorId);
      this.deps.clock.clearTimeout(this.waits.get(doorId));
      this.waits.delete(doorId);
      dropped = true;
    }
    if (dropped) this.scheduleSave();
  }

  /** Stops the timers and writes what is not written yet (Homebridge is shutting down). */
  stop(): void {
    this.stopped = true;
    this.deps.clock.clearTimeout(this.repeatTimer);
    for (const wait of this.waits.values()) this.deps.clock.clearTimeout(wait);
    this.waits.clear();
    if (this.saveTimer !== undefined) {
      this.deps.clock.clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      this.save();
    }
  }

  /** One timer for every door: each repeats its state EVE_HISTORY_REPEAT_MS after the last, so they write the file once. */
  private startRepeat(): void {
    if (this.repeatTimer !== undefined || this.stopped) return;
    this.repeatTimer = this.deps.clock.setTimeout(() => {
      this.repeatTimer = undefined;
      for (const door of this.doors.values()) door.repeat();
      this.startRepeat();
    }, EVE_HISTORY_REPEAT_MS);
  }

  private scheduleSave(): void {
    if (this.saveTimer !== undefined || this.deps.path === undefined) return;
    if (this.stopped) {
      this.save();
      return;
    }
    this.saveTimer = this.deps.clock.setTimeout(() => {
      this.saveTimer = undefined;
      this.save();
    }, EVE_HISTORY_WRITE_DELAY_MS);
  }

  private save(): void {
    if (this.deps.path === undefined) return;
    try {
      writeHistoryFile(this.deps.path, this.rings);
    } catch (error) {
      this.deps.log.warn(
        `The Eve history could not be written to ${this.deps.path} (${error instanceof Error ? error.message : String(error)}); it is written again at the next change.`,
      );
    }
  }
}

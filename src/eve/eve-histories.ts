// The bridge's Eve histories: each door's, kept in one file of its own in Homebridge's storage (history-file.ts), the
// history read at start handed to each door, the 10-minute repeat and the backfill's wait at each sync (no timer of
// their own), and doors that left dropped.
import type { Logging } from 'homebridge';

import type { ToggleEvent } from '../client/types.js';
import { EVE_BACKFILL_DAYS, EVE_BACKFILL_WAIT_MS, EVE_HISTORY_CAPACITY, EVE_HISTORY_REPEAT_MS } from '../settings.js';
import type { Clock } from '../util/clock.js';
import { oneLine } from '../util/log-text.js';
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
  private readonly doors = new Map<string, { door: EveDoor; sinceMs: number }>();
  /** A write is due at the end of this turn: the news of one sync, or one history read, is one write. */
  private writeDue = false;
  /** The plugin's start: repeats are written from it on, never for the time Homebridge was down. */
  private readonly startedS: number;
  private stopped = false;

  constructor(private readonly deps: EveHistoriesDeps) {
    this.startedS = this.nowS();
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

  /** A door's history: kept from the file, or new, its reference time at the start of the backfill's window. */
  door(doorId: string): EveDoor {
    const known = this.doors.get(doorId);
    if (known) return known.door;
    let ring = this.rings.get(doorId);
    if (!ring) {
      ring = new EveRing(backfillWindow(this.deps.clock.now(), EVE_BACKFILL_DAYS).fromS, this.capacity);
      this.rings.set(doorId, ring);
    }
    const door = new EveDoor(ring, { nowS: () => this.nowS(), changed: () => this.writeSoon() });
    this.doors.set(doorId, { door, sinceMs: this.deps.clock.now() });
    return door;
  }

  /** A read of one door's toggle history (its entries only, or a door's own history). */
  read(doorId: string, events: readonly ToggleEvent[]): void {
    if (this.stopped) return;
    this.doors.get(doorId)?.door.imported(events, doorId);
  }

  /**
   * After each sync, failed or not (no timer of its own, so the plugin's timers stay the syncs'): a door whose history
   * read at start has not come in EVE_BACKFILL_WAIT_MS writes its moves without it, and each door writes the repeats due
   * since its newest record (or the start), every EVE_HISTORY_REPEAT_MS, at their own times.
   */
  tick(): void {
    if (this.stopped) return;
    const nowMs = this.deps.clock.now();
    const everyS = EVE_HISTORY_REPEAT_MS / 1000;
    for (const { door, sinceMs } of this.doors.values()) {
      if (nowMs - sinceMs >= EVE_BACKFILL_WAIT_MS) door.goLive();
      door.repeatUntil(this.startedS, everyS, this.nowS());
    }
  }

  /** The doors in HomeKit now: any other door's history is dropped (a door removed from Home takes its history along). */
  retain(doorIds: readonly string[]): void {
    const kept = new Set(doorIds);
    let dropped = false;
    for (const doorId of [...this.rings.keys()]) {
      if (kept.has(doorId)) continue;
      this.rings.delete(doorId);
      this.doors.delete(doorId);
      dropped = true;
    }
    if (dropped) this.writeSoon();
  }

  /** Homebridge is shutting down: what is not written yet is written now, and nothing after. */
  stop(): void {
    if (this.writeDue) this.write();
    this.stopped = true;
  }

  /** Writes at the end of this turn (a microtask, not a timer): a sync's news for many doors is one write. */
  private writeSoon(): void {
    if (this.writeDue || this.stopped || this.deps.path === undefined) return;
    this.writeDue = true;
    queueMicrotask(() => {
      if (this.writeDue) this.write();
    });
  }

  private write(): void {
    this.writeDue = false;
    if (this.deps.path === undefined) return;
    try {
      writeHistoryFile(this.deps.path, this.rings);
    } catch (error) {
      this.deps.log.warn(
        `The Eve history could not be written to ${this.deps.path} (${oneLine(error instanceof Error ? error.message : String(error))}); it is written again at the next change.`,
      );
    }
  }
}

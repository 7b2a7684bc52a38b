// The toggle history read once at start, per controller (or per door, paced, where the service refuses that): the
// baseline a door's first look after a start is told from, so even a history dated without a time names that move.
import type { Logging } from 'homebridge';

import { ServiceError } from '../client/errors.js';
import type { HistoryQuery } from '../client/service-client.js';
import type { ToggleEvent } from '../client/types.js';
import { entriesOfDoor } from '../people/attribution.js';
import { HISTORY_BASELINE_PACE_MS, HISTORY_BASELINE_RETRIES, HISTORY_BASELINE_RETRY_MS } from '../settings.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { listForLog } from '../util/log-text.js';

const DAY_MS = 24 * 60 * 60_000;

/** YYYY-MM-DD in UTC, the form the history endpoint takes. */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The history query of the last `days` days at `nowMs`, today included (the service's dates carry no zone: two days, from
 * yesterday, cover just after midnight; the Eve backfill asks for more).
 */
export function recentHistory(of: Pick<HistoryQuery, 'historyType' | 'doorId' | 'deviceId'>, nowMs: number, days = 2): HistoryQuery {
  return { ...of, startDate: day(nowMs - (days - 1) * DAY_MS), endDate: day(nowMs) };
}

/** A door a sync showed, as the baseline needs it: a controller's history holds its doors'. */
export interface TrackedDoor {
  doorId: string;
  deviceId: string;
  name: string;
}

export interface BaselineDeps {
  history: (query: HistoryQuery) => Promise<ToggleEvent[]>;
  log: Logging;
  clock?: Clock;
  /** The door's name, for the log. */
  name: (doorId: string) => string;
  /** A door's baseline, read at `atMs` (the entries of that door only). */
  settle: (doorId: string, entries: ToggleEvent[], atMs: number) => void;
  /** Days read, today included (2 by default; the Eve backfill's window when its history is on). */
  days?: number;
}

/** One read: a controller's history (its doors split from it), or one door's. */
type BaselineRead = ({ kind: 'device'; deviceId: string; doorIds: string[] } | { kind: 'door'; doorId: string }) & {
  /** Tries before this one that failed for a passing reason. */
  tries?: number;
};

/**
 * Reads each door's baseline once: one request per controller (`history_type=device`), one at a time, or per door where
 * the service refuses that or its entries name no door, one every HISTORY_BASELINE_PACE_MS; in the background. A refused
 * token stops it; a passing failure (a time-out, an outage, a rate limit) asks again later, up to HISTORY_BASELINE_RETRIES
 * times, for the doors no look has read since.
 */
export class HistoryBaseline {
  private readonly queue: BaselineRead[] = [];
  /** Doors whose baseline was asked for, or that needed none: never asked twice. */
  private readonly asked = new Set<string>();
  /** Per door, the read under way that holds it: its look waits for it. */
  private readonly underway = new Map<string, Promise<void>>();
  /** Doors a look took over: a read asked again later leaves them out. */
  private readonly takenOver = new Set<string>();
  /** The reads waiting to be asked again, by their timers. */
  private readonly retries = new Set<unknown>();
  private busy = false;
  /** The read under way (settled when none is). */
  private current: Promise<void> = Promise.resolve();
  private timer: unknown;
  /** Whether the service gives a controller's history: false once it refused it. */
  private deviceHistory = true;
  private stopped = false;

  constructor(private readonly deps: BaselineDeps) {}

  private get clock(): Clock {
    return this.deps.clock ?? SYSTEM_CLOCK;
  }

  /** After a sync: each door shown that has no baseline yet, and was never looked at, gets one. */
  track(doors: readonly TrackedDoor[]): void {
    if (this.stopped) return;
    const byDevice = new Map<string, string[]>();
    for (const { doorId, deviceId } of doors) {
      if (this.asked.has(doorId)) continue;
      this.asked.add(doorId);
      byDevice.set(deviceId, [...(byDevice.get(deviceId) ?? []), doorId]);
    }
    for (const [deviceId, doorIds] of byDevice) {
      if (this.deviceHistory) this.queue.push({ kind: 'device', deviceId, doorIds });
      else this.queue.push(...doorIds.map((doorId) => ({ kind: 'door' as const, doorId })));
    }
    this.next();
  }

  /** A door about to be looked at: it needs no baseline (its look is one); a read under way for it is returned, to wait for. */
  takeOver(doorId: string): Promise<void> | undefined {
    this.asked.add(doorId);
    this.takenOver.add(doorId);
    for (const read of [...this.queue]) {
      if (read.kind === 'device') read.doorIds = read.doorIds.filter((id) => id !== doorId);
      if (read.kind === 'device' ? read.doorIds.length === 0 : read.doorId === doorId) this.queue.splice(this.queue.indexOf(read), 1);
    }
    return this.underway.get(doorId);
  }

  /** Resolves once no read is under way (tests wait on it with the sync; a paced read is the clock's). */
  async settled(): Promise<void> {
    while (this.busy) await this.current;
  }

  stop(): void {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    for (const timer of this.retries) this.clock.clearTimeout(timer);
    this.retries.clear();
    this.queue.length = 0;
  }

  /**
   * Asks `reads` again later (each with one try more), for the doors no look has read meanwhile. False when the tries are
   * spent: those doors go without.
   */
  private retryLater(reads: BaselineRead[]): boolean {
    const tries = Math.max(...reads.map((read) => read.tries ?? 0));
    if (tries >= HISTORY_BASELINE_RETRIES) return false;
    const timer = this.clock.setTimeout(
      () => {
        this.retries.delete(timer);
        if (this.stopped) return;
        for (const read of reads) {
          const again: BaselineRead =
            read.kind === 'device'
              ? { ...read, doorIds: read.doorIds.filter((id) => !this.takenOver.has(id)), tries: tries + 1 }
              : { ...read, tries: tries + 1 };
          if (again.kind === 'device' ? again.doorIds.length > 0 : !this.takenOver.has(again.doorId)) this.queue.push(again);
        }
        this.next();
      },
      HISTORY_BASELINE_RETRY_MS * 4 ** tries,
    );
    this.retries.add(timer);
    return true;
  }

  /** Reads the next of the queue, unless one is under way or the pace holds it back. */
  private next(): void {
    if (this.stopped || this.busy || this.timer !== undefined) return;
    const read = this.queue.shift();
    if (!read) return;
    this.busy = true;
    const doorIds = read.kind === 'device' ? read.doorIds : [read.doorId];
    const settled = this.read(read).finally(() => {
      this.busy = false;
      for (const doorId of doorIds) this.underway.delete(doorId);
      // A controller's history follows the last at once (one request per controller); a door's waits
      // HISTORY_BASELINE_PACE_MS, as there may be a hundred.
      if (this.queue[0]?.kind !== 'door') {
        this.next();
        return;
      }
      if (this.stopped) return;
      this.timer = this.clock.setTimeout(() => {
        this.timer = undefined;
        this.next();
      }, HISTORY_BASELINE_PACE_MS);
    });
    this.current = settled;
    for (const doorId of doorIds) this.underway.set(doorId, settled);
  }

  /** One read; never rejects. */
  private async read(read: BaselineRead): Promise<void> {
    const atMs = this.clock.now();
    const doorIds = read.kind === 'device' ? read.doorIds : [read.doorId];
    const names = (): string => listForLog(doorIds.map((id) => this.deps.name(id)));
    const settle = (doorId: string, entries: ToggleEvent[]): void => {
      if (!this.stopped) this.deps.settle(doorId, entries, atMs);
    };
    try {
      if (read.kind === 'door') {
        const events = await this.deps.history(recentHistory({ historyType: 'door', doorId: read.doorId }, atMs, this.deps.days));
        settle(read.doorId, entriesOfDoor(events, read.doorId));
        return;
      }
      const events = await this.deps.history(recentHistory({ historyType: 'device', deviceId: read.deviceId }, atMs, this.deps.days));
      if (events.some((e) => e.doorId === undefined)) {
        // Entries that name no door cannot be given to one: each door is read alone.
        this.deps.log.debug(`The history of a controller names no door in some entries; the history of ${names()} is read door by door.`);
        this.queue.push(...doorIds.map((doorId) => ({ kind: 'door' as const, doorId })));
        return;
      }
      for (const doorId of doorIds) {
        settle(
          doorId,
          events.filter((e) => e.doorId === doorId),
        );
      }
    } catch (error) {
      if (this.stopped) return;
      if (read.kind === 'device' && refusedQuery(error)) {
        this.deviceHistory = false;
        this.deps.log.debug(
          `The service does not give a controller's history (${messageOf(error)}); the history of each door is read at start instead, one every ${HISTORY_BASELINE_PACE_MS / 1000} s.`,
        );
        const perDoor = (r: BaselineRead): BaselineRead[] =>
          r.kind === 'device' ? r.doorIds.map((doorId) => ({ kind: 'door' as const, doorId })) : [r];
        this.queue.splice(0, this.queue.length, ...perDoor(read), ...this.queue.flatMap(perDoor));
        return;
      }
      if (error instanceof ServiceError && error.kind === 'auth') {
        // A refused token stays refused until the settings change: the doors left go without a baseline.
        this.queue.length = 0;
      } else {
        // Asking on during a rate limit would only lengthen it: the reads left wait with this one.
        const later = error instanceof ServiceError && error.kind === 'rate-limited' ? [read, ...this.queue.splice(0)] : [read];
        if (this.retryLater(later)) {
          this.deps.log.debug(`The history of ${names()} could not be read at start (${messageOf(error)}); it is asked again later.`);
          return;
        }
      }
      this.deps.log.debug(
        `The history of ${names()} could not be read at start (${messageOf(error)}); the first move a sync finds there may name nobody.`,
      );
    }
  }
}

/** The service read the query and would not answer it: a 4xx other than the token's and the rate limit's, or another shape. */
function refusedQuery(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  return (
    error.kind === 'invalid-response' || (error.kind === 'http' && error.status !== undefined && error.status >= 400 && error.status < 500)
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Says who moved a door that a sync found changed, from the door's toggle history: each move once and in order, from a
// baseline read at start; a look waits for the door's pace, never dropped; never in HomeKit's way.
import type { Logging } from 'homebridge';

import { ServiceError } from '../client/errors.js';
import type { HistoryQuery } from '../client/service-client.js';
import type { DoorState, ToggleEvent } from '../client/types.js';
import { attributeMoves } from '../people/attribution.js';
import type { SeenMove, ToldMove } from '../people/attribution.js';
import { HISTORY_BASELINE_PACE_MS, HISTORY_MIN_INTERVAL_PER_DOOR_MS, HISTORY_MOVES_PER_LOOK_MAX } from '../settings.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { listForLog, oneLine } from '../util/log-text.js';

const DAY_MS = 24 * 60 * 60_000;

/** YYYY-MM-DD in UTC, the form the history endpoint takes. */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** What WhoMovedIt hands on: the entry the attribution rule named for a move a sync found. */
export type FoundMove = (doorId: string, doorName: string, state: DoorState, event: ToggleEvent) => void;

export interface WhoMovedItDeps {
  history: (query: HistoryQuery) => Promise<ToggleEvent[]>;
  log: Logging;
  clock?: Clock;
  /** The successful toggle the attribution rule names for a move (the person sensors take it). */
  found?: FoundMove;
  /** The moves of a door webhooks told of: the history's entries of them are not another move. */
  told?: (doorId: string) => readonly ToldMove[];
  /** Every entry read, before the rule runs: the names the history pairs with e-mails. */
  learn?: (events: readonly ToggleEvent[]) => void;
  /** An exception of the plugin's own while naming: a bug, never taken for the service's failure. */
  bug?: (what: string, error: unknown) => void;
}

/** A door a sync showed, as the baseline needs it: a controller's history holds its doors'. */
export interface TrackedDoor {
  doorId: string;
  deviceId: string;
  name: string;
}

/** What is known of one door's history. */
interface DoorLooks {
  name: string;
  /** Its `last_toggled` as the syncs saw it, and the one before it (its previous move). */
  lastToggled?: { now: string | undefined; before: string | undefined };
  /** The history read at its last look, or at start: the entries new since then are the moves since then. */
  previous?: { entries: ToggleEvent[]; atMs: number };
  lastAskedMs?: number;
  /** Moves the syncs found that the next look names, in the order found. */
  pending: SeenMove[];
  /** The next look, when the door's pace holds it back. */
  timer?: unknown;
  looking: boolean;
  /** Its baseline was asked for (whatever came of it): never asked twice. */
  baselined: boolean;
  /** Settles once a baseline read under way for the door has settled: a look waits for it. */
  baseline?: Promise<void>;
}

/** One baseline read: a controller's history (its doors split from it), or one door's. */
type BaselineRead = { kind: 'device'; deviceId: string; doorIds: string[] } | { kind: 'door'; doorId: string };

export class WhoMovedIt {
  private readonly doors = new Map<string, DoorLooks>();
  private readonly baselineQueue: BaselineRead[] = [];
  private baselineBusy = false;
  /** The baseline read under way (settled when none is). */
  private baselineRead: Promise<void> = Promise.resolve();
  private baselineTimer: unknown;
  /** Whether the service gives a controller's history (`history_type=device`): false once it refused it. */
  private deviceHistory = true;
  /** Set at Homebridge's shutdown: nothing is asked or logged after it. */
  private stopped = false;

  constructor(private readonly deps: WhoMovedItDeps) {}

  private get clock(): Clock {
    return this.deps.clock ?? SYSTEM_CLOCK;
  }

  private get log(): Logging {
    return this.deps.log;
  }

  /** Resolves once no baseline read is under way (tests wait on it with the sync; a paced read is the clock's). */
  async settled(): Promise<void> {
    while (this.baselineBusy) await this.baselineRead;
  }

  stop(): void {
    this.stopped = true;
    for (const door of this.doors.values()) this.clock.clearTimeout(door.timer);
    this.clock.clearTimeout(this.baselineTimer);
    this.baselineQueue.length = 0;
  }

  /** Read through a call: stop() may run while a look awaits, which the type checker's narrowing of the field cannot see. */
  private stoppedMeanwhile(): boolean {
    return this.stopped;
  }

  private door(doorId: string, name = doorId): DoorLooks {
    let door = this.doors.get(doorId);
    if (!door) {
      door = { name, pending: [], looking: false, baselined: false };
      this.doors.set(doorId, door);
    }
    return door;
  }

  /** A sync saw the door with this `last_toggled`: a new value makes the one before it the door's previous move. */
  seen(doorId: string, lastToggled: string | undefined): void {
    const door = this.door(doorId);
    const known = door.lastToggled;
    if (known === undefined) {
      door.lastToggled = { now: lastToggled, before: undefined };
    } else if (lastToggled !== undefined && lastToggled !== known.now) {
      door.lastToggled = { now: lastToggled, before: known.now };
    }
  }

  /**
   * A sync found `doorId` moved to `state` (its `last_toggled` now given): the next look names who moved it, in the
   * background. A look comes at most every HISTORY_MIN_INTERVAL_PER_DOOR_MS per door; a move found sooner waits for it.
   */
  explain(doorId: string, doorName: string, state: DoorState, lastToggled?: string): void {
    if (this.stopped) return;
    this.seen(doorId, lastToggled);
    const door = this.door(doorId);
    door.name = doorName;
    door.pending.push({
      doorId,
      state,
      lastToggled: door.lastToggled?.now,
      previousLastToggled: door.lastToggled?.before,
      seenAtMs: this.clock.now(),
    });
    const over = door.pending.length - HISTORY_MOVES_PER_LOOK_MAX;
    if (over > 0) {
      door.pending.splice(0, over);
      this.log.debug(`The history of ${doorName} does not say who moved it ${over} time(s): more moves waited for one look than it names.`);
    }
    this.schedule(doorId, door);
  }

  /** Looks now, or once the door's pace allows; one look at a time per door, each for every move found by then. */
  private schedule(doorId: string, door: DoorLooks): void {
    if (this.stopped || door.looking || door.timer !== undefined || door.pending.length === 0) return;
    const waitMs = (door.lastAskedMs ?? Number.NEGATIVE_INFINITY) + HISTORY_MIN_INTERVAL_PER_DOOR_MS - this.clock.now();
    if (waitMs > 0) {
      this.log.debug(`Asking who moved ${door.name} in ${Math.ceil(waitMs / 1000)} s: its history was asked moments ago.`);
      door.timer = this.clock.setTimeout(() => {
        door.timer = undefined;
        void this.look(doorId, door);
      }, waitMs);
      return;
    }
    void this.look(doorId, door);
  }

  private async look(doorId: string, door: DoorLooks): Promise<void> {
    const moves = door.pending.splice(0);
    if (this.stopped || moves.length === 0) return;
    door.looking = true;
    door.lastAskedMs = this.clock.now();
    this.unqueueBaseline(doorId);
    try {
      // A baseline under way is the history before these moves: this look compares with it.
      if (door.baseline) await door.baseline;
      if (this.stoppedMeanwhile()) {
        this.log.debug(`Who moved ${door.name} is not asked: Homebridge began shutting down.`);
        return;
      }
      const askedAtMs = this.clock.now();
      let events: ToggleEvent[];
      try {
        events = await this.deps.history(this.query({ historyType: 'door', doorId }));
      } catch (error) {
        if (!this.stoppedMeanwhile()) this.log.debug(`Who moved ${door.name} is unknown: ${messageOf(error)}.`);
        return;
      }
      if (this.stoppedMeanwhile()) {
        this.log.debug(`Who moved ${door.name} is not logged: the answer came after Homebridge began shutting down.`);
        return;
      }
      try {
        this.report(doorId, door, events, moves, askedAtMs);
      } catch (error) {
        this.deps.bug?.('naming who moved a door', error);
      }
    } finally {
      door.looking = false;
      this.schedule(doorId, door);
    }
  }

  private report(doorId: string, door: DoorLooks, events: ToggleEvent[], moves: SeenMove[], askedAtMs: number): void {
    const ofDoor = events.filter((e) => e.doorId === undefined || e.doorId === doorId);
    this.deps.learn?.(ofDoor);
    const previous = door.previous;
    door.previous = { entries: ofDoor, atMs: askedAtMs };
    const named = attributeMoves(moves, {
      now: ofDoor,
      previous: previous?.entries,
      previousAtMs: previous?.atMs,
      told: this.deps.told?.(doorId) ?? [],
    });
    moves.forEach((move, i) => {
      const verb = move.state === 'OPEN' ? 'opened' : 'closed';
      const match = named[i]?.entry;
      if (!match) {
        this.log.debug(`The history of ${door.name} does not say who ${verb} it: ${named[i]?.why ?? 'no entry is this move'}.`);
        return;
      }
      // The name and channel are the service's text: one clean, bounded piece each, so they cannot forge log lines.
      const how = match.channel ? ` (${oneLine(match.channel)})` : '';
      this.log.info(`${door.name} was ${verb} by ${oneLine(match.userName ?? '') || 'someone'}${how}.`);
      this.deps.found?.(doorId, door.name, move.state, match);
    });
  }

  /** The history query of the last two days (the service's dates carry no zone: from yesterday covers just after midnight). */
  private query(of: Pick<HistoryQuery, 'historyType' | 'doorId' | 'deviceId'>): HistoryQuery {
    const now = this.clock.now();
    return { ...of, startDate: day(now - DAY_MS), endDate: day(now) };
  }

  /**
   * After a sync: each door shown that was never looked at gets its baseline, the history as it stands, so the first
   * move a sync finds after a start is told from the entries before it (a history dated without a time has no other
   * way). One request per controller (`history_type=device`), one at a time, or per door where the service refuses
   * that, one every HISTORY_BASELINE_PACE_MS; in the background.
   */
  track(doors: readonly TrackedDoor[]): void {
    if (this.stopped) return;
    const byDevice = new Map<string, string[]>();
    for (const { doorId, deviceId, name } of doors) {
      const door = this.door(doorId, name);
      if (door.baselined || door.lastAskedMs !== undefined || door.pending.length > 0) continue;
      door.baselined = true;
      byDevice.set(deviceId, [...(byDevice.get(deviceId) ?? []), doorId]);
    }
    for (const [deviceId, doorIds] of byDevice) {
      if (this.deviceHistory) this.baselineQueue.push({ kind: 'device', deviceId, doorIds });
      else this.baselineQueue.push(...doorIds.map((doorId) => ({ kind: 'door' as const, doorId })));
    }
    this.nextBaseline();
  }

  /** Reads the next baseline of the queue, unless one is under way or the pace holds it back. */
  private nextBaseline(): void {
    if (this.stopped || this.baselineBusy || this.baselineTimer !== undefined) return;
    const read = this.baselineQueue.shift();
    if (!read) return;
    this.baselineBusy = true;
    const settled = this.readBaseline(read).finally(() => {
      this.baselineBusy = false;
      // A controller's history follows the last at once (one request per controller, one at a time); a door's waits
      // HISTORY_BASELINE_PACE_MS, as there may be a hundred.
      if (this.baselineQueue[0]?.kind !== 'door') {
        this.nextBaseline();
        return;
      }
      if (this.stopped) return;
      this.baselineTimer = this.clock.setTimeout(() => {
        this.baselineTimer = undefined;
        this.nextBaseline();
      }, HISTORY_BASELINE_PACE_MS);
    });
    this.baselineRead = settled;
    for (const doorId of read.kind === 'device' ? read.doorIds : [read.doorId]) this.door(doorId).baseline = settled;
  }

  /** A door about to be looked at needs no baseline: its look is one. */
  private unqueueBaseline(doorId: string): void {
    for (const read of [...this.baselineQueue]) {
      if (read.kind === 'device') read.doorIds = read.doorIds.filter((id) => id !== doorId);
      if (read.kind === 'device' ? read.doorIds.length === 0 : read.doorId === doorId) {
        this.baselineQueue.splice(this.baselineQueue.indexOf(read), 1);
      }
    }
  }

  /** One baseline read; never rejects (a failure leaves the doors without one: their first look goes without). */
  private async readBaseline(read: BaselineRead): Promise<void> {
    const atMs = this.clock.now();
    const doorIds = read.kind === 'device' ? read.doorIds : [read.doorId];
    const names = (): string => listForLog(doorIds.map((id) => this.door(id).name));
    try {
      if (read.kind === 'door') {
        const events = await this.deps.history(this.query({ historyType: 'door', doorId: read.doorId }));
        this.settleBaseline(
          read.doorId,
          events.filter((e) => e.doorId === undefined || e.doorId === read.doorId),
          atMs,
        );
        return;
      }
      const events = await this.deps.history(this.query({ historyType: 'device', deviceId: read.deviceId }));
      if (events.some((e) => e.doorId === undefined)) {
        // Entries that name no door cannot be given to one: each door is read alone.
        this.log.debug(`The history of a controller names no door in some entries; the history of ${names()} is read door by door.`);
        this.baselineQueue.push(...doorIds.map((doorId) => ({ kind: 'door' as const, doorId })));
        return;
      }
      for (const doorId of doorIds) {
        this.settleBaseline(
          doorId,
          events.filter((e) => e.doorId === doorId),
          atMs,
        );
      }
    } catch (error) {
      if (this.stopped) return;
      if (read.kind === 'device' && refusedQuery(error)) {
        this.deviceHistory = false;
        this.log.debug(
          `The service does not give a controller's history (${messageOf(error)}); the history of each door is read at start instead, one every ${HISTORY_BASELINE_PACE_MS / 1000} s.`,
        );
        const perDoor = (r: BaselineRead): BaselineRead[] =>
          r.kind === 'device' ? r.doorIds.map((doorId) => ({ kind: 'door' as const, doorId })) : [r];
        this.baselineQueue.splice(0, this.baselineQueue.length, ...perDoor(read), ...this.baselineQueue.flatMap(perDoor));
        return;
      }
      if (error instanceof ServiceError && (error.kind === 'rate-limited' || error.kind === 'auth')) {
        // Asking on would only lengthen a lockout: the doors left go without a baseline.
        this.baselineQueue.length = 0;
      }
      this.log.debug(
        `The history of ${names()} could not be read at start (${messageOf(error)}); the first move a sync finds there may name nobody.`,
      );
    }
  }

  /** The baseline read at `atMs` is the door's previous look, unless a look has read the history since. */
  private settleBaseline(doorId: string, entries: ToggleEvent[], atMs: number): void {
    const door = this.doors.get(doorId);
    if (this.stopped || !door || door.previous !== undefined) return;
    this.deps.learn?.(entries);
    door.previous = { entries, atMs };
  }
}

/** The service read the query and would not answer it: a 4xx other than the token's and the rate limit's, or another shape. */
function refusedQuery(error: unknown): boolean {
  if (!(error instanceof ServiceError)) return false;
  return (
    error.kind === 'invalid-response' || (error.kind === 'http' && error.status !== undefined && error.status >= 400 && error.status < 500)
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

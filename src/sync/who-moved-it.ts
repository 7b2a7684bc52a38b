// Says who moved a door that a sync found changed, from the door's toggle history: each move once and in order, from a
// baseline read at start; a look waits for the door's pace, never dropped; never in HomeKit's way.
import type { Logging } from 'homebridge';

import type { HistoryQuery } from '../client/service-client.js';
import type { DoorState, ToggleEvent } from '../client/types.js';
import { attributeMoves, entriesOfDoor } from '../people/attribution.js';
import type { SeenMove, ToldMove } from '../people/attribution.js';
import { HISTORY_MIN_INTERVAL_PER_DOOR_MS, HISTORY_MOVES_PER_LOOK_MAX } from '../settings.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { oneLine } from '../util/log-text.js';
import { serviceTimeMs } from '../people/service-time.js';
import { HistoryBaseline, messageOf, recentHistory } from './history-baseline.js';
import type { TrackedDoor } from './history-baseline.js';

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
  /** Days the history read at start covers (2 by default): the Eve backfill reads the same read, for longer. */
  historyDays?: number;
  /**
   * True when track() follows every sync (the platform): a move found for a door no earlier sync of this run showed is
   * then against the accessory cache, and told as history when the service dates it before this start. Otherwise every
   * move is news.
   */
  tracksSyncs?: boolean;
  /** Every read of a door's history, its entries only (the Eve backfill takes each door's first). */
  read?: (doorId: string, entries: readonly ToggleEvent[]) => void;
}

/** The service writes its times to the second: a move dated within one before the start may have been made after it. */
const SERVICE_TIME_STEP_MS = 1000;

/** A move a sync found, and whether it was found against the accessory cache (made while the plugin was not running). */
type FoundSeenMove = SeenMove & { beforeStart: boolean };

/** What is known of one door's history. */
interface DoorLooks {
  name: string;
  /** Its `last_toggled` as the syncs saw it, and the one before it (its previous move). */
  lastToggled?: { now: string | undefined; before: string | undefined };
  /** The history read at its last look, or at start: the entries new since then are the moves since then. */
  previous?: { entries: ToggleEvent[]; atMs: number };
  lastAskedMs?: number;
  /** Moves the syncs found that the next look names, in the order found. */
  pending: FoundSeenMove[];
  /** The next look, when the door's pace holds it back. */
  timer?: unknown;
  looking: boolean;
  /** Set once a sync of this run has shown the door: a move found before that is against the cache, made before this start. */
  tracked?: boolean;
}

export class WhoMovedIt {
  private readonly doors = new Map<string, DoorLooks>();
  private readonly baseline: HistoryBaseline;
  /** Set at Homebridge's shutdown: nothing is asked or logged after it. */
  private stopped = false;
  /** When this run began: a move found at start dated before it (by the service's clock) is history. */
  private readonly startedAtMs: number;

  constructor(private readonly deps: WhoMovedItDeps) {
    this.startedAtMs = (deps.clock ?? SYSTEM_CLOCK).now();
    this.baseline = new HistoryBaseline({
      history: deps.history,
      log: deps.log,
      clock: deps.clock,
      name: (doorId) => this.door(doorId).name,
      settle: (doorId, entries, atMs) => this.settleBaseline(doorId, entries, atMs),
      days: deps.historyDays,
    });
  }

  private get clock(): Clock {
    return this.deps.clock ?? SYSTEM_CLOCK;
  }

  private get log(): Logging {
    return this.deps.log;
  }

  /** Resolves once no baseline read is under way (tests wait on it with the sync; a paced read is the clock's). */
  settled(): Promise<void> {
    return this.baseline.settled();
  }

  stop(): void {
    this.stopped = true;
    for (const door of this.doors.values()) this.clock.clearTimeout(door.timer);
    this.baseline.stop();
  }

  /** Read through a call: stop() may run while a look awaits, which the type checker's narrowing of the field cannot see. */
  private stoppedMeanwhile(): boolean {
    return this.stopped;
  }

  private door(doorId: string, name = doorId): DoorLooks {
    let door = this.doors.get(doorId);
    if (!door) {
      door = { name, pending: [], looking: false };
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
      beforeStart: this.deps.tracksSyncs === true && door.tracked !== true,
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
    // A baseline under way is the history before these moves: this look compares with it. One not asked yet is not needed.
    const baseline = this.baseline.takeOver(doorId);
    try {
      if (baseline) await baseline;
      if (this.stoppedMeanwhile()) {
        this.log.debug(`Who moved ${door.name} is not asked: Homebridge began shutting down.`);
        return;
      }
      const askedAtMs = this.clock.now();
      let events: ToggleEvent[];
      try {
        events = await this.deps.history(recentHistory({ historyType: 'door', doorId }, askedAtMs));
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

  private report(doorId: string, door: DoorLooks, events: ToggleEvent[], moves: FoundSeenMove[], askedAtMs: number): void {
    const ofDoor = entriesOfDoor(events, doorId);
    this.deps.read?.(doorId, ofDoor);
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
      const movedAtMs = serviceTimeMs(move.lastToggled) ?? serviceTimeMs(match.at);
      const history = move.beforeStart && movedAtMs !== undefined && movedAtMs < this.startedAtMs - SERVICE_TIME_STEP_MS;
      const when = history ? ` ${beforeThisStart(movedAtMs, this.clock.now())}` : '';
      this.log.info(`${door.name} was ${verb} by ${oneLine(match.userName ?? '') || 'someone'}${how}${when}.`);
      // A move made before this start is history: no person sensor detects for it as if it just happened.
      if (!history) this.deps.found?.(doorId, door.name, move.state, match);
    });
  }

  /**
   * After a sync: each door shown that was never looked at gets its baseline, the history as it stands (see
   * HistoryBaseline), so the first move a sync finds after a start is told from the entries before it: a history dated
   * without a time has no other way.
   */
  track(doors: readonly TrackedDoor[]): void {
    for (const { doorId, name } of doors) this.door(doorId, name).tracked = true;
    this.baseline.track(doors);
  }

  /** The baseline read at `atMs` is the door's previous look, unless a look has read the history since. */
  private settleBaseline(doorId: string, entries: ToggleEvent[], atMs: number): void {
    this.deps.read?.(doorId, entries);
    const door = this.door(doorId);
    if (door.previous !== undefined) return;
    this.deps.learn?.(entries);
    door.previous = { entries, atMs };
  }
}

/**
 * When a move found at start was made, for its log line: "20 hours ago, before this start" by the service's time (read as
 * the service writes it, as the Eve history reads it), or "before this start" alone when that time is unknown or ahead.
 */
export function beforeThisStart(movedAtMs: number | undefined, nowMs: number): string {
  const ageMs = movedAtMs === undefined ? -1 : nowMs - movedAtMs;
  if (ageMs < 0) return 'before this start';
  const minutes = Math.floor(ageMs / 60_000);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const [count, unit] = days >= 2 ? [days, 'day'] : hours >= 1 ? [hours, 'hour'] : [minutes, 'minute'];
  const ago = count === 0 ? 'moments ago' : `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  return `${ago}, before this start`;
}

// One door's Eve history while the plugin runs: its ring, the moves the plugin learns (held until the history read at
// start is in, so the records stay in time order), that read's import, the 10-minute repeat, and Eve's reset.
import type { ToggleEvent } from '../client/types.js';
import { movesToImport } from './backfill.js';
import type { EveMove } from './backfill.js';
import type { EveRing } from './eve-ring.js';
import { serviceTimeMs } from '../people/service-time.js';
import { EVE_MOVE_DATE_WINDOW_S } from '../settings.js';

export interface EveDoorDeps {
  /** Now, in Unix seconds. */
  nowS: () => number;
  /** The ring changed: the file is to be written. */
  changed: () => void;
}

export class EveDoor {
  /** The state last seen (true: open); undefined until the first, which is where the door stands, not a move. */
  private lastSeenOpen: boolean | undefined;
  /** Moves learnt before the history read at start was in. */
  private readonly pending: EveMove[] = [];
  /** False until the history read at start was imported, or given up on (EVE_BACKFILL_WAIT_MS). */
  private backfilled = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly ring: EveRing,
    private readonly deps: EveDoorDeps,
  ) {}

  /** Whether the door's moves are being written (its history read at start is in, or was given up on). */
  get live(): boolean {
    return this.backfilled;
  }

  /** Calls `listener` when a record was added or the count reset (Eve's characteristics follow); returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The door's state as the plugin knows it now: a change is a record at once (or once the backfill is in), dated by
   * the service's `last_toggled` when that is this move (the history's entry of it has the same time, so a restart finds
   * it already written), else now.
   */
  observe(open: boolean, lastToggled?: string): void {
    const before = this.lastSeenOpen;
    this.lastSeenOpen = open;
    if (before === undefined || before === open) return;
    const move = { timeS: this.moveTime(lastToggled), open };
    if (this.backfilled) this.write([move], true);
    else this.pending.push(move);
  }

  /**
   * The door's first read of its toggle history since the start: what is new in it is written, then the moves learnt
   * meanwhile. Later reads add nothing: the moves since are the live ones, and a service clock a little ahead of this
   * one would make a live move's own entry look new.
   */
  imported(events: readonly ToggleEvent[], doorId: string): void {
    if (this.backfilled) return;
    const after = this.ring.last()?.timeS ?? Number.NEGATIVE_INFINITY;
    this.write(movesToImport(events, doorId, after, this.ring.referenceS), false);
    this.goLive();
  }

  /** The history read at start did not come in time (or failed): the moves learnt meanwhile are written without it. */
  goLive(): void {
    if (this.backfilled) return;
    this.backfilled = true;
    this.write(this.pending.splice(0), true);
  }

  /**
   * `last_toggled` is this move's time when it is newer than the newest record and within EVE_MOVE_DATE_WINDOW_S before
   * now (a webhook's move comes before the sync that would tell it; a service writing another zone is hours away).
   */
  private moveTime(lastToggled: string | undefined): number {
    const nowS = this.deps.nowS();
    const ms = serviceTimeMs(lastToggled);
    if (ms === undefined) return nowS;
    const atS = Math.floor(ms / 1000);
    const newest = this.ring.last()?.timeS ?? Number.NEGATIVE_INFINITY;
    return atS > newest && atS <= nowS && atS >= nowS - EVE_MOVE_DATE_WINDOW_S ? atS : nowS;
  }

  /**
   * The repeats due by `nowS`: the state the door is in, again, every `everyS` after its newest record (never before
   * `fromS`, the plugin's start: the state while Homebridge was down is not known), at their own times, so Eve's graph
   * has no holes whenever the syncs come.
   */
  repeatUntil(fromS: number, everyS: number, nowS: number): void {
    if (!this.backfilled || this.lastSeenOpen === undefined) return;
    let next = Math.max(this.ring.last()?.timeS ?? fromS, fromS) + everyS;
    let added = false;
    for (; next <= nowS; next += everyS) {
      this.ring.add(next, this.lastSeenOpen ? 1 : 0);
      added = true;
    }
    if (added) this.notify();
  }

  /** Eve's ResetTotal: the count of openings starts again. */
  resetTotal(): void {
    this.ring.timesOpened = 0;
    this.notify();
  }

  /**
   * Writes moves in order. A live move the ring's newest record already shows is the same move (the history's entry of
   * it came first, or the door's state after a start): not written twice.
   */
  private write(moves: readonly EveMove[], live: boolean): void {
    let added = false;
    for (const move of moves) {
      const last = this.ring.last();
      if (live && last?.status === (move.open ? 1 : 0)) continue;
      this.ring.add(move.timeS, move.open ? 1 : 0, { opening: move.open });
      added = true;
    }
    if (added) this.notify();
  }

  private notify(): void {
    this.deps.changed();
    for (const listener of this.listeners) listener();
  }
}

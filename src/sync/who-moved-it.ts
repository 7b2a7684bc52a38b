// Says who moved a door that a poll found changed, from the door's toggle history; rate-limited and never in HomeKit's way.
import type { Logging } from 'homebridge';

import type { HistoryQuery } from '../client/service-client.js';
import type { DoorState, ToggleEvent } from '../client/types.js';
import { oneLine } from '../util/log-text.js';
import { HISTORY_MIN_INTERVAL_PER_DOOR_MS } from '../settings.js';
import { attribute } from '../people/attribution.js';
import type { SeenMove, ToldMove } from '../people/attribution.js';

const DAY_MS = 24 * 60 * 60_000;

/** YYYY-MM-DD in UTC, the form the history endpoint takes. */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** What WhoMovedIt hands on: the entry the attribution rule named for a move a sync found. */
export type FoundMove = (doorId: string, doorName: string, state: DoorState, event: ToggleEvent) => void;

export class WhoMovedIt {
  private readonly lastAskedMs = new Map<string, number>();
  /** Per door, the history read at its last look: the entries new since then are the moves since then. */
  private readonly previousLook = new Map<string, { entries: ToggleEvent[]; atMs: number }>();
  /** Per door, its `last_toggled` as the syncs saw it, and the one before it (its previous move). */
  private readonly lastToggled = new Map<string, { now: string | undefined; before: string | undefined }>();
  /** Set at Homebridge's shutdown: a history answer that comes later is not logged. */
  private stopped = false;

  constructor(
    private readonly history: (query: HistoryQuery) => Promise<ToggleEvent[]>,
    private readonly log: Logging,
    private readonly now: () => number = Date.now,
    /** The successful toggle the attribution rule names for a move (the person sensors take it). */
    private readonly found?: FoundMove,
    /** The moves of a door webhooks told of: the history's entries of them are not this move. */
    private readonly told: (doorId: string) => readonly ToldMove[] = () => [],
    /** Every entry read, before the rule runs: the names the history pairs with e-mails. */
    private readonly learn: (events: readonly ToggleEvent[]) => void = () => undefined,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  /** A sync saw the door with this `last_toggled`: a new value makes the one before it the door's previous move. */
  seen(doorId: string, lastToggled: string | undefined): void {
    const known = this.lastToggled.get(doorId);
    if (known === undefined) {
      this.lastToggled.set(doorId, { now: lastToggled, before: undefined });
    } else if (lastToggled !== undefined && lastToggled !== known.now) {
      this.lastToggled.set(doorId, { now: lastToggled, before: known.now });
    }
  }

  /** Looks up, in the background, who moved `doorId` to `state` (the door's `last_toggled` now given), and logs it. */
  explain(doorId: string, doorName: string, state: DoorState, lastToggled?: string): void {
    if (this.stopped) {
      return;
    }
    this.seen(doorId, lastToggled);
    const now = this.now();
    if (now - (this.lastAskedMs.get(doorId) ?? Number.NEGATIVE_INFINITY) < HISTORY_MIN_INTERVAL_PER_DOOR_MS) {
      this.log.debug(`Not asking who moved ${doorName}: its history was asked moments ago.`);
      return;
    }
    this.lastAskedMs.set(doorId, now);
    const toggled = this.lastToggled.get(doorId);
    const move: SeenMove = { doorId, state, lastToggled: toggled?.now, previousLastToggled: toggled?.before, seenAtMs: now };
    // The service's dates carry no time zone: from yesterday covers a change just after midnight anywhere.
    const query: HistoryQuery = { historyType: 'door', doorId, startDate: day(now - DAY_MS), endDate: day(now) };
    this.history(query).then(
      (events) =>
        this.stopped
          ? this.log.debug(`Who moved ${doorName} is not logged: the answer came after Homebridge began shutting down.`)
          : this.report(events, move, doorName),
      (error: unknown) => this.log.debug(`Who moved ${doorName} is unknown: ${error instanceof Error ? error.message : String(error)}.`),
    );
  }

  private report(events: ToggleEvent[], move: SeenMove, doorName: string): void {
    const { doorId, state } = move;
    const ofDoor = events.filter((e) => e.doorId === undefined || e.doorId === doorId);
    this.learn(ofDoor);
    const previous = this.previousLook.get(doorId);
    this.previousLook.set(doorId, { entries: ofDoor, atMs: move.seenAtMs });
    const named = attribute(move, { now: ofDoor, previous: previous?.entries, previousAtMs: previous?.atMs, told: this.told(doorId) });
    const match = named.entry;
    if (!match) {
      this.log.debug(`The history of ${doorName} does not say who ${state === 'OPEN' ? 'opened' : 'closed'} it: ${named.why}.`);
      return;
    }
    // The name and channel are the service's text: one clean, bounded piece each, so they cannot forge log lines.
    const how = match.channel ? ` (${oneLine(match.channel)})` : '';
    this.log.info(`${doorName} was ${state === 'OPEN' ? 'opened' : 'closed'} by ${oneLine(match.userName ?? '') || 'someone'}${how}.`);
    this.found?.(doorId, doorName, state, match);
  }
}

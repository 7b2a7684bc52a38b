// Says who moved a door that a poll found changed, from the door's toggle history; rate-limited and never in HomeKit's way.
import type { Logging } from 'homebridge';

import type { HistoryQuery } from '../client/service-client.js';
import type { DoorState, ToggleEvent } from '../client/types.js';
import { oneLine } from '../util/log-text.js';
import { HISTORY_MIN_INTERVAL_PER_DOOR_MS } from '../settings.js';

const DAY_MS = 24 * 60 * 60_000;

/** YYYY-MM-DD in UTC, the form the history endpoint takes. */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class WhoMovedIt {
  private readonly lastAskedMs = new Map<string, number>();
  /** Set at Homebridge's shutdown: a history answer that comes later is not logged. */
  private stopped = false;

  constructor(
    private readonly history: (query: HistoryQuery) => Promise<ToggleEvent[]>,
    private readonly log: Logging,
    private readonly now: () => number = Date.now,
    /** The successful toggle the history names for a move (the person sensors take it); not for an unsuccessful one. */
    private readonly found?: (doorId: string, doorName: string, state: DoorState, event: ToggleEvent) => void,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  /** Looks up, in the background, who last moved `doorId` to `state`, and logs it. */
  explain(doorId: string, doorName: string, state: DoorState): void {
    if (this.stopped) {
      return;
    }
    const now = this.now();
    if (now - (this.lastAskedMs.get(doorId) ?? Number.NEGATIVE_INFINITY) < HISTORY_MIN_INTERVAL_PER_DOOR_MS) {
      this.log.debug(`Not asking who moved ${doorName}: its history was asked moments ago.`);
      return;
    }
    this.lastAskedMs.set(doorId, now);
    // The service's dates carry no time zone: from yesterday covers a change just after midnight anywhere.
    const query: HistoryQuery = { historyType: 'door', doorId, startDate: day(now - DAY_MS), endDate: day(now) };
    this.history(query).then(
      (events) =>
        this.stopped
          ? this.log.debug(`Who moved ${doorName} is not logged: the answer came after Homebridge began shutting down.`)
          : this.report(events, doorId, doorName, state),
      (error: unknown) => this.log.debug(`Who moved ${doorName} is unknown: ${error instanceof Error ? error.message : String(error)}.`),
    );
  }

  private report(events: ToggleEvent[], doorId: string, doorName: string, state: DoorState): void {
    // Newest first, as the service sends them. Only the door's newest successful move can be the one a sync just found: an
    // older one to the same state (before a move back the history has not recorded yet) would name the wrong person.
    const newest = events.find((e) => (e.doorId === undefined || e.doorId === doorId) && e.wasSuccess !== false);
    const match = newest?.doorState?.toUpperCase() === state ? newest : undefined;
    if (!match) {
      this.log.debug(`The history of ${doorName} does not say who ${state === 'OPEN' ? 'opened' : 'closed'} it.`);
      return;
    }
    // The name and channel are the service's text: one clean, bounded piece each, so they cannot forge log lines.
    const how = match.channel ? ` (${oneLine(match.channel)})` : '';
    this.log.info(`${doorName} was ${state === 'OPEN' ? 'opened' : 'closed'} by ${oneLine(match.userName ?? '') || 'someone'}${how}.`);
    this.found?.(doorId, doorName, state, match);
  }
}

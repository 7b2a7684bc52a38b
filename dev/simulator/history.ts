// The account's toggle history: records events and answers toggle-history queries (newest first).
import { formatUtcDay } from './dates.js';
import type { HistoryFilter, SimHistoryEvent } from './types.js';

export class HistoryLog {
  private readonly events: SimHistoryEvent[] = [];

  add(event: SimHistoryEvent): void {
    this.events.push(event);
  }

  /** Matching events, newest first; ties keep the most recently recorded first. */
  query(filter: HistoryFilter): SimHistoryEvent[] {
    const matching = this.events.filter((event) => {
      const day = formatUtcDay(event.at);
      return (
        (filter.doorId === undefined || event.doorId === filter.doorId) &&
        (filter.deviceId === undefined || event.deviceId === filter.deviceId) &&
        (filter.startDay === undefined || day >= filter.startDay) &&
        (filter.endDay === undefined || day <= filter.endDay)
      );
    });
    // Stable sort on a reversed copy puts later-recorded events first among equal timestamps.
    return matching.reverse().sort((a, b) => b.at.getTime() - a.at.getTime());
  }

  /** Every recorded event in recording order (for tests). */
  all(): readonly SimHistoryEvent[] {
    return this.events;
  }
}

// Which entries of a door's toggle history become Eve records: its successful toggles with a date and a time, oldest
// first, each newer than the door's newest record, so a restart, an outage or a second read imports nothing twice. Pure.
import type { ToggleEvent } from '../client/types.js';
import { serviceTimeMs } from '../people/service-time.js';

/** A move to write: when (Unix seconds) and whether the door opened. */
export interface EveMove {
  timeS: number;
  open: boolean;
}

/**
 * The moves of `doorId` in `events` (in the service's order, newest or oldest first) newer than `afterS` and not before
 * `fromS`. A date alone, an unreadable time, a failed or unknown outcome and an unknown state are left out: Eve keeps what
 * it downloads for good, so a time the plugin is not sure of could never be corrected.
 */
export function movesToImport(events: readonly ToggleEvent[], doorId: string, afterS: number, fromS: number): EveMove[] {
  const moves: EveMove[] = [];
  for (const event of events) {
    // An entry naming no door is this door's only in a door's own history, which the caller filtered by door.
    if (event.doorId !== undefined && event.doorId !== doorId) continue;
    if (event.wasSuccess !== true) continue;
    const state = event.doorState?.trim().toUpperCase();
    if (state !== 'OPEN' && state !== 'CLOSED') continue;
    const ms = serviceTimeMs(event.at);
    if (ms === undefined) continue;
    const timeS = Math.floor(ms / 1000);
    if (timeS <= afterS || timeS < fromS) continue;
    moves.push({ timeS, open: state === 'OPEN' });
  }
  // Newest first (as the service sends it by default): reversed, so moves in the same second keep their true order.
  const first = moves[0];
  const last = moves[moves.length - 1];
  if (first && last && first.timeS > last.timeS) moves.reverse();
  return moves.sort((a, b) => a.timeS - b.timeS);
}

const DAY_MS = 24 * 60 * 60_000;
/** The farthest a zone is from UTC: an entry written with its zone may be this much before its day's UTC midnight. */
const WIDEST_ZONE_MS = 14 * 60 * 60_000;

/**
 * The backfill's window at `nowMs`, `days` long, today included: its first day (UTC, as the history's start_date takes
 * it) and the earliest time an entry of it can have, which a new door's reference time is, so every record fits after it.
 */
export function backfillWindow(nowMs: number, days: number): { startDay: string; fromS: number } {
  const startDay = new Date(nowMs - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return { startDay, fromS: Math.floor((Date.parse(`${startDay}T00:00:00Z`) - WIDEST_ZONE_MS) / 1000) };
}

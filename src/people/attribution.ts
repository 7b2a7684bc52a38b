// Who made a move a sync found, from the door's toggle history: one pure rule for the person sensors and the log line.
import type { DoorState, ToggleEvent } from '../client/types.js';
import { PERSON_HISTORY_SLACK_MS, PERSON_MOVE_MAX_AGE_MS } from '../settings.js';
import { userKey } from './match.js';

/** A move of one door as the syncs saw it. */
export interface SeenMove {
  doorId: string;
  state: DoorState;
  /** The door's `last_toggled` now (`YYYY-MM-DD HH:MM:SS`, the service's clock and zone), when it gave one. */
  lastToggled?: string | undefined;
  /** The door's `last_toggled` before this move (its previous move), when a sync saw one. */
  previousLastToggled?: string | undefined;
  /** When the plugin's sync saw the move (ms): bounds an entry's age only when the service gives no `last_toggled`. */
  seenAtMs: number;
}

/** A move a webhook already told of: the history entry it names is that move, not another. */
export interface ToldMove {
  state: DoorState;
  /** The webhook's `eventOccurred` (ms, UTC). */
  atMs: number;
  user: { email?: string | undefined; firstName?: string | undefined; lastName?: string | undefined } | undefined;
}

/** The history read now for the door, the history read at its previous look (undefined: none since the start). */
export interface HistoryLooks {
  now: readonly ToggleEvent[];
  previous?: readonly ToggleEvent[] | undefined;
  /** When the previous look was asked (ms, the plugin's clock): a webhook's move before it has its entry in that look. */
  previousAtMs?: number | undefined;
  /** Moves of this door webhooks told of: each makes one entry of the same state, person and moment count as told. */
  told?: readonly ToldMove[] | undefined;
}

export type Attribution = { entry: ToggleEvent; why?: undefined } | { entry: undefined; why: string };

/** A history time read as written: its day, and its time of day when it has one (wall clock, and the instant when zoned). */
interface ServiceTime {
  day: string;
  /** The digits as written, read as if UTC: the service writes `last_toggled` this way, so the two compare. */
  wallMs?: number;
  /** The instant, when the text names a zone; otherwise the wall clock. */
  instantMs?: number;
}

const TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}(?::?\d{2})?)?)?$/iu;

/** Reads the service's `YYYY-MM-DD[ HH:MM[:SS]][zone]`; undefined for anything else. */
export function readServiceTime(text: string | undefined): ServiceTime | undefined {
  const match = TIME.exec(text?.trim() ?? '');
  if (!match?.[1]) return undefined;
  const day = match[1];
  if (Number.isNaN(Date.parse(`${day}T00:00:00Z`))) return undefined;
  if (match[2] === undefined) return { day };
  const clock = match[2].length === 5 ? `${match[2]}:00` : match[2];
  const wallMs = Date.parse(`${day}T${clock}Z`);
  if (Number.isNaN(wallMs)) return undefined;
  const zone = match[3]?.toUpperCase();
  const offset =
    zone === undefined || zone === 'Z' ? '' : zone.length === 3 ? `${zone}:00` : zone.replace(/^([+-]\d{2}):?(\d{2})$/u, '$1:$2');
  const instantMs = zone === undefined || zone === 'Z' ? wallMs : Date.parse(`${day}T${clock}${offset}`);
  return { day, wallMs, instantMs: Number.isNaN(instantMs) ? wallMs : instantMs };
}

/** Whether two times are one moment written in some zone (whole quarter hours apart, within 14 h), give or take a second. */
export function sameMomentInSomeZone(aMs: number, bMs: number, slackMs = 2000): boolean {
  const QUARTER_HOUR_MS = 15 * 60_000;
  const diff = Math.abs(aMs - bMs);
  if (diff > 14 * 60 * 60_000 + slackMs) return false;
  const rest = diff % QUARTER_HOUR_MS;
  return rest <= slackMs || QUARTER_HOUR_MS - rest <= slackMs;
}

/** Who an entry names, as one comparable key: the e-mail when given, else the name; '' for nobody. */
function whoKey(entry: Pick<ToggleEvent, 'user' | 'userName'>): string {
  const email = entry.user?.email?.trim();
  if (email?.includes('@')) return userKey(email);
  const name = [entry.user?.firstName, entry.user?.lastName].filter((p) => p !== undefined && p.trim() !== '').join(' ');
  return userKey(name || (entry.userName ?? ''));
}

/** One entry as a whole, to tell the entries read now from those read before (the same entry read twice is equal). */
function entryKey(entry: ToggleEvent): string {
  return JSON.stringify([entry.doorId, entry.doorState?.toUpperCase(), entry.wasSuccess, entry.at?.trim(), whoKey(entry), entry.channel]);
}

/** The entries of `now` that `previous` did not hold, counted: an entry written twice and read once before is new once. */
function newSince(now: readonly ToggleEvent[], previous: readonly ToggleEvent[]): ToggleEvent[] {
  const before = new Map<string, number>();
  for (const entry of previous) before.set(entryKey(entry), (before.get(entryKey(entry)) ?? 0) + 1);
  return now.filter((entry) => {
    const left = before.get(entryKey(entry)) ?? 0;
    if (left === 0) return true;
    before.set(entryKey(entry), left - 1);
    return false;
  });
}

/** For each told move, one entry of the same state and person dated at its moment (any zone) or its day: the move's own. */
function toldEntries(entries: readonly ToggleEvent[], told: readonly ToldMove[]): ToggleEvent[] {
  const left = [...entries];
  const taken: ToggleEvent[] = [];
  for (const move of told) {
    const who = whoKey({ user: move.user, userName: undefined });
    const day = new Date(move.atMs).toISOString().slice(0, 10);
    const index = left.findIndex((entry) => {
      if (entry.doorState?.toUpperCase() !== move.state || entry.wasSuccess === false || whoKey(entry) !== who) return false;
      const time = readServiceTime(entry.at);
      if (time?.instantMs !== undefined) return sameMomentInSomeZone(time.instantMs, move.atMs);
      // A date alone: the service's day may be the UTC day's neighbour.
      return time !== undefined && Math.abs(Date.parse(`${time.day}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) <= 86_400_000;
    });
    if (index >= 0) taken.push(...left.splice(index, 1));
  }
  return taken;
}

const nobody = (why: string): Attribution => ({ entry: undefined, why });

/**
 * The history entry that made `move`, or nobody, in whatever order the service lists its entries, with or without a
 * time of day, in whatever zone it writes them. Never an entry older than the door's previous move, never one a webhook
 * already told of, never a guess between two people.
 *
 * With times: the door's newest successful entry (a tie must agree) is the move when it is in the move's state, no older
 * than the previous move, and dated the move's `last_toggled` give or take PERSON_HISTORY_SLACK_MS. With dates alone:
 * the successful entries new since the previous look (or, at the first look, those dated after the previous move's
 * day), in the move's state and dated its day, are the move when they all name one person and no move back of that day
 * is among them.
 */
export function attribute(move: SeenMove, looks: HistoryLooks): Attribution {
  const ofDoor = (entries: readonly ToggleEvent[]): ToggleEvent[] =>
    entries.filter((e) => (e.doorId === undefined || e.doorId === move.doorId) && readServiceTime(e.at) !== undefined);
  const now = ofDoor(looks.now);
  const taken = toldEntries(now, looks.told ?? []);
  const successful = (entries: readonly ToggleEvent[]): ToggleEvent[] => entries.filter((e) => e.wasSuccess !== false);
  const inState = (e: ToggleEvent): boolean => e.doorState?.toUpperCase() === move.state;
  const lastToggled = readServiceTime(move.lastToggled);
  const previousMove = readServiceTime(move.previousLastToggled);
  if (successful(now).length === 0) return nobody('it has no successful entry for the door');

  if (now.every((e) => readServiceTime(e.at)?.instantMs !== undefined)) {
    const time = (e: ToggleEvent): number => readServiceTime(e.at)?.instantMs ?? Number.NEGATIVE_INFINITY;
    const newestMs = Math.max(...successful(now).map(time));
    const newest = successful(now).filter((e) => time(e) === newestMs);
    const first = newest[0];
    if (!first || newest.some((e) => !inState(e))) return nobody('its newest entry is not this move');
    if (newest.some((e) => whoKey(e) !== whoKey(first))) return nobody('two people share its newest entry');
    if (newest.some((e) => taken.includes(e))) return nobody('a webhook already told of its newest entry');
    const wall = readServiceTime(first.at)?.wallMs ?? Number.NEGATIVE_INFINITY;
    if (previousMove?.wallMs !== undefined && wall < previousMove.wallMs) return nobody('its newest entry is older than the previous move');
    if (lastToggled?.wallMs !== undefined) {
      if (Math.abs(wall - lastToggled.wallMs) > PERSON_HISTORY_SLACK_MS) return nobody('its newest entry is not dated this move');
    } else if (
      previousMove === undefined &&
      looks.previous === undefined &&
      Math.abs(time(first) - move.seenAtMs) > PERSON_MOVE_MAX_AGE_MS
    ) {
      return nobody('its newest entry is not dated this move');
    }
    if (looks.previous !== undefined && !newSince(now, ofDoor(looks.previous)).includes(first)) {
      return nobody('its newest entry was there at the previous look');
    }
    return { entry: first };
  }

  // Dates alone: which entries are new, and which came after the previous move, is all that can be told.
  const moveDay = lastToggled?.day ?? new Date(move.seenAtMs).toISOString().slice(0, 10);
  const dayOf = (e: ToggleEvent): string => readServiceTime(e.at)?.day ?? '';
  let fresh: ToggleEvent[];
  if (looks.previous !== undefined) {
    fresh = newSince(now, ofDoor(looks.previous));
  } else if (previousMove !== undefined && previousMove.day < moveDay) {
    fresh = now.filter((e) => dayOf(e) > previousMove.day);
  } else {
    return nobody('its entries carry no time, and there is no earlier look to tell the new ones');
  }
  fresh = successful(fresh).filter((e) => previousMove === undefined || dayOf(e) >= previousMove.day);
  // A move back among the new entries of the move's day, told by a webhook or not, leaves their order, and so the move's,
  // unknown; one dated an earlier day came before.
  if (fresh.some((e) => !inState(e) && dayOf(e) >= moveDay)) return nobody('its new entries carry no time and hold a move back');
  // Identical entries cannot be told apart by their text: the moves webhooks told of since the previous look take new ones.
  const toldSince = (looks.told ?? []).filter(
    (t) => looks.previousAtMs === undefined || t.atMs >= looks.previousAtMs - PERSON_HISTORY_SLACK_MS,
  );
  const takenFresh = toldEntries(fresh, toldSince);
  const candidates = fresh.filter((e) => inState(e) && !takenFresh.includes(e) && dayOf(e) === moveDay);
  const first = candidates[0];
  if (!first) return nobody('no new entry is this move');
  if (candidates.some((e) => whoKey(e) !== whoKey(first))) return nobody('its new entries carry no time and name more than one person');
  return { entry: first };
}

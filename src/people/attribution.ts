// Who made the moves a sync found, from the door's toggle history: one pure rule for the person sensors and the log line.
import type { DoorState, ToggleEvent } from '../client/types.js';
import { PERSON_HISTORY_SLACK_MS, PERSON_MOVE_MAX_AGE_MS } from '../settings.js';
import { oneLine } from '../util/log-text.js';
import { userKey } from './match.js';
import { readServiceTime, sameMomentInSomeZone } from './service-time.js';

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

/** The history entry that made one move a sync found, or nobody (see attributeMoves). */
export function attribute(move: SeenMove, looks: HistoryLooks): Attribution {
  return attributeMoves([move], looks)[0] ?? nobody('there is no move');
}

/**
 * The entries of a history that may be one door's: its id, or none (a door's own history may leave it out). The id is
 * compared exactly, not in canonical form: the history and the sync come from one service, and two doors whose ids
 * read the same are both read-only (src/config/protection.ts): naming a person for the other one would be a guess.
 */
export function entriesOfDoor(entries: readonly ToggleEvent[], doorId: string | undefined): ToggleEvent[] {
  return entries.filter((entry) => entry.doorId === undefined || entry.doorId === doorId);
}

/**
 * For each move of one door the syncs found since the previous look (in the order found), the history entry that made
 * it, or nobody: in whatever order the service lists its entries, with or without a time of day, in whatever zone it
 * writes them. Only the successful entries new since the previous look (`looks.previous`; at the first look, every
 * entry) can be these moves; each names one move at most. Never an entry older than the door's previous move, never one a
 * webhook already told of, never a guess between two people, and nobody at all while an entry that may be the newest has
 * a date the plugin cannot read exactly.
 *
 * With times, moves are taken newest first: a move's entry is the newest not yet taken and dated no later than its
 * `last_toggled` give or take PERSON_HISTORY_SLACK_MS (nor than the next move's), when it is in the move's state (ties
 * must agree) and no older than the previous move. With dates alone, a move's candidates are the new entries in its state
 * dated its day: they name it when they all name one person and the new entries hold no move back but the moves found.
 */
export function attributeMoves(moves: readonly SeenMove[], looks: HistoryLooks): Attribution[] {
  const doorId = moves[0]?.doorId;
  const ofDoor = (entries: readonly ToggleEvent[]): ToggleEvent[] => entriesOfDoor(entries, doorId);
  const previous = looks.previous === undefined ? undefined : ofDoor(looks.previous);
  const now = ofDoor(looks.now);
  const pool = (previous === undefined ? now : newSince(now, previous)).filter((e) => e.wasSuccess !== false);
  const everyMove = (why: string): Attribution[] => moves.map(() => nobody(why));
  // An entry whose date cannot be read may be the newest: naming an older one would name the wrong person.
  const unreadable = pool.find((e) => readServiceTime(e.at) === undefined);
  if (unreadable !== undefined) {
    const which = previous === undefined ? 'an entry' : 'an entry new since the previous look';
    const dated = unreadable.at === undefined || unreadable.at.trim() === '' ? 'has no date' : `is dated "${oneLine(unreadable.at, 40)}"`;
    return everyMove(`${which} ${dated}, which the plugin cannot read exactly, and it may be the newest`);
  }
  if (pool.length === 0) {
    return everyMove(
      previous === undefined ? 'it has no successful entry for the door' : 'no successful entry is new since the previous look',
    );
  }
  const timed = pool.every((e) => readServiceTime(e.at)?.wallMs !== undefined);
  return timed ? byTime(moves, pool, looks, previous !== undefined) : byDay(moves, pool, looks, previous !== undefined);
}

/** Whether an entry is in `state`. */
const inState = (e: ToggleEvent, state: DoorState): boolean => e.doorState?.toUpperCase() === state;

/** With times of day (every entry of `pool` has one): see attributeMoves. `looked`: there was a previous look. */
function byTime(moves: readonly SeenMove[], pool: readonly ToggleEvent[], looks: HistoryLooks, looked: boolean): Attribution[] {
  const time = (e: ToggleEvent): { wallMs: number; instantMs: number } => {
    const read = readServiceTime(e.at);
    return { wallMs: read?.wallMs ?? Number.NEGATIVE_INFINITY, instantMs: read?.instantMs ?? Number.NEGATIVE_INFINITY };
  };
  const told = new Set(toldEntries(pool, looks.told ?? []));
  const taken = new Set<ToggleEvent>();
  const results: Attribution[] = [];
  /** The wall time of the entry named for the next move: this move's entry is older. */
  let laterWallMs: number | undefined;
  for (let i = moves.length - 1; i >= 0; i -= 1) {
    const move = moves[i];
    if (!move) continue;
    const lastMs = readServiceTime(move.lastToggled)?.wallMs;
    const previousMs = readServiceTime(move.previousLastToggled)?.wallMs;
    const nextMs = readServiceTime(moves[i + 1]?.lastToggled)?.wallMs;
    const isLast = i === moves.length - 1;
    if (!isLast && lastMs === undefined && nextMs === undefined && laterWallMs === undefined) {
      results[i] = nobody('its entry cannot be told from the next move’s');
      continue;
    }
    const upperMs = Math.min(
      lastMs === undefined ? Number.POSITIVE_INFINITY : lastMs + PERSON_HISTORY_SLACK_MS,
      nextMs === undefined ? Number.POSITIVE_INFINITY : nextMs - 1,
      laterWallMs === undefined ? Number.POSITIVE_INFINITY : laterWallMs - 1,
    );
    const window = pool.filter((e) => !taken.has(e) && time(e).wallMs <= upperMs);
    const candidates = window.filter((e) => inState(e, move.state));
    const newestMs = Math.max(...candidates.map((e) => time(e).instantMs));
    const newest = candidates.filter((e) => time(e).instantMs === newestMs);
    const first = newest[0];
    const why = ((): string | undefined => {
      if (window.length === 0) return looked ? 'no new entry is this move' : 'it has no successful entry for the door';
      // A move back dated after the candidate, and before the door got to this state (or with it), means the history has
      // not recorded this move yet; one dated after the door got there is a later move.
      const backUntilMs = Math.max(lastMs ?? Number.POSITIVE_INFINITY, first === undefined ? Number.NEGATIVE_INFINITY : time(first).wallMs);
      const movedBack = window.some(
        (e) =>
          !inState(e, move.state) &&
          time(e).instantMs >= (first === undefined ? Number.NEGATIVE_INFINITY : newestMs) &&
          time(e).wallMs <= backUntilMs,
      );
      if (!first || movedBack) return 'its newest entry is not this move';
      if (newest.some((e) => whoKey(e) !== whoKey(first))) return 'two people share its newest entry';
      if (newest.some((e) => told.has(e))) return 'a webhook already told of its newest entry';
      const { wallMs, instantMs } = time(first);
      if (previousMs !== undefined && wallMs < previousMs) return 'its newest entry is older than the previous move';
      if (lastMs !== undefined)
        return Math.abs(wallMs - lastMs) > PERSON_HISTORY_SLACK_MS ? 'its newest entry is not dated this move' : undefined;
      // No last_toggled, no previous move and no previous look: only a recent entry can be this move.
      if (previousMs === undefined && !looked && Math.abs(instantMs - move.seenAtMs) > PERSON_MOVE_MAX_AGE_MS) {
        return 'its newest entry is not dated this move';
      }
      return undefined;
    })();
    if (why !== undefined || !first) {
      results[i] = nobody(why ?? 'no new entry is this move');
      laterWallMs = undefined;
      continue;
    }
    for (const e of newest) taken.add(e);
    laterWallMs = time(first).wallMs;
    results[i] = { entry: first };
  }
  return results;
}

/** With dates alone (some entry of `pool` has no time of day): see attributeMoves. `looked`: there was a previous look. */
function byDay(moves: readonly SeenMove[], pool: readonly ToggleEvent[], looks: HistoryLooks, looked: boolean): Attribution[] {
  const dayOf = (e: ToggleEvent): string => readServiceTime(e.at)?.day ?? '';
  // Identical entries cannot be told apart by their text: the moves webhooks told of since the previous look take new ones.
  const toldSince = (looks.told ?? []).filter(
    (t) => looks.previousAtMs === undefined || t.atMs >= looks.previousAtMs - PERSON_HISTORY_SLACK_MS,
  );
  const taken = new Set<ToggleEvent>();
  return moves.map((move) => {
    const previousMove = readServiceTime(move.previousLastToggled);
    const moveDay = readServiceTime(move.lastToggled)?.day ?? new Date(move.seenAtMs).toISOString().slice(0, 10);
    let fresh = [...pool];
    if (!looked) {
      // At the first look, only a previous move on an earlier day tells which entries came after it.
      if (previousMove === undefined || previousMove.day >= moveDay) {
        return nobody('its entries carry no time, and there is no earlier look to tell the new ones');
      }
      fresh = fresh.filter((e) => dayOf(e) > previousMove.day);
    }
    fresh = fresh.filter((e) => previousMove === undefined || dayOf(e) >= previousMove.day);
    // A move back among the new entries of the move's day, told by a webhook or not, leaves their order, and so the
    // move's, unknown, unless a move the syncs found is that move back; one dated an earlier day came before.
    const movesBack = moves.filter((m) => m.state !== move.state).length;
    if (fresh.filter((e) => !inState(e, move.state) && dayOf(e) >= moveDay).length > movesBack) {
      return nobody('its new entries carry no time and hold a move back');
    }
    const told = toldEntries(fresh, toldSince);
    const candidates = fresh.filter((e) => inState(e, move.state) && !told.includes(e) && !taken.has(e) && dayOf(e) === moveDay);
    const first = candidates[0];
    if (!first) return nobody('no new entry is this move');
    if (candidates.some((e) => whoKey(e) !== whoKey(first))) return nobody('its new entries carry no time and name more than one person');
    taken.add(first);
    return { entry: first };
  });
}

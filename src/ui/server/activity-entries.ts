// A door's toggle history as the settings page gets it: each entry's outside text cleaned and cut, newest first, at most so many.
import { canonicalId } from '../../util/canonical-id.js';
import type { ToggleEvent } from '../../client/types.js';
import { userKey } from '../../people/match.js';
import { readServiceTime, serviceTimeMs } from '../../people/service-time.js';
import { ACTIVITY_ENTRIES_PER_DOOR_MAX, ACTIVITY_TEXT_MAX_CHARS, PERSON_USER_MAX_CHARS } from '../../settings.js';
import { oneLine, withoutDirectionMarks } from '../../util/log-text.js';
import type { ActivityEntry, DoorActivity, PersonCount, PersonSeen } from '../shared/messages.js';

/** How the service might mark an entry for an unauthorized user or vehicle (its webhooks call them enforcer events). */
const UNAUTHORIZED = /enforcer|unauthori[sz]ed/i;
/** One address, nothing around it: anything else is not offered as a `people` key. */
const EMAIL = /^[^\s@]+@[^\s@]+$/u;

/** Outside text on one line, without direction marks, and cut short; undefined when nothing is left. */
function text(value: string | undefined, maxChars = ACTIVITY_TEXT_MAX_CHARS): string | undefined {
  const line = value === undefined ? '' : oneLine(withoutDirectionMarks(value), maxChars);
  return line === '' ? undefined : line;
}

/** An e-mail address as given, when it is one whole and not longer than `people` takes. */
function emailOf(value: string | undefined): string | undefined {
  const trimmed = value?.trim() ?? '';
  return trimmed.length <= PERSON_USER_MAX_CHARS && EMAIL.test(trimmed) && text(trimmed, PERSON_USER_MAX_CHARS) === trimmed
    ? trimmed
    : undefined;
}

/** Who the entry names: their name (first and last, else the e-mail) and their e-mail; undefined when it names nobody. */
export function personOf(event: ToggleEvent): PersonSeen | undefined {
  const email = emailOf(event.user?.email);
  const name = text([event.user?.firstName, event.user?.lastName].filter((part) => part?.trim()).join(' ')) ?? text(event.userName);
  if (name === undefined && email === undefined) return undefined;
  return { name: name ?? email ?? '', email };
}

function outcomeOf(event: ToggleEvent): ActivityEntry['outcome'] {
  if (UNAUTHORIZED.test(event.channel ?? '') || UNAUTHORIZED.test(event.doorState ?? '')) return 'unauthorized';
  return event.wasSuccess === true ? 'done' : event.wasSuccess === false ? 'refused' : 'unknown';
}

function stateOf(event: ToggleEvent): ActivityEntry['state'] {
  const state = event.doorState?.trim().toUpperCase();
  return state === 'OPEN' || state === 'CLOSED' ? state : undefined;
}

/** The days asked for (`YYYY-MM-DD`, inclusive): an entry dated outside them is not the history asked for. */
export interface ActivityWindow {
  startDate: string;
  endDate: string;
}

/** Where an entry sorts: its instant, else its day's start; undefined without a readable date. */
function sortMs(at: string | undefined): number | undefined {
  const time = readServiceTime(at);
  return time === undefined ? undefined : (time.instantMs ?? Date.parse(`${time.day}T00:00:00Z`));
}

/** Each person the entries name, how many times, and how many of them were refused, over every entry. */
export function peopleCounted(entries: readonly ActivityEntry[]): PersonCount[] {
  const counted = new Map<string, PersonCount>();
  for (const entry of entries) {
    const person = entry.person;
    if (person === undefined) continue;
    const key = `${userKey(person.name)}\u0000${person.email === undefined ? '' : userKey(person.email)}`;
    const count = counted.get(key) ?? { person, times: 0, refused: 0 };
    count.times += 1;
    if (isRefused(entry)) count.refused += 1;
    counted.set(key, count);
  }
  return [...counted.values()];
}

const isRefused = (entry: ActivityEntry): boolean => entry.outcome === 'refused' || entry.outcome === 'unauthorized';

/**
 * The door's entries for the page: another door's entries and those dated outside `window` left out (the service was
 * asked for this door and these days), newest first in whatever order the service sent them (an entry without a
 * readable date after those with one, in the service's order), at most `max`, the rest counted. The counts (entries,
 * refused, each person's times) are over every entry kept, not only those shown.
 */
export function doorActivity(
  doorId: string,
  events: readonly ToggleEvent[],
  max = ACTIVITY_ENTRIES_PER_DOOR_MAX,
  window?: ActivityWindow,
): DoorActivity {
  const inWindow = (event: ToggleEvent): boolean => {
    const day = readServiceTime(event.at)?.day;
    return window === undefined || day === undefined || (day >= window.startDate && day <= window.endDate);
  };
  const entries = events
    // The history's door id compared as ids are (canonical): its case or marks may differ from the sync's.
    .filter((event) => (event.doorId === undefined || canonicalId(event.doorId) === canonicalId(doorId)) && inWindow(event))
    .map((event): ActivityEntry & { sortMs: number | undefined } => ({
      at: text(event.at),
      atMs: serviceTimeMs(event.at),
      state: stateOf(event),
      outcome: outcomeOf(event),
      channel: text(event.channel),
      person: personOf(event),
      sortMs: sortMs(event.at),
    }));
  const sorted = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => (b.entry.sortMs ?? -Infinity) - (a.entry.sortMs ?? -Infinity) || a.index - b.index)
    .map(({ entry: { sortMs: _sortMs, ...entry } }): ActivityEntry => entry);
  return {
    doorId,
    ok: true,
    entries: sorted.slice(0, max),
    more: Math.max(0, sorted.length - max),
    total: sorted.length,
    refused: sorted.filter(isRefused).length,
    people: peopleCounted(sorted),
  };
}

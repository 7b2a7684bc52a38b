// A door's toggle history as the settings page gets it: each entry's outside text cleaned and cut, newest first, at most so many.
import type { ToggleEvent } from '../client/types.js';
import { serviceTimeMs } from '../people/match.js';
import { ACTIVITY_ENTRIES_PER_DOOR_MAX, ACTIVITY_TEXT_MAX_CHARS, PERSON_USER_MAX_CHARS } from '../settings.js';
import { oneLine, withoutDirectionMarks } from '../util/log-text.js';
import type { ActivityEntry, DoorActivity, PersonSeen } from './page/views.js';

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

/**
 * The door's entries for the page: another door's entries left out (the service was asked for this one), newest first
 * (an entry without a readable time after those with one, in the service's order), at most `max`, the rest counted.
 */
export function doorActivity(doorId: string, events: readonly ToggleEvent[], max = ACTIVITY_ENTRIES_PER_DOOR_MAX): DoorActivity {
  const entries = events
    .filter((event) => event.doorId === undefined || event.doorId.trim() === doorId)
    .map((event): ActivityEntry => ({
      at: text(event.at),
      atMs: serviceTimeMs(event.at),
      state: stateOf(event),
      outcome: outcomeOf(event),
      channel: text(event.channel),
      person: personOf(event),
    }));
  const sorted = entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => (b.entry.atMs ?? -Infinity) - (a.entry.atMs ?? -Infinity) || a.index - b.index)
    .map(({ entry }) => entry);
  return { doorId, ok: true, entries: sorted.slice(0, max), more: Math.max(0, sorted.length - max) };
}

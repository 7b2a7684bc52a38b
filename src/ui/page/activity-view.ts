// "People and activity": the shown doors' last days read on request (each door once per page load), who came through, a tick per person.
import { ACTIVITY_DAYS, ACTIVITY_DOORS_PER_REQUEST } from '../../settings.js';
import { userKey } from '../../people/match.js';
import { server } from './api.js';
import { byId, fill, h, status } from './dom.js';
import { getField } from '../shared/block.js';
import { listingOf, peopleEditable, peopleSeen, setPersonListed, sharedNames } from './people-seen.js';
import type { PersonSummary } from './people-seen.js';
import type { Store } from './store.js';
import type { ActivityEntry, DoorActivity, DoorSummary } from '../shared/messages.js';

/** Longer lists of doors start folded, as the door list does. */
const ACTIVITY_LIST_OPEN_MAX = 20;
/** Doors named in a person's line; more are counted, so someone seen at 60 doors is still one short line. */
const PERSON_DOORS_NAMED_MAX = 5;

/** Each door's result, read once per page load: a door is never asked for again, whatever its answer. */
const read = new Map<string, DoorActivity>();
/** The doors whose activity is open: kept across redraws. */
const openRows = new Set<string>();

/**
 * The doors this entry shows in Home: the account's, less those its settings keep out and those past what one bridge
 * holds (the check's `inHome`): a door not in Home has no sensor to name anyone at, so its history is not read.
 */
function shownDoors(store: Store): DoorSummary[] {
  if (store.account === undefined) return [];
  const inHome = store.check?.inHome;
  return store.doors.filter((door) => (inHome === undefined ? !store.check?.excluded.has(door.id) : inHome.has(door.id)));
}

/** The shown doors read so far, each with its result, in the list's order. */
function readDoors(store: Store): { door: DoorSummary; result: DoorActivity }[] {
  return shownDoors(store).flatMap((door) => {
    const result = read.get(door.id);
    return result ? [{ door, result }] : [];
  });
}

const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

/** "Grace Hopper", with the e-mail only when another person seen has the same name. */
function whoWords(person: ActivityEntry['person'], shared: ReadonlySet<string>): string {
  if (person === undefined) return 'someone the history does not name';
  return person.email !== undefined && shared.has(userKey(person.name)) ? `${person.name} (${person.email})` : person.name;
}

/** An entry in words: when, what and who, how; a refused or unauthorized attempt says so first. */
function entryItem(entry: ActivityEntry, shared: ReadonlySet<string>): HTMLLIElement {
  const when =
    entry.atMs === undefined
      ? h('span', {}, entry.at ?? 'time not given')
      : h('time', { datetime: new Date(entry.atMs).toISOString() }, new Date(entry.atMs).toLocaleString());
  const verb = entry.state === 'OPEN' ? 'open' : entry.state === 'CLOSED' ? 'close' : 'move';
  const who = whoWords(entry.person, shared);
  const how = entry.channel === undefined ? 'how not said' : `with ${entry.channel}`;
  const words: Record<ActivityEntry['outcome'], [string | undefined, string]> = {
    done: [undefined, `${verb === 'move' ? 'Moved' : verb === 'open' ? 'Opened' : 'Closed'} by ${who}`],
    refused: ['Refused:', `${who} tried to ${verb} it`],
    unauthorized: ['Unauthorized:', `${who} tried to ${verb} it`],
    unknown: [undefined, `${who} asked to ${verb} it (the service did not say whether it worked)`],
  };
  const [mark, what] = words[entry.outcome];
  return h(
    'li',
    { class: mark ? 'ac-refused' : undefined, 'data-outcome': entry.outcome },
    when,
    ' · ',
    mark !== undefined && h('strong', {}, mark),
    mark !== undefined && ' ',
    `${what}, ${how}`,
  );
}

/** A door's folded row: its name and a few words (how many entries, refused ones, or why it could not be read). */
function doorRow(door: DoorSummary, result: DoorActivity, shared: ReadonlySet<string>): HTMLElement {
  let note: string;
  let body: HTMLElement;
  if (!result.ok) {
    note = 'could not be read';
    body = h('p', { class: 'status status-warn', 'data-activity-problem': '' }, result.message);
    if (result.detail) body.append(h('details', {}, h('summary', {}, 'Details'), h('span', { class: 'ac-detail' }, result.detail)));
  } else if (result.entries.length === 0) {
    note = `no activity in the last ${ACTIVITY_DAYS} days`;
    body = h('p', { class: 'ac-help' }, `The service's history has nothing for this door in the last ${ACTIVITY_DAYS} days.`);
  } else {
    // Counted over every entry read, not only those shown.
    note = `${plural(result.total, 'entry', 'entries')}${result.refused > 0 ? `, ${result.refused} refused` : ''}`;
    body = h(
      'div',
      {},
      h(
        'ol',
        { class: 'ac-activity', 'aria-label': `Activity of ${door.name}, newest first` },
        ...result.entries.map((entry) => entryItem(entry, shared)),
      ),
      result.more > 0 &&
        h(
          'p',
          { class: 'ac-help', 'data-activity-more': '' },
          `The newest ${result.entries.length} of ${result.total} are shown; ${plural(result.more, 'older one is', 'older ones are')} counted above but not shown.`,
        ),
    );
  }
  const row = h(
    'details',
    { class: result.ok ? 'ac-door' : 'ac-door ac-unread', 'data-activity-row': door.id, open: openRows.has(door.id) },
    h(
      'summary',
      { class: 'ac-door-head' },
      h('span', { class: 'ac-door-name' }, h('bdi', {}, door.name)),
      h('span', { class: result.ok ? 'ac-help' : 'ac-note-warn', 'data-activity-note': '' }, note),
    ),
    h('div', { class: 'ac-door-body' }, body),
  );
  row.addEventListener('toggle', () => {
    if (row.open) openRows.add(door.id);
    else openRows.delete(door.id);
  });
  return row;
}

/** "Front Gate, Garage Door", or the first few and "and 3 more doors": each name the service's, isolated in its own <bdi>. */
function doorList(doors: readonly string[]): (string | HTMLElement)[] {
  const named = doors.slice(0, PERSON_DOORS_NAMED_MAX).flatMap((door, index) => [...(index > 0 ? [', '] : []), h('bdi', {}, door)]);
  const rest = doors.length - PERSON_DOORS_NAMED_MAX;
  return rest > 0 ? [...named, ` and ${plural(rest, 'more door')}`] : named;
}

/** A person's tick: on, their entry is in `people`; the label says who, how often and where. */
function personRow(store: Store, person: PersonSummary, index: number): HTMLElement {
  const listing = listingOf(store.block, person);
  const editable = peopleEditable(store.block);
  const why =
    person.email === undefined
      ? ' (the history gives no e-mail address: write them in config.json by name)'
      : listing === 'name'
        ? ' (listed by name in the settings, kept as written)'
        : '';
  const box = h('input', {
    class: 'form-check-input',
    type: 'checkbox',
    id: `ac-person-${index}`,
    'data-person': person.key,
    checked: listing !== 'none',
    disabled: person.email === undefined || listing === 'name' || !editable,
  });
  box.addEventListener('change', () => store.set(setPersonListed(store.block, person, box.checked)));
  const name = person.showEmail ? `${person.name} (${person.email ?? ''})` : person.name;
  const refused = person.refused > 0 ? `, ${person.refused} refused` : '';
  return h(
    'div',
    { class: 'form-check' },
    box,
    h(
      'label',
      { class: 'form-check-label', for: box.id },
      h(
        'span',
        {},
        // The service's names, each in its own <bdi>: a direction mark in one cannot turn the page's words around it.
        h('strong', { 'data-person-name': '' }, h('bdi', {}, name)),
        `: ${plural(person.times, 'time')}${refused}, at `,
        ...doorList(person.doors),
        why,
      ),
    ),
  );
}

/** Draws the people and the doors' rows from what was read so far. */
function renderRead(store: Store): void {
  const rows = readDoors(store);
  const nameOf = new Map(rows.map(({ door }) => [door.id, door.name]));
  const people = peopleSeen(
    rows.map(({ result }) => result),
    (doorId) => nameOf.get(doorId) ?? doorId,
  );
  const shared = sharedNames(people);
  byId('ac-activity-body').hidden = rows.length === 0;
  status(
    byId('ac-people-kept'),
    'warn',
    peopleEditable(store.block) ? '' : 'The people in the settings are not a list: they are kept as written, and the ticks are off.',
  );
  fill(
    byId('ac-people'),
    h('legend', { class: 'ac-help' }, 'A person sensor in Home for (ticked: in the settings):'),
    ...(people.length === 0
      ? [h('p', { class: 'ac-help' }, "Nobody is named in these doors' history.")]
      : people.map((person, index) => personRow(store, person, index))),
  );
  const list = byId('ac-activity-list', HTMLDetailsElement);
  byId('ac-activity-list-title').textContent = `Activity of ${plural(rows.length, 'door')}, newest first`;
  // Decided once, by every door to be read (the first reads arrive a few doors at a time).
  if (!list.dataset.folded && rows.length > 0) {
    list.dataset.folded = 'set';
    list.open = shownDoors(store).length <= ACTIVITY_LIST_OPEN_MAX;
  }
  fill(byId('ac-activity-rows'), ...rows.map(({ door, result }) => doorRow(door, result, shared)));
}

/** What was read, in one line: how many doors, entries, refused ones and people, and how many doors failed. */
function summaryLine(store: Store): { kind: 'ok' | 'warn'; text: string } {
  const results = readDoors(store).map(({ result }) => result);
  const failed = results.filter((result): result is DoorActivity & { ok: false } => !result.ok);
  // Every entry read counts, also those beyond the newest shown per door.
  const entries = results.reduce((sum, result) => sum + (result.ok ? result.total : 0), 0);
  const refused = results.reduce((sum, result) => sum + (result.ok ? result.refused : 0), 0);
  const readLine = `Read the last ${ACTIVITY_DAYS} days of ${plural(results.length - failed.length, 'door')}: ${plural(entries, 'entry', 'entries')}, ${refused} refused.`;
  if (failed.length === 0) return { kind: 'ok', text: readLine };
  const reason = ` ${failed[0]?.message ?? ''}`;
  return {
    kind: 'warn',
    text:
      failed.length === results.length
        ? `The history could not be read for any door.${reason}`
        : `${readLine} The history of ${plural(failed.length, 'door')} could not be read: see the doors marked "could not be read".${reason}`,
  };
}

/** Reads the shown doors not read yet, a few per request to the settings server, which reads them a few at a time. */
async function load(store: Store, render: () => void): Promise<void> {
  const button = byId('ac-activity-load', HTMLButtonElement);
  const note = byId('ac-activity-status');
  const todo = shownDoors(store).filter((door) => !read.has(door.id));
  const [baseUrl, accessToken] = [getField(store.block, 'baseUrl'), getField(store.block, 'accessToken')];
  button.disabled = true;
  try {
    for (let start = 0; start < todo.length; start += ACTIVITY_DOORS_PER_REQUEST) {
      status(note, 'info', `Reading the history of ${plural(todo.length, 'door')}: ${start} done…`);
      const chunk = todo.slice(start, start + ACTIVITY_DOORS_PER_REQUEST);
      const answer = await server.activity(
        baseUrl,
        accessToken,
        chunk.map((door) => door.id),
      );
      for (const door of chunk) {
        const result = answer.ok ? answer.doors.find((each) => each.doorId === door.id) : undefined;
        read.set(
          door.id,
          result ?? {
            doorId: door.id,
            ok: false,
            message: answer.ok ? 'The settings server did not answer for this door.' : answer.message,
          },
        );
      }
      renderRead(store);
    }
  } finally {
    button.disabled = false;
  }
  const summary = summaryLine(store);
  status(note, summary.kind, summary.text);
  render();
}

/** Wires the section once; the refresh shows it once signed in and draws what was read for the entry being edited. */
export function setUpActivity(store: Store, render: () => void): () => void {
  const button = byId('ac-activity-load', HTMLButtonElement);
  // After the reads the keyboard lands on their result (the button was disabled meanwhile, dropping focus).
  button.addEventListener('click', () => void load(store, render).then(() => byId('ac-activity-status').focus()));
  return () => {
    const signedIn = store.account !== undefined && store.signIn?.ok === true;
    byId('ac-activity-section').hidden = !signedIn;
    if (!signedIn) return;
    const left = shownDoors(store).filter((door) => !read.has(door.id)).length;
    button.hidden = left === 0;
    button.textContent =
      read.size === 0 ? `Show who came through (last ${ACTIVITY_DAYS} days)` : `Read the ${plural(left, 'door')} not read yet`;
    renderRead(store);
  };
}

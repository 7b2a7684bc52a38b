// The door list of the settings page: one folded row per door that opens to show/hide, a name for Home and each option.
import { inDoorRow, OPTIONS, optionSpec, titleOf } from '../../option-catalog.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../../settings.js';
import type { ChoiceOption, NumberOption, OptionSpec } from '../../option-catalog.js';
import { applyDoorFilter, CHANGED, SEARCH_TEXT, setUpDoorFilter } from './door-filter.js';
import { byId, fill, h, isolated, plainText, status } from './dom.js';
import {
  controllerIncluded,
  controllersEditable,
  DOOR_FLAGS,
  doorChoice,
  doorChoiceOf,
  doorEntriesOf,
  doorEntry,
  doorsEditable,
  appliedField,
  getField,
  globalChoice,
  globalFlag,
  readWholeNumber,
  removeDoorEntry,
  setControllerIncluded,
  setDoorChoice,
  setDoorChoiceOf,
  setDoorField,
} from '../shared/block.js';
import type { Block, Choice, DoorFlag } from '../shared/block.js';
import { defaultOf } from '../../option-values.js';
import type { Store } from './store.js';
import { splitEntry } from '../shared/split.js';
import type { Split } from '../shared/split.js';
import type { AccountSummary, DoorSummary } from '../shared/messages.js';
import { canonicalId } from '../../util/canonical-id.js';

/** Longer door lists start folded, so the webhook and timing sections stay within reach. */
const DOOR_LIST_OPEN_MAX = 20;

/** The options a door can set for itself here, in the catalog's order, with their labels. */
const PER_DOOR = (OPTIONS as readonly OptionSpec[]).filter(inDoorRow);

/** The door flag an option is offered only while on (its catalog entry's `shownWith`), or undefined for one offered so. */
const offeredWhile = (option: OptionSpec): DoorFlag | undefined =>
  option.offered === 'with-shown-with' ? DOOR_FLAGS.find((flag) => flag === option.shownWith) : undefined;

/** The door flags whose change offers or withdraws another choice of the row (the left-open sensor its repeat). */
const REVEALING: ReadonlySet<string> = new Set(PER_DOOR.flatMap((option) => offeredWhile(option) ?? []));

function describe(door: DoorSummary): string {
  const parts = [door.state === null ? 'state unknown' : door.state.toLowerCase()];
  if (!door.active) {
    parts.push('inactive');
  }
  if (door.owned !== undefined) {
    parts.push(door.owned ? 'owned' : `shared with you${door.relationship ? ` (${door.relationship})` : ''}`);
  }
  if (door.sensor) {
    parts.push(door.batteryPct === undefined ? 'door sensor' : `door sensor, battery ${door.batteryPct} %`);
  }
  return parts.join(' · ');
}

/** The JavaScript type of a value of each kind: a door's own value of it counts as set when it is of this type. */
const TYPE_OF_KIND: Record<OptionSpec['kind'], string> = { flag: 'boolean', number: 'number', choice: 'string', text: 'string' };

/**
 * Whether the door's choice of an option is offered. Hide battery only means something for a door with a sensor; a door
 * whose sensor is unknown (the service cannot be reached) shows it only when it is already set, so a saved choice can
 * still be seen and taken back. One offered while a flag is on (the left-open repeat) is offered while the door's own
 * choice of the flag, else the one for all doors, is on, or when it is set, for the same reason.
 */
function offered(store: Store, door: DoorSummary, option: OptionSpec): boolean {
  const set = typeof doorEntry(store.block, door.id)?.[option.key] === TYPE_OF_KIND[option.kind];
  switch (option.offered) {
    case 'with-sensor':
      return door.sensor || set;
    case 'with-shown-with': {
      const flag = offeredWhile(option);
      const choice = flag === undefined ? 'off' : doorChoice(store.block, door.id, flag);
      return choice === 'on' || (choice === 'inherit' && flag !== undefined && appliedField(store.block, flag) === true) || set;
    }
    default:
      return true;
  }
}

/** A door's own number (the left-open repeat): empty follows the value for all doors; a value out of range is not written. */
function numberInput(store: Store, door: DoorSummary, option: NumberOption, disabled: boolean): HTMLInputElement {
  const set = getField(store.block, option.key);
  const global = typeof set === 'number' ? set : defaultOf(option);
  const own = doorEntry(store.block, door.id)?.[option.key];
  const input = h('input', {
    class: 'form-control form-control-sm',
    type: 'text',
    inputmode: 'numeric',
    // No number, like 0, is no time: the repeat's once per opening.
    placeholder: `As for all (${global === undefined || global === 0 ? 'off' : `${global} ${option.unit}`})`,
    value: typeof own === 'number' ? String(own) : '',
    'data-door': door.id,
    'data-field': option.key,
    'aria-label': `${titleOf(option)} of ${door.name}`,
    disabled,
  });
  input.addEventListener('input', () => {
    const value = readWholeNumber(input.value);
    const wrong = value === null || (value !== undefined && (value < option.min || value > option.max));
    input.classList.toggle('is-invalid', wrong);
    input.setAttribute('aria-invalid', String(wrong));
    input.title = wrong ? `A whole number from ${option.min} to ${option.max} ${option.unit}; empty: as for all doors.` : '';
    if (!wrong) {
      store.set(setDoorField(store.block, door.id, option.key, value));
    }
  });
  return input;
}

function choiceSelect(store: Store, door: DoorSummary, flag: DoorFlag, title: string, disabled: boolean): HTMLSelectElement {
  const global = globalFlag(store.block, optionSpec(flag)) ? 'on' : 'off';
  const current = doorChoice(store.block, door.id, flag);
  const option = (value: Choice, label: string) => h('option', { value, selected: current === value }, label);
  const select = h(
    'select',
    {
      class: 'form-select form-select-sm form-control',
      'data-door': door.id,
      'data-flag': flag,
      'aria-label': `${title} of ${door.name}`,
      disabled,
    },
    option('inherit', `As for all (${global})`),
    option('on', 'On'),
    option('off', 'Off'),
  );
  select.addEventListener('change', () => store.set(setDoorChoice(store.block, door.id, flag, select.value as Choice)));
  return select;
}

/**
 * A door's choice of one of an option's values (the automation switch's modes, "Show in Home as"), or as for all doors;
 * with the option's note of what a change costs, shown once the choice is changed.
 */
function valueSelect(
  store: Store,
  door: DoorSummary,
  option: ChoiceOption,
  title: string,
  disabled: boolean,
): [HTMLSelectElement, HTMLElement | false] {
  const words = (value: string): string => option.valueTitles?.[value] ?? value;
  const global = words(globalChoice(store.block, option)).toLowerCase();
  const current = doorChoiceOf(store.block, door.id, option);
  const item = (value: string, label: string) => h('option', { value, selected: current === value }, label);
  const select = h(
    'select',
    {
      class: 'form-select form-select-sm form-control',
      'data-door': door.id,
      'data-flag': option.key,
      'aria-label': `${title} of ${door.name}`,
      disabled,
    },
    item('inherit', `As for all (${global})`),
    ...option.values.map((value) => item(value, words(value))),
  );
  const note = option.cost !== undefined && h('span', { class: 'ac-help', 'data-door-help': option.key, hidden: true }, option.cost);
  select.addEventListener('change', () => {
    if (note) note.hidden = false;
    store.set(setDoorChoiceOf(store.block, door.id, option, select.value));
  });
  return [select, note];
}

/**
 * A controller in words, its id second: "Ana Ruiz's controller (id 12ab)", the owner and the id each isolated. The
 * service gives controllers no name.
 */
export function controllerWords(owner: string | undefined, controllerId: string, doors?: number): (Node | string)[] {
  if (controllerId === '') {
    return ['controller unknown'];
  }
  const count = doors === undefined ? '' : `, ${doors} door${doors === 1 ? '' : 's'}`;
  return [...(owner ? [isolated(owner), "'s controller"] : ['Controller']), `${count} (id `, isolated(controllerId), ')'];
}

const ownerOf = (store: Store, controllerId: string): string | undefined =>
  store.account?.controllers.find((controller) => controller.id === controllerId)?.owner;

/** The line under a door's options: "On Ana Ruiz's controller (id 12ab) · door id 34cd", every outside text isolated. */
export function doorIdLine(controller: readonly (Node | string)[], doorId: string): HTMLElement {
  return h('div', { class: 'ac-door-id' }, 'On ', ...controller, ' · door id ', isolated(doorId));
}

/**
 * What a door sets for itself, in a few words for its folded row; a door written twice, or any door while the per-door
 * settings are not a list (the plugin may still read them for it), is kept as written: never "as for all doors" then.
 */
function changesOf(block: Block, entries: Record<string, unknown>[]): string {
  if (!doorsEditable(block)) return 'kept as written';
  if (entries.length > 1) return `${entries.length} entries, kept as written`;
  const [own] = entries;
  const count = own ? Object.keys(own).filter((key) => key !== 'id').length : 0;
  return count === 0 ? 'as for all doors' : `${count} change${count === 1 ? '' : 's'}`;
}

/**
 * Why the door's own settings cannot be changed here, or undefined: the per-door settings are not a list (said once
 * above the list, with the plugin's sentence), or the door has several entries, which the plugin merges.
 */
function lockedWhy(block: Block, entries: readonly Record<string, unknown>[], twin: boolean): string | undefined {
  if (!doorsEditable(block)) return 'Its settings are kept as written: the per-door settings are not a list (see above).';
  if (twin)
    return 'Another door of the account has this id in another case: the plugin keeps both read-only, since a setting for one names both. Ask the service to tell them apart.';
  const count = entries.length;
  return count > 1
    ? `This door has ${count} entries in the per-door settings; the plugin merges them (the more protective Read-only, Show in Home and automation switch win). They are kept as written: edit config.json to leave one.`
    : undefined;
}

/** Whether another listed door's id differs from this one's only in case or invisible marks (the plugin keeps both read-only). */
function twinned(store: Store, doorId: string): boolean {
  return store.doors.some((other) => other.id !== doorId && canonicalId(other.id) === canonicalId(doorId));
}

/**
 * "Show in Home" as the plugin applies it: ticked only for a door that shows; a door its own Show in Home hides can be
 * ticked back, one a filter (or a setting it could mean) leaves out cannot be shown from here: unticked and off.
 */
function showBox(store: Store, doorId: string): { checked: boolean; filtered: boolean } {
  const hidden = doorEntriesOf(store.block, doorId).some((entry) => entry.hide === true);
  const out = store.check?.excluded.has(doorId) === true;
  return { checked: !hidden && !out, filtered: out && !hidden };
}

/** The doors whose rows are open: kept across redraws, so a change for all doors does not fold the row being edited. */
const openRows = new Set<string>();

/** Removes the door's own entry: it follows the settings for all doors again, and shows in Home. */
function backToAll(store: Store, door: DoorSummary, render: () => void): void {
  store.set(removeDoorEntry(store.block, door.id));
  render();
  // The row was drawn again: the keyboard stays on it, or on the filter when "changed only" has just hidden it.
  const row = document.querySelector<HTMLElement>(`[data-door-row="${CSS.escape(door.id)}"]`);
  (row && !row.hidden ? row.querySelector<HTMLElement>(':scope > summary') : document.getElementById('ac-door-changed'))?.focus();
}

function doorRow(store: Store, door: DoorSummary, render: () => void): HTMLElement {
  const own = doorEntry(store.block, door.id);
  const entries = doorEntriesOf(store.block, door.id);
  const locked = lockedWhy(store.block, entries, twinned(store, door.id));
  // The door's own controls are drawn disabled while its settings are kept as written (doorEditable, from the entries at hand).
  const disabled = locked !== undefined;
  const reason = store.check?.excluded.get(door.id);
  const shows = showBox(store, door.id);
  const show = h('input', {
    class: 'form-check-input',
    type: 'checkbox',
    id: `ac-show-${door.id}`,
    checked: shows.checked,
    'data-door': door.id,
    'data-field': 'show',
    // The door's name in it: a screen reader's list of checkboxes says which door each one shows.
    'aria-label': `Show in Home: ${door.name}`,
    disabled: disabled || shows.filtered,
  });
  show.addEventListener('change', () => store.set(setDoorField(store.block, door.id, 'hide', show.checked ? undefined : true)));
  const name = h('input', {
    class: 'form-control form-control-sm',
    type: 'text',
    placeholder: door.name,
    value: typeof own?.name === 'string' ? own.name : '',
    'data-door': door.id,
    'data-field': 'name',
    'aria-label': `Name in Home of ${door.name}`,
    disabled,
  });
  // At each key, not on leaving the field: Save, pressed with the keyboard still in it, writes what was typed.
  name.addEventListener('input', () => store.set(setDoorField(store.block, door.id, 'name', name.value.trim())));
  const labelled = (title: string, ...controls: (HTMLElement | false)[]) =>
    h('label', { class: 'ac-door-option' }, h('span', {}, title), ...controls);
  const controller = controllerWords(ownerOf(store, door.controllerId), door.controllerId);
  // Drawn for every door, shown once the door has settings of its own (refreshDoorStatus follows each change).
  const reset = h(
    'button',
    {
      class: 'btn btn-secondary btn-sm',
      type: 'button',
      'data-door-reset': door.id,
      'aria-label': `Back to all-doors settings for ${door.name}`,
      hidden: own === undefined || disabled,
    },
    'Back to all-doors settings',
  );
  reset.addEventListener('click', () => backToAll(store, door, render));
  // One short row (name, state, what it changes) that opens to the door's options: a long account stays a few screens.
  const row = h(
    'details',
    {
      class: reason ? 'ac-door ac-out' : 'ac-door',
      'data-door-row': door.id,
      [`data-${SEARCH_TEXT}`]: [door.name, typeof own?.name === 'string' ? own.name : '', plainText(controller), door.id]
        .join(' ')
        .toLowerCase(),
      [`data-${CHANGED}`]: entries.length > 0,
      open: openRows.has(door.id),
    },
    h(
      'summary',
      { class: 'ac-door-head' },
      h('span', { class: 'ac-door-name', 'data-door-name': '' }, isolated(door.name)),
      h('span', { class: 'ac-help', 'data-door-note': describe(door) }, noteOf(store, door.id) ?? describe(door)),
      h('span', { class: 'ac-help ac-door-changes', 'data-door-changes': '' }, changesOf(store.block, entries)),
    ),
    h(
      'div',
      { class: 'ac-door-body' },
      h('div', { class: 'form-check' }, show, h('label', { class: 'form-check-label', for: show.id }, 'Show in Home')),
      doorIdLine(controller, door.id),
      locked !== undefined && h('p', { class: 'status status-warn', 'data-door-kept': '' }, locked),
      h(
        'div',
        { class: 'ac-door-options' },
        labelled('Name in Home', name),
        ...PER_DOOR.filter((option) => offered(store, door, option)).map((option) => {
          const title = titleOf(option);
          // A choice offers its values, a number is typed; the others are flags (DOOR_FLAGS), on or off.
          return option.kind === 'choice'
            ? labelled(title, ...valueSelect(store, door, option, title, disabled))
            : option.kind === 'number'
              ? labelled(title, numberInput(store, door, option, disabled))
              : labelled(title, choiceSelect(store, door, option.key as DoorFlag, title, disabled));
        }),
      ),
      reset,
    ),
  );
  row.addEventListener('toggle', () => {
    if (row.open) openRows.add(door.id);
    else openRows.delete(door.id);
  });
  // A flag that offers or withdraws another choice (the left-open sensor its repeat): the row is drawn again, the select
  // keeping the focus.
  row.addEventListener('change', (event) => {
    const flag = event.target instanceof HTMLSelectElement ? event.target.dataset.flag : undefined;
    if (flag !== undefined && REVEALING.has(flag)) {
      const next = doorRow(store, door, render);
      row.replaceWith(next);
      next.querySelector<HTMLSelectElement>(`[data-flag="${flag}"]`)?.focus();
    }
  });
  return row;
}

/** The controller filter, and the split button once some are left out; rebuilt after each check (no text field in it). */
function renderControllers(store: Store, render: () => void): void {
  const box = byId('ac-controllers');
  const account = store.account;
  if (!account || account.controllers.length < 2) {
    fill(box);
    return;
  }
  // A controller list the page cannot read is kept as written: its ticks show what the plugin applies, and are off.
  const editable = controllersEditable(store.block);
  const kept = (['includeDeviceIds', 'excludeDeviceIds'] as const).flatMap((key) => {
    const why = store.check?.kept.get(key);
    return why === undefined ? [] : [h('p', { class: 'status status-warn', 'data-kept': key }, `Kept as written: ${why}`)];
  });
  const items = account.controllers.map((controller) => {
    const count = account.doors.filter((door) => door.controllerId === controller.id).length;
    const box = h('input', {
      class: 'form-check-input',
      type: 'checkbox',
      id: `ac-controller-${controller.id}`,
      'data-controller': controller.id,
      checked: controllerIncluded(store.block, controller.id),
      disabled: !editable,
    });
    box.addEventListener('change', () => store.set(setControllerIncluded(store.block, controller.id, box.checked)));
    // In words first (whose it is, how many doors), the id second.
    return h(
      'div',
      { class: 'form-check' },
      box,
      // One span: as flex items of the label, its words' edge spaces would collapse ("(idGBX7000)").
      h('label', { class: 'form-check-label', for: box.id }, h('span', {}, ...controllerWords(controller.owner, controller.id, count))),
    );
  });
  fill(
    box,
    h('p', { class: 'ac-help' }, 'Controllers whose doors this entry shows:'),
    ...kept,
    ...items,
    (editable && splitButton(store, render)) ?? false,
  );
}

function renderCount(store: Store): void {
  const note = byId('ac-count');
  const shown = store.check?.shown;
  if (!shown) {
    status(note, 'info', '');
    return;
  }
  // With person sensors, the bridge's places are shared: say so, or the count seems to contradict the cap.
  const room =
    shown.people === 0
      ? `one bridge holds at most ${shown.limit}`
      : `one bridge holds at most ${MAX_ACCESSORIES_PER_BRIDGE} accessories and ${shown.people} of them are person sensors`;
  if (shown.count > shown.limit) {
    status(
      note,
      'warn',
      `${shown.count} of ${shown.total} doors would show, but ${room}: only the first ${shown.limit} by door id appear. ` +
        'Untick controllers (or doors) until at most that many remain, then use "Add an entry for the rest" and turn on a child bridge for each entry in the plugin\'s Bridge Settings.',
    );
    return;
  }
  status(note, 'ok', `${shown.count} of ${shown.total} doors will show in Home (${room}).`);
}

/** Adds a second entry for the controllers this one leaves out, so a large account splits over two child bridges. */
function splitButton(store: Store, render: () => void): HTMLButtonElement | undefined {
  const account = store.account;
  const left =
    account?.controllers.filter((controller) => !controllerIncluded(store.block, controller.id)).map((controller) => controller.id) ?? [];
  if (left.length === 0) {
    return undefined;
  }
  const button = h(
    'button',
    { class: 'btn btn-secondary btn-sm', type: 'button', id: 'ac-split' },
    `Add an entry for the rest (${left.length} controller${left.length === 1 ? '' : 's'})`,
  );
  button.addEventListener('click', () => {
    if (!account) return;
    const base = store.block;
    const name = typeof base.name === 'string' ? base.name : String(store.defaults.name);
    // Every setting that protects the doors that move goes with them (issue 49): never an entry that opens what this one keeps closed.
    const split = splitEntry(base, account, left, `${name} 2`);
    store.entries.push({ platform: store.info.platform });
    store.savedPorts.push(undefined);
    store.showEntry(store.entries.length - 1);
    store.splitNotes.set(store.index, splitNote(name, left.length, split));
    store.set(split.block);
    render();
  });
  return button;
}

/** What the summary says of an entry the split made: where it came from, what it carried and what it left. */
function splitNote(from: string, controllers: number, split: Split): string {
  const carried = split.carried.length > 0 ? ` It carries ${split.carried.join('; ')}.` : '';
  const left = split.left.length > 0 ? ` Not carried: ${split.left.join('; ')}.` : '';
  const which = controllers === 1 ? 'the controller it leaves out' : `the ${controllers} controllers it leaves out`;
  return `Made from "${from}" for ${which}, with the same settings for their doors.${carried}${left}`;
}

let filterWired = false;

/** The account whose doors the rows were drawn from (undefined: the cache's): rows of another are drawn again. */
let drawnFor: AccountSummary | undefined;

export function renderDoors(store: Store, render: () => void): void {
  if (!filterWired) {
    filterWired = true;
    setUpDoorFilter();
  }
  drawnFor = store.account;
  const listed = store.doors;
  byId('ac-doors-empty').hidden = listed.length > 0;
  byId('ac-doors-body').hidden = listed.length === 0;
  renderControllers(store, render);
  renderCount(store);
  const doors = store.rows;
  const kept = store.check?.kept.get('doors');
  status(byId('ac-doors-kept'), kept === undefined ? 'info' : 'warn', kept === undefined ? '' : `Kept as written: ${kept}`);
  const list = byId('ac-door-list', HTMLDetailsElement);
  byId('ac-door-list-title').textContent = `${doors.length} door${doors.length === 1 ? '' : 's'}: show, name and options per door`;
  if (!list.dataset.folded && doors.length > 0) {
    list.dataset.folded = 'set';
    list.open = doors.length <= DOOR_LIST_OPEN_MAX;
  }
  fill(byId('ac-door-rows'), ...doors.map((door) => doorRow(store, door, render)));
  applyDoorFilter();
}

/** After a check: which doors stay out and the count, without rebuilding rows a user may be typing in. */
/**
 * What the plugin applies to a door beyond its own settings, as its row says it: out of Home, or read-only because a
 * setting names it in a form the plugin could not read exactly (src/config/protection.ts). Undefined: nothing.
 */
function noteOf(store: Store, doorId: string): string | undefined {
  const out = store.check?.excluded.get(doorId);
  if (out !== undefined) return `Not in Home: ${out}`;
  const guarded = store.check?.guarded?.get(doorId);
  return guarded === undefined ? undefined : `Read-only until a setting is fixed: ${guarded}`;
}

export function refreshDoorStatus(store: Store, render: () => void): void {
  // The address or token edited away from (or back to) the ones signed in with: the account's doors are no longer (or
  // again) this entry's, and no row of another account may stay to be given settings: the page is drawn again.
  if (drawnFor !== store.account) {
    render();
    return;
  }
  renderControllers(store, render);
  renderCount(store);
  for (const row of document.querySelectorAll<HTMLElement>('[data-door-row]')) {
    const doorId = row.dataset.doorRow ?? '';
    const reason = store.check?.excluded.get(doorId);
    row.classList.toggle('ac-out', reason !== undefined);
    const entries = doorEntriesOf(store.block, doorId);
    row.toggleAttribute(`data-${CHANGED}`, entries.length > 0);
    const changes = row.querySelector<HTMLElement>('[data-door-changes]');
    if (changes) changes.textContent = changesOf(store.block, entries);
    const reset = row.querySelector<HTMLElement>('[data-door-reset]');
    // doorEditable with the entries at hand: exactly one, in a `doors` that is a list.
    if (reset) reset.hidden = entries.length !== 1 || !doorsEditable(store.block);
    const show = row.querySelector<HTMLInputElement>('[data-field="show"]');
    if (show) {
      const shows = showBox(store, doorId);
      show.checked = shows.checked;
      show.disabled = shows.filtered || lockedWhy(store.block, entries, twinned(store, doorId)) !== undefined;
    }
    const note = row.querySelector<HTMLElement>('[data-door-note]');
    if (note) {
      note.textContent = noteOf(store, doorId) ?? note.dataset.doorNote ?? '';
    }
  }
}

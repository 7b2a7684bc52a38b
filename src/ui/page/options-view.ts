// The settings page's options for all doors and its timing section: drawn from the option catalog and bound to the block.
import { inDoorRow, OPTIONS, pageHelp, pageLabel, pagePlace } from '../../option-catalog.js';
import type { OptionSpec, PageField, PagePlace } from '../../option-catalog.js';
import { byId, fill, h } from './dom.js';
import { bindFlag, bindNumber, bindText } from './fields.js';
import { globalChoice, keyFixes, setField, setGlobalChoice } from '../shared/block.js';
import { quoted } from '../../util/quoted.js';
import type { Store } from './store.js';

/** The element of index.html each place is drawn into. */
const PLACES: Record<PagePlace, string> = { 'door-boxes': 'ac-globals', 'door-numbers': 'ac-door-numbers', timing: 'ac-timing-fields' };

/** An option the page draws for all doors, with its place and its page words (none: an empty set). */
type Drawn = OptionSpec & { place: PagePlace; page: PageField };

/** The options the page offers for all doors, each place's in the catalog's order but those drawn last. */
const DRAWN = (OPTIONS as readonly OptionSpec[])
  .flatMap((option): Drawn[] => {
    const place = pagePlace(option);
    return place === undefined ? [] : [{ ...option, place, page: option.page === false ? {} : (option.page ?? {}) }];
  })
  .sort((a, b) => Number(a.page.last === true) - Number(b.page.last === true));

/** A placeholder longer than this (characters) does not fit a field of the row's usual width: its field is drawn wider (.ac-field-wide). */
const WIDE_PLACEHOLDER_CHARS = 24;

/** The element id of an option's control: #ac-readOnly. */
const idOf = (option: OptionSpec): string => `ac-${option.key}`;

/** Where a select says what its chosen value does (the catalog's page.valueLabels). */
const whatId = (option: OptionSpec): string => `${idOf(option)}-what`;

/** Where a control says the key it applies was written as a near miss ("readonly"), which the check offers to fix. */
const writtenId = (option: OptionSpec): string => `${idOf(option)}-written`;

/** One option's markup: a checkbox for a flag (or a choice drawn as one), a select for another choice, else a field to type in. */
function field(option: Drawn): HTMLElement {
  const id = idOf(option);
  const { page } = option;
  if (option.kind === 'flag' || page.box !== undefined) {
    return h(
      'div',
      { class: 'form-check' },
      h('input', { class: 'form-check-input', type: 'checkbox', id }),
      // The note how the setting was written sits on its own line in the label, and is read with it.
      h(
        'label',
        { class: 'form-check-label', for: id },
        pageLabel(option),
        h('span', { class: 'ac-help ac-written', id: writtenId(option) }),
      ),
    );
  }
  const label = h('label', { for: id }, pageLabel(option));
  if (option.kind === 'choice') {
    // Short titles in the select, which a phone's width cuts; what the chosen one does on a line of its own under it.
    const what = page.valueLabels !== undefined && h('div', { class: 'ac-help', id: whatId(option), 'data-value-help': '' });
    const select = h(
      'select',
      { class: 'form-select form-select-sm form-control', id, 'aria-describedby': what ? what.id : undefined },
      ...option.values.map((value) => h('option', { value }, option.valueTitles?.[value] ?? value)),
    );
    const help = pageHelp(option);
    return h('div', { class: 'ac-field' }, label, select, what, help !== undefined && h('span', { class: 'ac-help' }, help));
  }
  const number = option.kind === 'number';
  const input = h('input', {
    id,
    class: 'form-control',
    type: 'text',
    inputmode: number ? 'numeric' : undefined,
    placeholder: option.kind === 'number' ? option.placeholder : undefined,
  });
  // A number's status line says what is wrong with what was typed; a long placeholder gets the room to be read whole.
  const wide = (input.placeholder.length > WIDE_PLACEHOLDER_CHARS && ' ac-field-wide') || '';
  return h('div', { class: `ac-field${wide}` }, label, input, number && h('span', { id: `${id}-status`, class: 'status' }));
}

/** Binds one drawn option to the block; `doorsFollow` redraws the door list, whose per-door choices name the value for all doors. */
function bind(store: Store, option: Drawn, doorsFollow: () => void): () => void {
  // The door rows that offer it name the value for all doors.
  const doorsName = inDoorRow(option);
  switch (option.kind) {
    case 'text':
      return bindText(store, option.key);
    case 'number': {
      const refresh = bindNumber(store, option.key, option);
      // On change (leaving the field), not on each key: the door rows name the value for all doors.
      if (doorsName) byId(idOf(option)).addEventListener('change', doorsFollow);
      return refresh;
    }
    case 'flag': {
      const refresh = bindFlag(store, option);
      if (doorsName) byId(idOf(option)).addEventListener('change', doorsFollow);
      return refresh;
    }
    case 'choice': {
      const { box } = option.page;
      if (box !== undefined) {
        // Ticked writes the value; unticked writes nothing, so the default applies.
        const input = byId(idOf(option), HTMLInputElement);
        input.addEventListener('change', () => store.set(setField(store.block, option.key, input.checked ? box : undefined)));
        return () => (input.checked = globalChoice(store.block, option) === box);
      }
      const select = byId(idOf(option), HTMLSelectElement);
      const what = document.getElementById(whatId(option));
      const say = (): void => {
        if (what) what.textContent = option.page.valueLabels?.[select.value] ?? '';
      };
      select.addEventListener('change', () => {
        say();
        store.set(setGlobalChoice(store.block, option, select.value));
        if (doorsName) doorsFollow();
      });
      return () => {
        select.value = globalChoice(store.block, option);
        say();
      };
    }
  }
}

/** Draws every option the page offers for all doors into its place and binds it; returns each one's refresh. */
export function setUpOptions(store: Store, doorsFollow: () => void): (() => void)[] {
  for (const [place, id] of Object.entries(PLACES)) {
    fill(byId(id), ...DRAWN.filter((option) => option.place === place).map(field));
  }
  return DRAWN.map((option) => {
    const refresh = bind(store, option, doorsFollow);
    return () => {
      refresh();
      // The control shows what the plugin applies; where that came from a near miss, it says how it was written.
      const note = document.getElementById(writtenId(option));
      if (note === null) return;
      const written = keyFixes(store.block).filter((fix) => fix.parent === '' && fix.key === option.key);
      note.textContent = written.length === 0 ? '' : `(written as ${written.map((fix) => quoted(fix.written)).join(' and ')})`;
    };
  });
}

// The door list's search field and "changed only" filter: hides the rows that do not match, and says how many do.
import { byId, status } from './dom.js';

/** What a row is found by: its names (the account's and the one for Home), its controller in words, and the ids. */
export const SEARCH_TEXT = 'search';
/** Set on a row whose door has settings of its own in the config. */
export const CHANGED = 'changed';

/** Shows the rows that match the search field and the filter; the count goes to a live region, so a screen reader hears it. */
export function applyDoorFilter(): void {
  const query = byId('ac-door-search', HTMLInputElement).value.trim().toLowerCase();
  const changedOnly = byId('ac-door-changed', HTMLInputElement).checked;
  const rows = [...document.querySelectorAll<HTMLElement>('[data-door-row]')];
  let shown = 0;
  for (const row of rows) {
    const found = query === '' || (row.dataset[SEARCH_TEXT] ?? '').includes(query);
    const match = found && (!changedOnly || row.dataset[CHANGED] !== undefined);
    row.hidden = !match;
    shown += match ? 1 : 0;
  }
  const note = byId('ac-door-found');
  if (query === '' && !changedOnly) {
    status(note, 'info', '');
  } else if (shown === 0) {
    status(note, 'warn', `No door matches${changedOnly ? ' among the changed ones' : ''}.`);
  } else {
    status(note, 'info', `${shown} of ${rows.length} doors shown.`);
  }
}

/** Wires the search field and the filter once; rows drawn later are filtered by renderDoors. */
export function setUpDoorFilter(): void {
  byId('ac-door-search').addEventListener('input', applyDoorFilter);
  byId('ac-door-changed').addEventListener('change', applyDoorFilter);
}

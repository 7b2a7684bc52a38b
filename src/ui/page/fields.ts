// Binds the page's plain inputs to fields of the block: text, whole numbers typed (never sliders) and checkboxes.
import { byId, status } from './dom.js';
import { getField, globalFlag, readWholeNumber, setField, setGlobalFlag } from '../shared/block.js';
import type { FlagOption } from '../../option-catalog.js';
import type { Store } from './store.js';

export interface NumberRange {
  min: number;
  max: number;
  unit: string;
}

/** The element id of a field path: "webhook.port" is #ac-webhook-port. */
const idOf = (path: string): string => `ac-${path.replace(/\./g, '-')}`;

/** A text field; empty removes the field, so the plugin's default applies (shown as the placeholder). */
export function bindText(store: Store, path: string, check?: (text: string) => string | undefined): () => void {
  const input = byId(idOf(path), HTMLInputElement);
  const note = document.getElementById(`${idOf(path)}-status`);
  const fallback = store.defaults[path];
  if (fallback !== undefined && !input.placeholder) {
    input.placeholder = `${String(fallback)} (default)`;
  }
  input.addEventListener('input', () => {
    const text = input.value.trim();
    const problem = text === '' ? undefined : check?.(text);
    if (note) {
      status(note, problem ? 'error' : 'info', problem ?? '');
    }
    store.set(setField(store.block, path, text));
  });
  return () => {
    const value = getField(store.block, path);
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    // The field being typed in keeps what was typed (a space before the next word), while it says the same.
    if (document.activeElement === input && input.value.trim() === text) return;
    input.value = text;
  };
}

/** A whole number typed as text; what is not one stays in the field with a message, and the block keeps its last good value. */
export function bindNumber(store: Store, path: string, range: NumberRange): () => void {
  const input = byId(idOf(path), HTMLInputElement);
  const note = byId(`${idOf(path)}-status`);
  const fallback = store.defaults[path];
  if (fallback !== undefined && !input.placeholder) {
    input.placeholder = `${String(fallback)} (default)`;
  }
  input.addEventListener('input', () => {
    const value = readWholeNumber(input.value);
    if (value === null) {
      status(note, 'error', `Type a whole number of ${range.unit}.`);
      return;
    }
    const outside = value !== undefined && (value < range.min || value > range.max);
    status(note, outside ? 'error' : 'info', outside ? `Between ${range.min} and ${range.max} ${range.unit}.` : '');
    // The default typed writes nothing, as a choice's default does: the plugin uses it anyway.
    store.set(setField(store.block, path, value === fallback ? undefined : value));
  });
  return () => {
    const value = getField(store.block, path);
    input.value = typeof value === 'number' ? String(value) : '';
    status(note, 'info', '');
  };
}

/** A box for a flag for all doors: ticked as the plugin applies it (unset: the catalog's default); its default writes nothing. */
export function bindFlag(store: Store, option: FlagOption): () => void {
  const input = byId(idOf(option.key), HTMLInputElement);
  input.addEventListener('change', () => store.set(setGlobalFlag(store.block, option, input.checked)));
  return () => (input.checked = globalFlag(store.block, option));
}

// Text from the network made safe for one log line: no control characters (no forged lines), bounded length, no run that
// could carry a secret (dense-runs.ts). Secrets are taken out before, where the text enters (redact.ts).
import { elideDense } from './dense-runs.js';

/** Longest piece of outside text put into one log line; a 60 KB error message must not flood the log. */
export const MAX_LOG_FIELD_CHARS = 300;
/** Most pieces of outside text listed in one log line; 10,000 broken doors must not make a 3 MB line. */
export const MAX_LOG_LIST_ITEMS = 5;

/** For oneLine: an id kept whole, dense runs too, where it identifies rather than tells (a Matter serial). */
export const KEEP_DENSE_RUNS = 'keep';

/** Marks that turn the text's direction around: a name holding one shows the page's own words around it in another order. */
const DIRECTION_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * One line of outside text: control characters and line breaks become a space (no forged lines), direction marks go (a
 * door named "Front \u202Eetag" cannot turn the rest of its log line around in a terminal or the Homebridge UI's log).
 */
export function oneLine(value: string, maxChars = MAX_LOG_FIELD_CHARS, dense: 'elide' | 'keep' = 'elide'): string {
  // A run that could carry a secret in a spelling the redaction does not know is elided (dense-runs.ts).
  const shown = dense === 'keep' ? value : elideDense(value);
  // eslint-disable-next-line no-control-regex
  const flat = withoutDirectionMarks(shown.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')).trim();
  return flat.length > maxChars
    ? `${Array.from(flat)
        .slice(0, maxChars - 1)
        .join('')}…`
    : flat;
}

/** Several pieces of outside text for one line, joined by "; ": each cleaned, the first few shown and the rest counted. */
export function listForLog(items: readonly string[], maxItems = MAX_LOG_LIST_ITEMS): string {
  const shown = items.slice(0, maxItems).map((item) => oneLine(item));
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more` : shown.join('; ');
}

/** A name from outside as the settings page shows it: without direction marks ("Front \u202Eetag" cannot turn its line around). */
export function withoutDirectionMarks(text: string): string {
  return text.replace(DIRECTION_MARKS, '');
}

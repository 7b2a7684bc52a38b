// Makes a door's name acceptable to HomeKit, which rejects names with symbols or that start or end with punctuation.
import { elideDense } from './dense-runs.js';
import { oneLine } from './log-text.js';

// Letters, numbers and the marks that belong to them (accents left after NFC, vowel signs of many scripts), and a few
// separators; anything else becomes a space.
const DISALLOWED = /[^\p{L}\p{M}\p{N} '.,-]+/gu;
// An emoji's variation selector is a mark: it goes with its emoji, not as a space of its own.
const VARIATION_SELECTORS = /\p{Variation_Selector}/gu;
// A mark with no letter or number to sit on (at the start, or where a symbol went) would show as a lone accent.
const ORPHAN_MARKS = /(?<![\p{L}\p{M}\p{N}])\p{M}+/gu;
// The Home app also refuses a name that ends in an apostrophe (HAP-NodeJS 2.x's checkName warns about it): none at either end.
const LEADING_PUNCTUATION = /^[^\p{L}\p{N}]+/u;
const TRAILING_PUNCTUATION = /[^\p{L}\p{M}\p{N}]+$/u;
/** HAP-NodeJS cuts a longer string to this many UTF-16 units, warning with the whole value in the log. */
const HAP_MAX_STRING_LENGTH = 64;

/**
 * The longest suffix the plugin adds to a door's name to name one of its extras (" Access Alert", door/extras/), in
 * UTF-16 units. A door's name leaves room for it, so every extra's name fits whole in HomeKit: a cut "<door> Access Al"
 * would read wrong, and a name HAP-NodeJS cut no longer starts with the door's name for renames to follow.
 */
export const MAX_EXTRA_SUFFIX_LENGTH = 13;
const MAX_NAME_LENGTH = HAP_MAX_STRING_LENGTH - MAX_EXTRA_SUFFIX_LENGTH;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The name a door shows in HomeKit; `fallback`, cleaned the same way, when nothing of `name` is left. */
export function homeKitName(name: string, fallback: string): string {
  return clean(name) || clean(fallback);
}

/** An extra's name: its door's name and its suffix, which always fits in HomeKit whole (see MAX_EXTRA_SUFFIX_LENGTH). */
export function extraName(doorName: string, suffix: string): string {
  return `${doorName}${suffix}`;
}

function clean(name: string): string {
  // A run that could carry a secret is no part of a name Home shows (dense-runs.ts): its ellipsis goes as a symbol.
  const text = elideDense(name)
    .normalize('NFC')
    .replace(VARIATION_SELECTORS, '')
    .replace(DISALLOWED, ' ')
    .replace(ORPHAN_MARKS, '')
    .replace(/ {2,}/g, ' ');
  // Trimmed again after the cut: it may end right after an apostrophe, a dot or a space.
  return trim(cut(trim(text), MAX_NAME_LENGTH));
}

function trim(text: string): string {
  return text.replace(LEADING_PUNCTUATION, '').replace(TRAILING_PUNCTUATION, '');
}

/** At most `max` UTF-16 units, ending between two characters as the user sees them (a letter keeps its accent, a pair its half). */
export function cut(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  let end = 0;
  for (const { segment } of graphemes.segment(text)) {
    if (end + segment.length > max) {
      break;
    }
    end += segment.length;
  }
  return text.slice(0, end);
}

/** HomeKit's longest serial number: HAP-NodeJS warns about a longer one, quoting it whole into the log. */
const MAX_SERIAL_LENGTH = 64;

/** The door id as HomeKit's serial number: the id itself for any the service really sends, a clean cut of a hostile one. */
export function homeKitSerial(id: string): string {
  return oneLine(id, MAX_SERIAL_LENGTH) || '-';
}

/** HomeKit wants FirmwareRevision as x[.y[.z]]; anything else is left out rather than shown wrong. */
export function homeKitVersion(version: string | undefined): string | undefined {
  return version?.match(/\d+(\.\d+){0,2}/)?.[0];
}

// Unicode's confusables skeleton (UTS #39, section 4): two texts that look alike have the same skeleton, so an id typed
// or pasted with a Cyrillic "а" or a Greek "ο" is found as the id it looks like. The data is Unicode's confusables.txt
// as the unhomoglyph package carries it (about 6,300 characters): this module is loaded only when an id fails to match
// (src/config/could-mean.ts), never at start-up.
import confusables from 'unhomoglyph/data.json' with { type: 'json' };

/** Each confusable character and the prototype it looks like. */
const PROTOTYPES = new Map<string, string>(Object.entries(confusables as Record<string, string>));

/** ASCII: its characters' codes are below 128 (a regular expression for it would name control characters). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
/** The ASCII characters that have a prototype ("0" looks like "O", "m" like "rn"), and their prototypes: ASCII as well. */
const ASCII_PROTOTYPES = new Map([...PROTOTYPES].filter(([char]) => isAscii(char)));
const ASCII_CONFUSABLE = new RegExp(
  `[${[...ASCII_PROTOTYPES.keys()].map((char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}]`,
  'g',
);

/**
 * The skeleton of a text: NFD, each character replaced by its prototype, NFD again; then in lower case, because the
 * ids it compares are canonical (src/util/canonical-id.ts) and a prototype may be a capital ("0" looks like "O").
 */
export function skeleton(text: string): string {
  // The ids of the service are ASCII: their skeleton needs neither normalization nor the map (NFD leaves ASCII as it is).
  if (isAscii(text)) return text.replace(ASCII_CONFUSABLE, (char) => ASCII_PROTOTYPES.get(char) ?? char).toLowerCase();
  let mapped = '';
  for (const char of text.normalize('NFD')) mapped += PROTOTYPES.get(char) ?? char;
  return mapped.normalize('NFD').toLowerCase();
}

export type Skeleton = typeof skeleton;

// Unicode's confusables skeleton (UTS #39, section 4): two texts that look alike have the same skeleton, so an id typed
// or pasted with a Cyrillic "а" or a Greek "ο" is found as the id it looks like. The data is Unicode's confusables.txt
// as the unhomoglyph package carries it (about 6,300 characters): this module is loaded only when an id fails to match
// (src/config/could-mean.ts), never at start-up.
import confusables from 'unhomoglyph/data.json' with { type: 'json' };

/** Each confusable character and the prototype it looks like. */
const PROTOTYPES = new Map<string, string>(Object.entries(confusables as Record<string, string>));

/**
 * The skeleton of a text: NFD, each character replaced by its prototype, NFD again; then in lower case, because the
 * ids it compares are canonical (src/util/canonical-id.ts) and a prototype may be a capital ("0" looks like "O").
 */
export function skeleton(text: string): string {
  let mapped = '';
  for (const char of text.normalize('NFD')) mapped += PROTOTYPES.get(char) ?? char;
  return mapped.normalize('NFD').toLowerCase();
}

export type Skeleton = typeof skeleton;

// Unicode's confusables skeleton (UTS #39, section 4): two texts that look alike have the same skeleton, so an id typed
// or pasted with a Cyrillic "а" or a Greek "ο" is found as the id it looks like. The data is Unicode's confusables.txt
// as the unhomoglyph package carries it (about 6,300 characters): this module is loaded only when an id fails to match
// (src/config/could-mean.ts), never at start-up.
import confusables from 'unhomoglyph/data.json' with { type: 'json' };

/** Each confusable character and the prototype it looks like. */
const PROTOTYPES = new Map<string, string>(Object.entries(confusables as Record<string, string>));

/** Rounds of mapping at most: a prototype in capitals ("M") may itself map once lower-cased ("m" looks like "rn"). */
const MAX_ROUNDS = 4;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Each character's prototype, once worked out. */
const chosen = new Map<string, string>();

/**
 * The prototype of one character of a canonical (case-folded) id. Unicode's data lists many look-alikes by their capital
 * (Cherokee "Ꭺ" looks like "A", Coptic "Ϩ" like "2") and maps their lower-case form elsewhere or not at all; the ids it
 * compares are ASCII, so of the character's own prototype and its capital's, one in ASCII is taken. An ASCII character
 * keeps its own ("i" is not "I", which looks like "l").
 */
function prototypeOf(char: string): string {
  const known = chosen.get(char);
  if (known !== undefined) return known;
  const own = PROTOTYPES.get(char);
  let prototype = own ?? char;
  if (!isAscii(char) && (own === undefined || !isAscii(own))) {
    const capital = PROTOTYPES.get(char.toUpperCase());
    if (capital !== undefined && isAscii(capital)) prototype = capital;
  }
  chosen.set(char, prototype);
  return prototype;
}

/** The skeleton of each ASCII character, worked out once: an ASCII text's skeleton is theirs, one after another. */
const ASCII_SKELETONS = Array.from({ length: 0x80 }, (_, code) => mapped(String.fromCharCode(code)));

/**
 * The skeleton of a text: NFD, each character replaced by its prototype, NFD again, in lower case (the ids it compares
 * are canonical), until nothing changes.
 */
export function skeleton(text: string): string {
  if (!isAscii(text)) return mapped(text);
  // Most ASCII ids are their own skeleton (lower-case letters, digits, hyphens): the text itself, no new string.
  let same = 0;
  while (same < text.length && ASCII_SKELETONS[text.charCodeAt(same)] === text[same]) same += 1;
  if (same === text.length) return text;
  let skeleton = text.slice(0, same);
  for (let i = same; i < text.length; i += 1) skeleton += ASCII_SKELETONS[text.charCodeAt(i)] ?? '';
  return skeleton;
}

/** skeleton() the long way, for any text. */
function mapped(text: string): string {
  let current = text;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    let mapped = '';
    for (const char of isAscii(current) ? current : current.normalize('NFD')) mapped += prototypeOf(char);
    const next = (isAscii(mapped) ? mapped : mapped.normalize('NFD')).toLowerCase();
    if (next === current) break;
    current = next;
  }
  return current;
}

export type Skeleton = typeof skeleton;

/** The one character a character looks like, in one round and lower case ("𝝡" is "m", not skeleton's "rn"): for the redaction. */
export function lookAlikeOf(char: string): string {
  return prototypeOf(char).toLowerCase();
}

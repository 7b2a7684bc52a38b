// Plain values of config.json as the plugin reads them: blanks, records, paths, sentences' lists, and ids as the service
// means them. No zod and nothing above it: the settings page bundles this file too.
import { canonicalId, uncasedId, withoutIgnorables } from '../util/canonical-id.js';
import { quoted } from '../util/quoted.js';

/** A path into the platform block: ["doors", 2, "readOnly"]. */
export type Path = readonly PropertyKey[];

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A null, an empty or blank string: what a form writes for a field left empty, read as "not set". */
export const isBlank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A copy of an object without the keys whose value is blank: a form's empty field means "not set". */
export function withoutBlanks(block: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(block).filter(([, value]) => !isBlank(value)));
}

/** "doors.2.readOnly"; the whole block is "configuration". */
export const dotted = (path: Path): string => (path.length > 0 ? path.map(String).join('.') : 'configuration');

/** "a", "a and b", "a, b and c": several mistakes of one block in one sentence. */
export function listing(all: readonly string[]): string {
  const parts = [...new Set(all)];
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/**
 * An id as written, in the form ids are compared in (canonicalId): text, or a whole number (the service's ids may be numbers,
 * and it reads them as their text, so the two must match). A number JSON cannot hold exactly (beyond 2^53, where
 * 9007199254740993 reads as ...992) is no id: it may name another door than the one meant (see unsafeIdNumber).
 * Undefined: not an id.
 */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? String(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const key = canonicalId(unescaped(value));
  return key === '' ? undefined : key;
}

/** A JavaScript or JSON escape written as text in an id ("\\u0061" for "a", "\\u{61}", "\\x61"), as the letter it stands for. */
const TEXT_ESCAPE = /\\u\{([0-9a-f]{1,6})\}|\\u([0-9a-f]{4})|\\x([0-9a-f]{2})/giu;

/** An id with its text escapes read (an id pasted from source code or a log keeps them): no id of the service holds one. */
export function unescaped(text: string): string {
  return text.replace(TEXT_ESCAPE, (escape, ...hex: (string | undefined)[]) => {
    const code = Number.parseInt(hex.find((digits) => digits !== undefined) ?? '', 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : escape;
  });
}

/** A whole number written as an id that JSON could not hold exactly, or undefined. */
export function unsafeIdNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) ? value : undefined;
}

/** Whether a door's (or controller's) id may be the number the user wrote beyond 2^53: its digits read as that number. */
export function couldBeNumber(id: string, number: number): boolean {
  const key = canonicalId(id);
  return /^\d+$/.test(key) && Number(key) === number;
}

/** What an id quoted in a sentence may hold: a plain id (the service's are UUIDs), never text that could forge a log line. */
const QUOTABLE_ID = /^[\w.:-]{1,64}$/;

/**
 * An id as it may appear in a sentence of the log or the page, in quotes: a plain one as it is, any other with every
 * character outside printable ASCII written as \uXXXX (a look-alike letter, a direction mark, a line break shows as
 * what it is and can forge nothing). The config's own sentences quote through typedId (src/config/redacted.ts), which
 * says an id holding a secret (the token pasted in the wrong field) as [redacted]. Undefined: not an id at all.
 */
export function quotableId(id: unknown): string | undefined {
  const read = idOf(id);
  if (read === undefined) return undefined;
  const written = typeof id === 'string' ? id.trim() : read;
  return QUOTABLE_ID.test(written) ? `"${written}"` : quoted(written);
}

/** What is wrong with a value that is no id, in the parser's words. */
export function idProblem(value: unknown): string {
  return unsafeIdNumber(value) !== undefined
    ? 'is a number too large to be read exactly (beyond 2^53); write the id in quotes, as text'
    : 'must be an id (text or a number)';
}

/** What a plain id is made of: the service's ids are UUIDs; a part holding anything else is no id of a list. */
const PLAIN_ID = /^[\p{L}\p{N}_.:-]{1,128}$/u;

/**
 * The ids of a list written as one text ("idA, idB" or "idA idB"): split on commas, semicolons and white space when
 * every part reads as a plain id. Undefined when a part does not (the text is no list of ids) or there is none.
 */
export function idsInText(text: string): string[] | undefined {
  return spellingsInText(text)?.map(canonicalId);
}

/** idsInText's parts as written (uncasedId: in their own case, where look-alike letters are told). */
function spellingsInText(text: string): string[] | undefined {
  const parts = withoutIgnorables(text)
    .split(/[,;\s]+/u)
    .map(uncasedId)
    .filter((part) => part !== '');
  return parts.length > 0 && parts.every((part) => PLAIN_ID.test(canonicalId(part))) ? parts : undefined;
}

/** How an id list was read: its ids, the elements that are no id (by index), and numbers too large to hold exactly. */
export interface IdListReading {
  ids: string[];
  /** Indexes of elements that are neither an id nor blank (for a list written as one value: [0]). */
  bad: number[];
  /** Whole numbers beyond 2^53 written as ids, by index: the ids they could be are not known exactly. */
  numbers: { index: number; number: number }[];
  /** Not written as a list: one text (split as idsInText does) or one number. */
  lone: boolean;
  /** Each id as written (uncasedId), for telling look-alike letters (src/config/protection.ts). */
  spellings: Spellings;
}

/** The ways each id (canonical) was written, in their own case: look-alike letters are told from these. */
export type Spellings = Map<string, string[]>;

/** Adds a way an id was written. */
export function addSpelling(spellings: Spellings, id: string, written: string): void {
  const known = spellings.get(id);
  if (known === undefined) spellings.set(id, [written]);
  else if (!known.includes(written)) known.push(written);
}

/**
 * A list of ids as written in config.json, element by element: blanks dropped, texts in canonical form (a text holding
 * several ids split), safe whole numbers as their text. One text or one number stands for a list of what it holds.
 * The plugin's parser and the settings page both read every id list with this.
 */
export function readIdList(value: unknown): IdListReading {
  const reading: IdListReading = {
    ids: [],
    bad: [],
    numbers: [],
    lone: !Array.isArray(value),
    spellings: new Map(),
  };
  const elements: unknown[] = Array.isArray(value) ? value : isBlank(value) ? [] : [value];
  elements.forEach((element, index) => {
    if (isBlank(element)) return;
    const number = unsafeIdNumber(element);
    if (number !== undefined) {
      reading.numbers.push({ index, number });
      return;
    }
    // A text that is no list of plain ids is one id all the same: if it names no door exactly, the doors it could mean
    // (a look-alike letter, an id inside it) are protected once the account is known (src/config/protection.ts).
    const written = typeof element === 'string' ? (spellingsInText(element) ?? [uncasedId(element)]) : [element];
    const read = written.flatMap((each) => {
      const id = idOf(each);
      if (id === undefined) return [];
      if (typeof each === 'string') addSpelling(reading.spellings, id, each);
      return [id];
    });
    if (read.length === 0) reading.bad.push(index);
    else reading.ids.push(...read);
  });
  reading.ids = [...new Set(reading.ids)];
  return reading;
}

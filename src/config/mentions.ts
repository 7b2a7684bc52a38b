// Values the plugin does not read (an unknown key, a `doors` that is no list) kept for the ids they hold: a door of the
// account named in one stays read-only until it is fixed, and out of Home where the key speaks of hiding or excluding.
// Which doors they name is known only once the account is (src/config/protection.ts).
import { fold } from '../util/near-miss.js';
import { isBlank, isRecord } from './values.js';

/** A value the plugin does not read, and the texts in it that may be ids. */
export interface Mention {
  /** Where it is ("readOnlyDoorIds", "doors.2.automation", "doors"). */
  path: string;
  /** Its texts, whole numbers and keys, each as written (a long one cut at MAX_TEXT_CHARS). */
  texts: string[];
  /** Its key speaks of hiding or excluding: a door it names is left out of Home too. */
  leaveOut: boolean;
  /** The value is larger than the plugin looks into: what lies past the bounds was not read (the parse names it). */
  cut?: true;
}

/**
 * How far into one value the plugin does not read it looks: texts, characters, and the parts (elements, keys, values) it
 * visits, and how deep. A config large for no reason (a pasted export) is read this far and named, never walked in full.
 */
export const MAX_TEXTS = 1000;
/** Characters of one text kept: a door id is far shorter, and the "could mean" scan reads no further (could-mean.ts). */
export const MAX_TEXT_CHARS = 4096;
/** Characters kept from one value, all its texts together. */
export const MAX_MENTION_CHARS = 64 * 1024;
/** Parts of one value visited, texts or not: an array of a million nulls is looked at this far. */
export const MAX_PARTS = 10_000;
const MAX_DEPTH = 8;

/** Words of a key that mean "keep it out of Home": an id under such a key is left out, not only read-only. */
const LEAVE_OUT_WORDS = /hid|exclu|skip|ignor|omit|remov|block|deny|blacklist/u;

/** Whether a key speaks of hiding or excluding ("hideDoorIds", "excludeDoors", "hidden"). */
export const speaksOfLeavingOut = (key: string): boolean => LEAVE_OUT_WORDS.test(fold(key));

/** The texts of a value, as far as the bounds go, and whether they cut it. */
interface Reading {
  texts: string[];
  cut: boolean;
}

/** Reads the texts of `value` that may be ids within the bounds; `first` (a key it is under) counts among them. */
function readTexts(value: unknown, first?: string): Reading {
  const texts: string[] = [];
  let chars = 0;
  let parts = 0;
  let cut = false;
  /** Keeps a text while the bounds allow; false once they are spent, which ends the walk. */
  const take = (text: string): boolean => {
    if (texts.length >= MAX_TEXTS || chars >= MAX_MENTION_CHARS) {
      cut = true;
      return false;
    }
    const kept = text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
    if (kept.length < text.length) cut = true;
    texts.push(kept);
    chars += kept.length;
    return true;
  };
  const visit = (node: unknown, depth: number): boolean => {
    parts += 1;
    if (parts > MAX_PARTS || depth > MAX_DEPTH) {
      cut = true;
      return false;
    }
    if (typeof node === 'string') return take(node);
    if (typeof node === 'number') return Number.isSafeInteger(node) ? take(String(node)) : true;
    if (Array.isArray(node)) {
      for (const element of node as unknown[]) if (!visit(element, depth + 1)) return false;
    } else if (isRecord(node)) {
      // for…in, not Object.entries: a record of a million keys is not copied to be looked at in part.
      for (const key in node) {
        if (!Object.hasOwn(node, key)) continue;
        if (!take(key) || !visit(node[key], depth + 1)) return false;
      }
    }
    return true;
  };
  if (first !== undefined) take(first);
  visit(value, 0);
  return { texts, cut };
}

/** The texts of a value that may be ids: strings, whole numbers, and the keys of its objects (a map keyed by door id). */
export function textsOf(value: unknown): string[] {
  return readTexts(value).texts;
}

/**
 * A value the plugin does not read as a mention, or undefined when it says nothing (a blank, false). `key`: the unknown
 * key it is under, read too (a door's id written as a key: { "<id>": { "readOnly": true } }).
 */
export function mentionOf(path: string, value: unknown, leaveOut: boolean, key?: string): Mention | undefined {
  if (isBlank(value) || value === false) return undefined;
  const { texts, cut } = readTexts(value, key);
  return { path, texts, leaveOut, ...(cut ? { cut: true as const } : {}) };
}

/** What the parse says of a mention the bounds cut: it is named, with how far it was read. */
export function cutSentence(mention: Mention): string {
  return `${mention.path} is larger than the plugin looks into: it read its first ${MAX_TEXTS.toLocaleString('en-US')} texts, ${MAX_TEXT_CHARS.toLocaleString('en-US')} characters of each and ${MAX_MENTION_CHARS.toLocaleString('en-US')} in all, and a door named past that is not protected by it`;
}

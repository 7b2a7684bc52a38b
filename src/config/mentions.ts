// Values the plugin does not read (an unknown key, a `doors` that is no list) kept for the ids they hold: a door of the
// account named in one stays read-only until it is fixed, and out of Home where the key speaks of hiding or excluding.
// Which doors they name is known only once the account is (src/config/protection.ts).
import { fold } from '../util/near-miss.js';
import { isBlank, isRecord } from './values.js';

/** A value the plugin does not read, and the texts in it that may be ids. */
export interface Mention {
  /** Where it is ("readOnlyDoorIds", "doors.2.automation", "doors"). */
  path: string;
  /** Its texts, whole numbers and keys, each as written. */
  texts: string[];
  /** Its key speaks of hiding or excluding: a door it names is left out of Home too. */
  leaveOut: boolean;
}

/** The most texts read from one value, and how deep into it: a value of a million elements is read this far. */
const MAX_TEXTS = 1000;
const MAX_DEPTH = 8;

/** Words of a key that mean "keep it out of Home": an id under such a key is left out, not only read-only. */
const LEAVE_OUT_WORDS = /hid|exclu|skip|ignor|omit|remov|block|deny|blacklist/u;

/** Whether a key speaks of hiding or excluding ("hideDoorIds", "excludeDoors", "hidden"). */
export const speaksOfLeavingOut = (key: string): boolean => LEAVE_OUT_WORDS.test(fold(key));

/** The texts of a value that may be ids: strings, whole numbers, and the keys of its objects (a map keyed by door id). */
export function textsOf(value: unknown): string[] {
  const texts: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (texts.length >= MAX_TEXTS || depth > MAX_DEPTH) return;
    if (typeof node === 'string') texts.push(node);
    else if (typeof node === 'number' && Number.isSafeInteger(node)) texts.push(String(node));
    else if (Array.isArray(node)) for (const element of node) visit(element, depth + 1);
    else if (isRecord(node)) {
      for (const [key, inner] of Object.entries(node)) {
        if (texts.length >= MAX_TEXTS) return;
        texts.push(key);
        visit(inner, depth + 1);
      }
    }
  };
  visit(value, 0);
  return texts.slice(0, MAX_TEXTS);
}

/**
 * A value the plugin does not read as a mention, or undefined when it says nothing (a blank, false). `key`: the unknown
 * key it is under, read too (a door's id written as a key: { "<id>": { "readOnly": true } }).
 */
export function mentionOf(path: string, value: unknown, leaveOut: boolean, key?: string): Mention | undefined {
  if (isBlank(value) || value === false) return undefined;
  return { path, texts: [...(key === undefined ? [] : [key]), ...textsOf(value)].slice(0, MAX_TEXTS), leaveOut };
}

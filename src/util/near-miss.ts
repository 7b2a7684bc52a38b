// Which known word a hand-typed key or value nearly is (case, spaces, look-alike letters, one edit), and how to quote
// text a user typed without forging a line or quoting a secret. Plain functions: the settings page bundles them too.
import { REDACTED } from './redact.js';

/** Letters of other scripts that look like Latin ones: a key typed or pasted with one reads the same but is not. */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ı: 'i',
};

/** A word as compared: look-alikes as Latin, compatibility forms unfolded, case, spaces, dashes and underscores gone. */
export function fold(word: string): string {
  return Array.from(word.normalize('NFKC').toLowerCase())
    .map((char) => LOOK_ALIKES[char] ?? char)
    .join('')
    .replace(/[\s_\-\u200b-\u200d\ufeff]+/g, '');
}

/** Edits (insert, delete, replace, swap of two neighbours) from a to b, counted up to `limit` + 1. */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((rows[i - 1]?.[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (rows[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? limit + 1;
}

/** Shortest folded word that one edit may reach: below it, one edit turns too many words into others ("id" and "i"). */
const MIN_EDITED_LENGTH = 4;

/**
 * The known words `typed` nearly is: the same once folded, or else one edit from it. More than one: it falls between
 * them (no guess is made, unless the caller picks the one that protects).
 */
export function nearMisses(typed: string, known: readonly string[]): string[] {
  const folded = fold(typed);
  const same = known.filter((word) => fold(word) === folded);
  if (same.length > 0 || folded.length < MIN_EDITED_LENGTH) return same;
  return known.filter((word) => editDistance(folded, fold(word), 1) === 1);
}

/** The one known word `typed` nearly is; undefined: none, or two as near (a guess is never made between them). */
export function nearMiss(typed: string, known: readonly string[]): string | undefined {
  const near = nearMisses(typed, known);
  return near.length === 1 ? near[0] : undefined;
}

/**
 * The known words closest to `typed`, for "did you mean": every one as near as the nearest, in the order known lists
 * them (empty when none is within a few edits). Several: the typed word falls between them, and a caller that must
 * not widen what a door allows picks the one that protects.
 */
export function closestAll(typed: string, known: readonly string[]): string[] {
  const folded = fold(typed);
  /** Farther than this, a suggestion is noise. */
  const maxEdits = Math.max(2, Math.floor(folded.length / 3));
  let best: { words: string[]; distance: number } = { words: [], distance: Infinity };
  for (const word of known) {
    // Of two as near, one that holds the typed word whole ("excludeDoor" in excludeDoorIds) is the likelier meaning.
    const distance = editDistance(folded, fold(word), maxEdits) - (fold(word).includes(folded) ? 0.5 : 0);
    if (distance > maxEdits || distance > best.distance) continue;
    best = distance < best.distance ? { words: [word], distance } : { words: [...best.words, word], distance };
  }
  return best.words;
}

/** The known word closest to `typed` (the first of closestAll), or undefined. */
export const closest = (typed: string, known: readonly string[]): string | undefined => closestAll(typed, known)[0];

/** Edits within which a value counts as a secret mistyped or pasted with a character more or less. */
const SECRET_EDITS = 2;
/** Shortest text that is looked for inside a secret, and a secret inside it: shorter ones are common words. */
export const MIN_SECRET_PART = 8;

/** Whether `value` is, holds, or is a part or a near copy of one of the secrets (the access token, the webhook key). */
export function nearSecret(value: string, secrets: readonly unknown[]): boolean {
  const text = value.trim();
  return secrets.some((secret) => {
    if (typeof secret !== 'string' || secret.trim() === '') return false;
    const key = secret.trim();
    if (text === key || (key.length >= MIN_SECRET_PART && text.includes(key))) return true;
    if (text.length >= MIN_SECRET_PART && key.includes(text)) return true;
    return editDistance(text, key, SECRET_EDITS) <= SECRET_EDITS;
  });
}

/** What stands for a secret in a sentence: the redaction's own word. */
export { REDACTED };
/** Longest typed text quoted in a sentence. */
const MAX_QUOTED_CHARS = 40;

/**
 * Typed text quoted for a sentence: in double quotes, anything outside printable ASCII written as \uXXXX (so a Cyrillic
 * letter shows as one), cut when long, and [redacted] when it is near a secret.
 */
export function quoted(value: string, secrets: readonly unknown[]): string {
  if (nearSecret(value, secrets)) return REDACTED;
  const chars = Array.from(value);
  const shown = chars.slice(0, MAX_QUOTED_CHARS).join('');
  const escaped = shown.replace(/[^\x20-\x7e]|["\\]/g, (char) =>
    char === '"' || char === '\\' ? `\\${char}` : `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}${chars.length > MAX_QUOTED_CHARS ? '…' : ''}"`;
}

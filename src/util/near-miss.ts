// Which known word a hand-typed key or value nearly is (case, spaces, compatibility forms, one edit). Plain functions:
// the settings page bundles them too.
import { canonicalId } from './canonical-id.js';

/**
 * A word as compared: compatibility forms unfolded (NFKC), case folded, default-ignorable characters gone, and spaces,
 * dashes and underscores gone. A look-alike letter of another script stays what it is: as one edit, a key typed with one
 * is still a near miss (src/util/skeleton.ts finds look-alike ids, where they matter more).
 */
export function fold(word: string): string {
  return canonicalId(word).replace(/[\s_-]+/gu, '');
}

/** Longest text an edit distance compares: past it, two texts are as far as any (a 50,000-character value costs nothing). */
export const MAX_COMPARED_CHARS = 256;

/** A character outside the Basic Multilingual Plane is two UTF-16 units: one character, one edit. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * Edits (insert, delete, replace, swap of two neighbours) from a to b, counted up to `limit` + 1, character by character
 * (an emoji or a mathematical letter is one), in memory that grows with the length of b alone (three rows), and never
 * over more than MAX_COMPARED_CHARS characters.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (a === b) return 0;
  if (SURROGATE.test(a) || SURROGATE.test(b)) return unitDistance(Array.from(a), Array.from(b), limit);
  return unitDistance(a, b, limit);
}

/** editDistance over units: the UTF-16 units of a string, or the characters of an array. */
function unitDistance(a: ArrayLike<string>, b: ArrayLike<string>, limit: number): number {
  const cap = Math.min(limit, MAX_COMPARED_CHARS) + 1;
  if (Math.abs(a.length - b.length) >= cap || a.length > MAX_COMPARED_CHARS || b.length > MAX_COMPARED_CHARS) return cap;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i += 1) {
    row[0] = i;
    let rowBest = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (before[j - 2] ?? 0) + 1);
      row[j] = best;
      rowBest = Math.min(rowBest, best);
    }
    // Every later row is at least this row's least: past the limit, nothing nearer can come.
    if (rowBest >= cap) return cap;
    [before, previous, row] = [previous, row, before];
  }
  return Math.min(previous[b.length] ?? cap, cap);
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

// Outside text shown only as what it can be: a run long and dense enough to carry a secret in a spelling no rule knows is
// elided (…). Plain functions: the settings page bundles it too.
import { REDACTED } from './redact.js';

/** What stands for an elided run. */
export const ELIDED = '…';

/**
 * Letters, digits and symbols (in any script) in one run without whitespace from which it is elided, unless it reads as
 * words (readsAsWords). A secret of the service is at least 20 characters of random letters and digits, and any spelling
 * of it (base64, hex, entities, look-alikes, marks or symbols between its letters) is at least as long; ordinary words,
 * names and dates are shorter. The cost (docs/security.md): a run of 20 or more with digits in it (a long serial number,
 * a web address with an id) or letters in mixed case (camelCase), and one of 40 or more however it reads (a long web
 * address), is elided too.
 */
export const DENSE_RUN_CHARS = 20;
/**
 * Words of at most this many characters in a row, one space apart, read as one run: a secret spelled out a few characters
 * at a time ("a b c d …", bytes "88 113 55 …") is as dense as one written whole; ordinary short words ("it is on the")
 * still read as words (readsAsWords).
 */
const SPELLED_OUT_CHARS = 3;

/** Characters that count: letters, digits and other symbols (Braille, emoji…), in any script. */
const DENSE = /[\p{L}\p{N}\p{So}]/u;
/** A run: no whitespace, or words of at most SPELLED_OUT_CHARS characters one whitespace apart. */
const RUN = new RegExp(`(?:\\S{1,${SPELLED_OUT_CHARS}}\\s(?=\\S{1,${SPELLED_OUT_CHARS}}(?:\\s|$)))+\\S+|\\S+`, 'gu');
/** An id as the contract writes them (a UUID): shown whole, whatever its length. */
const CONTRACT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Quotes and brackets around a run stay: "(…)" says where the elided text stood. */
const EDGES = /^([("'[{<]*)(.*?)([)"'\]}>.,;:!?]*)$/su;

/** How many characters of `run` count as dense; stops counting at `enough`. */
function denseChars(run: string, enough: number): number {
  let count = 0;
  for (const char of run) {
    if (DENSE.test(char) && (count += 1) >= enough) break;
  }
  return count;
}

/** What parts a run into pieces: punctuation, and the symbols of maths, money and modifiers (`_`, `.`, `@`, `/`, `|`…). */
const PIECE_BREAK = /[\p{P}\p{Sm}\p{Sc}\p{Sk}\s]+/u;
/** A word: letters alone (no digit, symbol or mark), lower case, upper case, or capitalised. */
const WORD = /^(?:\p{Ll}+|\p{Lu}+|\p{Lu}\p{Ll}+|\p{Lo}+)$/u;

/**
 * Whether a run reads as words joined by punctuation ("enforcer_unauthorized_user", "grace.hopper@example.org",
 * "https://help.example.com/pair-sensor"): each piece a WORD. A secret, and any spelling of it, mixes digits, cases,
 * symbols or marks, or runs longer (MAX_WORDS_RUN_CHARS).
 */
function readsAsWords(run: string): boolean {
  return run
    .normalize('NFC')
    .split(PIECE_BREAK)
    .every((piece) => piece === '' || WORD.test(piece));
}

/**
 * Letters and digits from which even a run that reads as words is elided: a secret of at least DENSE_RUN_CHARS random
 * letters and digits spelled in letters of one case alone (its digits mapped to letters) takes about twice as many.
 */
const MAX_WORDS_RUN_CHARS = 2 * DENSE_RUN_CHARS;

/**
 * Letters, digits or symbols glued to a [redacted] from which their run is elided whole: a secret found in part may go on
 * in a spelling that was not found (a look-alike letter shifted by a cipher), and ordinary text is rarely glued to one.
 */
const GLUED_TO_REDACTED_CHARS = 4;

/** Whether a run (without whitespace) could carry a secret by its shape alone. */
export function isDenseRun(run: string): boolean {
  if (run.includes(REDACTED) && run !== REDACTED) {
    return denseChars(run.split(REDACTED).join(''), GLUED_TO_REDACTED_CHARS) >= GLUED_TO_REDACTED_CHARS;
  }
  if (run.length < DENSE_RUN_CHARS || CONTRACT_ID.test(run)) return false;
  const dense = denseChars(run, MAX_WORDS_RUN_CHARS);
  return dense >= DENSE_RUN_CHARS && (dense >= MAX_WORDS_RUN_CHARS || !readsAsWords(run));
}

/** `text` with every run that could carry a secret by its shape (isDenseRun) written as ELIDED, its quotes and brackets kept. */
export function elideDense(text: string): string {
  // Nothing shorter can hold a dense run: most names and words cost one comparison.
  if (text.length < DENSE_RUN_CHARS && !text.includes(REDACTED)) return text;
  return text.replace(RUN, (run) => {
    if (run.includes(REDACTED)) return isDenseRun(run) ? ELIDED : run;
    const [, open = '', inner = '', close = ''] = EDGES.exec(run) ?? [];
    return isDenseRun(inner) ? `${open}${ELIDED}${close}` : run;
  });
}

// The access token and the webhook key found in any text, in any spelling they can be echoed in, and written as
// [redacted]: the one redaction used where outside text enters and where the plugin's own text leaves (the config's
// findings, the log). Plain functions: the settings page bundles it.
import { editDistance } from './near-miss.js';

/** What stands for a secret in a text. */
export const REDACTED = '[redacted]';

/**
 * Consecutive characters of a secret that, found anywhere in a text, are taken for it: a service quoting part of the
 * token quotes a secret. Fewer would take ordinary words for a part of a short secret; 10 characters of a random token or
 * key are one of at least 16^10 (about 10^12) strings, which ordinary text, an id or a date of the service holds only by
 * that chance.
 */
export const SECRET_WINDOW_CHARS = 10;
/**
 * A secret shorter than SECRET_WINDOW_CHARS (in its compared form) but at least this long is found only whole. Shorter
 * still, it is a common word ("gate", "t"): found only when it is the whole text, as anything else would blank ordinary
 * text wherever the word stands.
 */
export const MIN_SECRET_WHOLE_CHARS = 8;
/** Rounds of decoding: percent-encoded twice inside a JSON-escaped text is three. */
const DECODE_ROUNDS = 3;

/** Characters a secret may have inserted and still be one: whitespace, controls and every default-ignorable character (zero-width, direction marks, variation selectors, tags…). */
const SKIPPED = /[\s\p{Cc}\p{Default_Ignorable_Code_Point}]/gu;
/** Printable ASCII without escapes: such a text is compared as it is, lower-cased, with no map of positions to keep. */
const PLAIN_ASCII = /^[\x21-\x24\x26-\x5b\x5d-\x7e]*$/;
/** ASCII without %, & or \: nothing decodes and nothing unfolds into more characters, so it can only be shorter once compared. */
// eslint-disable-next-line no-control-regex -- every ASCII character but %, & and \, controls included
const ASCII_WITHOUT_ESCAPES = /^[\x00-\x24\x27-\x5b\x5d-\x7f]*$/;

/**
 * Letters and digits of any script: what a secret is compared by. Anything else between them (punctuation such as `|` or
 * `-`, symbols such as U+2800, combining marks such as U+0332) is skipped, so a secret split or decorated by characters no
 * rule lists is still found.
 */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const ASCII_LETTER_OR_DIGIT = Array.from({ length: 0x80 }, (_, code) => LETTER_OR_DIGIT.test(String.fromCharCode(code)));
const isLetterOrDigit = (code: number): boolean =>
  code < 0x80 ? (ASCII_LETTER_OR_DIGIT[code] ?? false) : LETTER_OR_DIGIT.test(String.fromCharCode(code));
const MARK = /^\p{M}$/u;
const lettersAndDigits = (text: string): string => text.replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The look-alike map (Unicode's confusables, src/util/skeleton.ts) once loaded: a Cyrillic "а" is then compared as the
 * Latin "a". Loaded at the first text from outside (src/util/look-alikes.ts), as its data costs more memory than start-up may.
 */
let lookAlike: ((char: string) => string) | undefined;

/** From now on, letters that look alike are compared as one (see lookAlike: a character to the one it looks like). */
export function useLookAlikes(lookAlikeOf: (char: string) => string): void {
  lookAlike = lookAlikeOf;
}

/** The secrets a text must not carry: the access token and the webhook key; anything not a string (a key not set) is skipped. */
export type Secrets = readonly unknown[];

/** A text cleaned of secrets, and which of them it held (their places in the list given), so a caller can name them. */
export interface Redaction {
  text: string;
  found: number[];
}

/**
 * A text as compared: each character case-folded (NFKC, then upper and lower case, so "ß" meets "SS" and a fullwidth
 * letter its ASCII one) and without SKIPPED ones; `starts`/`ends` give, per UTF-16 unit, the span of the original text
 * it came from (absent: the same place, one unit each).
 */
interface View {
  text: string;
  starts?: number[];
  ends?: number[];
}

const startOf = (view: View, i: number): number => view.starts?.[i] ?? i;
const endOf = (view: View, i: number): number => view.ends?.[i] ?? i + 1;

/** `units` UTF-16 units that all came from the original's [start, end). */
function spanEach(units: number, start: number, end: number, starts: number[], ends: number[]): void {
  for (let unit = 0; unit < units; unit += 1) {
    starts.push(start);
    ends.push(end);
  }
}

// eslint-disable-next-line no-control-regex -- ASCII, controls included
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** One character (a code point) as compared; '' when it is skipped. */
function fold(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x80) {
    if (code <= 0x20 || code === 0x7f) return '';
    return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : char;
  }
  // Skipped after unfolding too: NFKC writes some characters as a space and a combining mark.
  // What Unicode says it is first (NFKC: a fullwidth "Ｉ" is "I", a long "ſ" is "s"), else what it looks like, as written
  // or unfolded, before its case is folded (a Greek capital Nu looks like "N", its small letter like "v").
  // A mark stays one (or goes, if default-ignorable: a variation selector): case folding would make some letters (U+0345
  // becomes a Greek iota).
  if (MARK.test(char)) return char.replace(SKIPPED, '');
  const unfolded = char.normalize('NFKC');
  const folded = unfolded.toUpperCase().toLowerCase().replace(SKIPPED, '');
  // Only a letter's or digit's look: a symbol that looks like letters ("∞" like "oo") stays a symbol.
  if (lookAlike === undefined || folded.length === 0 || ASCII_ONLY.test(folded) || !LETTER_OR_DIGIT.test(folded)) return folded;
  for (const alike of [lookAlike(char), Array.from(unfolded, lookAlike).join('')]) {
    const seen = alike.replace(SKIPPED, '');
    if (seen !== '' && ASCII_ONLY.test(seen)) return seen;
  }
  return folded;
}

/** A text (or a decoded view's text, with the spans it came from) as compared. */
function compared(text: string, starts?: number[], ends?: number[]): View {
  if (starts === undefined && PLAIN_ASCII.test(text)) return { text: text.toLowerCase() };
  let out = '';
  const outStarts: number[] = [];
  const outEnds: number[] = [];
  for (let i = 0; i < text.length;) {
    const code = text.codePointAt(i) ?? 0;
    const width = code > 0xffff ? 2 : 1;
    const folded = fold(text.slice(i, i + width));
    const start = starts?.[i] ?? i;
    const end = ends?.[i + width - 1] ?? i + width;
    spanEach(folded.length, start, end, outStarts, outEnds);
    out += folded;
    i += width;
  }
  return { text: out, starts: outStarts, ends: outEnds };
}

const hexAt = (text: string, at: number, digits: number): number | undefined => {
  const part = text.slice(at, at + digits);
  return part.length === digits && /^[0-9a-f]+$/i.test(part) ? parseInt(part, 16) : undefined;
};

const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** An HTML character reference at the start of a text: decimal, hexadecimal or one of XML's names (the semicolon may be left out). */
const HTML_ENTITY = /^&(?:#[0-9]{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos);?/i;
/** Longest HTML_ENTITY. */
const MAX_ENTITY_CHARS = 11;
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The character an HTML_ENTITY stands for ('' for a code point Unicode has not). */
function entityChar(entity: string): string {
  const body = entity.slice(1).replace(/;$/, '').toLowerCase();
  if (!body.startsWith('#')) return NAMED_ENTITIES[body] ?? '';
  const point = body.startsWith('#x') ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
  return point <= 0x10ffff ? String.fromCodePoint(point) : '';
}

/** Bytes of a run of %XX escapes as characters (UTF-8, a byte that is not as a Latin-1 one), each with the span of its escapes. */
function utf8Chars(bytes: number[]): { char: string; from: number; to: number }[] {
  const chars: { char: string; from: number; to: number }[] = [];
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i] ?? 0;
    const size = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead <= 0xdf ? 2 : 1;
    const tail = bytes.slice(i + 1, i + size);
    const point = tail.reduce((value, byte) => (value << 6) | (byte & 0x3f), lead & (0xff >> (size + 1)));
    // Past U+10FFFF is no character: its bytes are read one by one.
    if (size > 1 && tail.length === size - 1 && tail.every((byte) => byte >= 0x80 && byte <= 0xbf) && point <= 0x10ffff) {
      chars.push({ char: String.fromCodePoint(point), from: i, to: i + size - 1 });
      i += size;
    } else {
      chars.push({ char: String.fromCharCode(lead), from: i, to: i });
      i += 1;
    }
  }
  return chars;
}

/**
 * The view with one round of escapes decoded (percent-encoding as UTF-8, JSON's backslash escapes), each decoded
 * character spanning its escape in the original; undefined when it holds none.
 */
function decoded(view: View): View | undefined {
  const { text } = view;
  if (!text.includes('%') && !text.includes('\\') && !text.includes('&')) return undefined;
  let out = '';
  const starts: number[] = [];
  const ends: number[] = [];
  const push = (chars: string, from: number, to: number): void => {
    spanEach(chars.length, startOf(view, from), endOf(view, to), starts, ends);
    out += chars;
  };
  let changed = false;
  for (let i = 0; i < text.length;) {
    if (text[i] === '%' && hexAt(text, i + 1, 2) !== undefined) {
      const bytes: number[] = [];
      for (let j = i; text[j] === '%' && hexAt(text, j + 1, 2) !== undefined; j += 3) bytes.push(hexAt(text, j + 1, 2) ?? 0);
      for (const { char, from, to } of utf8Chars(bytes)) push(char, i + from * 3, i + to * 3 + 2);
      i += bytes.length * 3;
      changed = true;
    } else if (text[i] === '\\' && text[i + 1] === 'u' && hexAt(text, i + 2, 4) !== undefined) {
      push(String.fromCharCode(hexAt(text, i + 2, 4) ?? 0), i, i + 5);
      i += 6;
      changed = true;
    } else if (text[i] === '\\' && text[i + 1] === 'x' && hexAt(text, i + 2, 2) !== undefined) {
      // \xNN escapes are bytes, as %NN ones: UTF-8 where they are.
      const bytes: number[] = [];
      for (let j = i; text[j] === '\\' && text[j + 1] === 'x' && hexAt(text, j + 2, 2) !== undefined; j += 4)
        bytes.push(hexAt(text, j + 2, 2) ?? 0);
      for (const { char, from, to } of utf8Chars(bytes)) push(char, i + from * 4, i + to * 4 + 3);
      i += bytes.length * 4;
      changed = true;
    } else if (text[i] === '&' && HTML_ENTITY.test(text.slice(i, i + MAX_ENTITY_CHARS))) {
      const entity = HTML_ENTITY.exec(text.slice(i, i + MAX_ENTITY_CHARS))?.[0] ?? '&';
      push(entityChar(entity), i, i + entity.length - 1);
      i += entity.length;
      changed = true;
    } else if (text[i] === '\\' && JSON_ESCAPES[text[i + 1] ?? ''] !== undefined) {
      push(JSON_ESCAPES[text[i + 1] ?? ''] ?? '', i, i + 1);
      i += 2;
      changed = true;
    } else {
      push(text[i] ?? '', i, i);
      i += 1;
    }
  }
  if (!changed) return undefined;
  // Decoded characters are compared as any other: folded, and a decoded zero-width space is skipped.
  return compared(out, starts, ends);
}

/**
 * A secret ready to be looked for: its compared form and a suffix automaton of it, which reads a text once and knows at
 * each character the longest run ending there that is part of the secret (so every window is found in one pass).
 */
interface Prepared {
  index: number;
  text: string;
  /** Run length taken for the secret; undefined: only the whole text is. */
  need: number | undefined;
  /** Transitions, state × letter of the secret's alphabet; -1 for none. */
  next: Int32Array;
  link: Int32Array;
  length: Int32Array;
  letters: Map<number, number>;
  /** Compared by its letters and digits alone, anything else between them in a text skipped. */
  lettersOnly: boolean;
  /** runsOf's ring of places, one per secret (runsOf runs to its end before another starts): no allocation per text. */
  ring: Int32Array;
}

function prepare(secret: string, index: number, lettersOnly: boolean): Prepared | undefined {
  const text = lettersOnly ? lettersAndDigits(compared(secret).text) : compared(secret).text;
  if (text.length === 0) return undefined;
  const need = text.length >= SECRET_WINDOW_CHARS ? SECRET_WINDOW_CHARS : text.length >= MIN_SECRET_WHOLE_CHARS ? text.length : undefined;
  const letters = new Map<number, number>();
  for (let i = 0; i < text.length; i += 1) if (!letters.has(text.charCodeAt(i))) letters.set(text.charCodeAt(i), letters.size);
  const size = letters.size;
  const most = 2 * text.length + 1;
  const next = new Int32Array(most * size).fill(-1);
  const link = new Int32Array(most).fill(-1);
  const length = new Int32Array(most);
  let states = 1;
  let last = 0;
  for (let i = 0; i < text.length; i += 1) {
    const letter = letters.get(text.charCodeAt(i)) ?? 0;
    const current = states++;
    length[current] = (length[last] ?? 0) + 1;
    let p = last;
    while (p !== -1 && next[p * size + letter] === -1) {
      next[p * size + letter] = current;
      p = link[p] ?? -1;
    }
    if (p === -1) {
      link[current] = 0;
    } else {
      const q = next[p * size + letter] ?? 0;
      if ((length[p] ?? 0) + 1 === length[q]) {
        link[current] = q;
      } else {
        const clone = states++;
        length[clone] = (length[p] ?? 0) + 1;
        next.copyWithin(clone * size, q * size, q * size + size);
        link[clone] = link[q] ?? 0;
        while (p !== -1 && next[p * size + letter] === q) {
          next[p * size + letter] = clone;
          p = link[p] ?? -1;
        }
        link[q] = clone;
        link[current] = clone;
      }
    }
    last = current;
  }
  return { index, text, need, next, link, length, letters, lettersOnly, ring: new Int32Array(text.length + 1) };
}

/** Spans [from, to) of the view's text that are a run of the secret at least `need` long. */
function runsOf(secret: Prepared, view: View, need: number): [number, number][] {
  const { text } = view;
  const size = secret.letters.size;
  const runs: [number, number][] = [];
  let state = 0;
  let length = 0;
  // Where the last letters and digits read stand (a ring as long as the secret, the longest run): a run's start, as the
  // characters between are skipped.
  const at = secret.ring;
  let read = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (secret.lettersOnly && !isLetterOrDigit(code)) continue;
    at[read % at.length] = i;
    read += 1;
    const letter = secret.letters.get(code);
    if (letter === undefined) {
      state = 0;
      length = 0;
      continue;
    }
    while (state !== 0 && secret.next[state * size + letter] === -1) {
      state = secret.link[state] ?? 0;
      length = secret.length[state] ?? 0;
    }
    const to = secret.next[state * size + letter] ?? -1;
    if (to === -1) {
      length = 0;
      continue;
    }
    state = to;
    length += 1;
    if (length >= need) {
      const from = at[(read - length) % at.length] ?? 0;
      const previous = runs[runs.length - 1];
      // A run's start never moves back as it grows: a run that reaches the last one extends it.
      if (previous !== undefined && from <= previous[1]) previous[1] = i + 1;
      else runs.push([from, i + 1]);
    }
  }
  return runs;
}

interface PreparedList {
  list: Prepared[];
  /** The fewest compared characters any of them can be found in. */
  shortest: number;
}

/** Each list of secrets is prepared once (the client, the listener and the bug log keep theirs for their lifetime). */
const preparedLists = new WeakMap<Secrets, PreparedList>();

function prepared(secrets: Secrets): PreparedList {
  const known = preparedLists.get(secrets);
  if (known !== undefined) return known;
  // Each secret as it is written, and (when it holds other characters) by its letters and digits alone.
  const list = secrets.flatMap((secret, index) => {
    if (typeof secret !== 'string') return [];
    const letters = prepare(secret, index, true);
    const whole = prepare(secret, index, false);
    return (whole?.text === letters?.text ? [letters] : [whole, letters]).filter((ready) => ready !== undefined);
  });
  const ready = { list, shortest: Math.min(...list.map((secret) => secret.need ?? secret.text.length)) };
  preparedLists.set(secrets, ready);
  return ready;
}

/** The views of a text a secret is looked for in: as written, then decoded once, twice and three times. */
function viewsOf(text: string): View[] {
  const views = [compared(text)];
  for (let round = 0; round < DECODE_ROUNDS; round += 1) {
    const next = decoded(views[views.length - 1] ?? { text: '' });
    if (next === undefined) break;
    views.push(next);
  }
  return views;
}

/** Whitespace and controls of ASCII, skipped as SKIPPED skips them. */
// eslint-disable-next-line no-control-regex -- the ASCII controls and the space
const ASCII_SKIPPED = /[\x00-\x20\x7f]+/g;

/** The view read backwards: a secret echoed reversed is found as written. Spans still point into the original. */
function reversedView(view: View): View {
  const units = view.text.length;
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = units - 1; i >= 0; i -= 1) {
    text += view.text[i] ?? '';
    starts.push(startOf(view, i));
    ends.push(endOf(view, i));
  }
  return { text, starts, ends };
}

/** Each run of a secret in a view, as a span of the original text, with which secret it is. */
function hitsIn(view: View, list: readonly Prepared[], hit: (from: number, to: number, index: number) => void): void {
  for (const secret of list) {
    if (secret.need === undefined) {
      if ((secret.lettersOnly ? lettersAndDigits(view.text) : view.text) === secret.text) hit(0, Infinity, secret.index);
      continue;
    }
    for (const [from, to] of runsOf(secret, view, secret.need)) {
      // Marks written on its last letter (U+0332 under it, however escaped) go with it.
      let last = to - 1;
      while (MARK.test(view.text[last + 1] ?? '')) last += 1;
      // Read backwards, a run's first character is its last in the original: the span is the wider of the two.
      hit(Math.min(startOf(view, from), startOf(view, last)), Math.max(endOf(view, from), endOf(view, last)), secret.index);
    }
  }
}

/** Runs of base64 (standard or URL-safe) and hexadecimal digits long enough to spell a SECRET_WINDOW_CHARS run of a secret. */
const BASE64_RUN = /[A-Za-z0-9+/_-]{14,}={0,2}/g;
const HEX_RUN = /(?:[0-9A-Fa-f]{2}){10,}/g;
/** An id as the contract writes them (a UUID): no encoding of a secret, and the commonest run of a sync. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUES = new Map(
  Array.from(BASE64_DIGITS, (char, value) => [char, value] as const).concat([
    ['-', 62],
    ['_', 63],
  ]),
);

/**
 * Whether a run of base64 digits may be base64 at all: not a UUID, and not a word or an identifier of one case
 * ("door_state_change"): base64 of 10 characters of text mixes letters with digits, or capitals
 * with small letters. Not always capitals: text of two-byte characters encodes to small letters and digits alone (a secret
 * with a Hebrew mark after each character, reversed: "1qg31qg1…", found by test/stress/secret-shapes.test.ts). Nor
 * in any order: capital hex, reversed, encodes to capitals with two small letters near its start ("OUVDODcxOTBCOA==",
 * found there too), so an identifier in camel case is decoded as well; its bytes match no secret.
 */
const mayBeBase64 = (run: string): boolean =>
  !UUID.test(run) && ((/[0-9]/.test(run) && /[A-Za-z]/.test(run)) || (/[a-z]/.test(run) && /[A-Z]/.test(run)));

/** Bytes of base64 digits read from `skip` on (a run may start mid-quantum: each start is tried). */
function base64Bytes(run: string, skip: number): number[] {
  const bytes: number[] = [];
  let bits = 0;
  let held = 0;
  for (let i = skip; i < run.length; i += 1) {
    const value = BASE64_VALUES.get(run[i] ?? '');
    if (value === undefined) break;
    held = (held << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((held >> bits) & 0xff);
      held &= (1 << bits) - 1;
    }
  }
  return bytes;
}

const hexBytes = (run: string, skip: number): number[] =>
  Array.from({ length: Math.floor((run.length - skip) / 2) }, (_, i) => parseInt(run.slice(skip + 2 * i, skip + 2 * i + 2), 16));

/** Texts that runs of the text decode to as base64 or hex, each with the span of its run: where a secret may be encoded whole. */
function encodedRuns(text: string): { from: number; to: number; decoded: string }[] {
  const runs: { from: number; to: number; decoded: string }[] = [];
  const add = (from: number, run: string, bytes: number[]): void => {
    runs.push({
      from,
      to: from + run.length,
      decoded: utf8Chars(bytes)
        .map(({ char }) => char)
        .join(''),
    });
  };
  for (const match of text.matchAll(BASE64_RUN)) {
    if (!mayBeBase64(match[0])) continue;
    for (let skip = 0; skip < 4; skip += 1) add(match.index, match[0], base64Bytes(match[0], skip));
  }
  for (const match of text.matchAll(HEX_RUN)) for (let skip = 0; skip < 2; skip += 1) add(match.index, match[0], hexBytes(match[0], skip));
  return runs;
}

/** Whether a run of the text may be base64 or hex (UUIDs aside): the common text has none, and skips decoding them. */
function hasEncodedRun(text: string): boolean {
  for (const match of text.matchAll(BASE64_RUN)) if (mayBeBase64(match[0])) return true;
  for (const _ of text.matchAll(HEX_RUN)) return true;
  return false;
}

/** Every place a secret stands in `text`, in every view (as written, decoded, reversed, and inside base64 or hex runs). */
function secretSpans(text: string, list: readonly Prepared[], hit: (from: number, to: number, index: number) => void, depth = 0): void {
  for (const view of viewsOf(text)) {
    hitsIn(view, list, hit);
    hitsIn(reversedView(view), list, hit);
  }
  // Decoded once more at most: base64 of hex of a secret is found, deeper nests are left to the shape rule (dense-runs.ts).
  if (depth > 1) return;
  for (const { from, to, decoded } of encodedRuns(text)) {
    secretSpans(decoded, list, (_from, _to, index) => hit(from, to, index), depth + 1);
  }
}

/**
 * Whether `text` surely holds no secret, told cheaply for the common text (ids, dates, names: ASCII without escapes,
 * which nothing decodes or unfolds): compared without a map of positions, which only a find needs (hot paths such as
 * every string of a sync pay this, not the views). False: look with the views.
 */
function plainMiss(text: string, list: readonly Prepared[], shortest: number): boolean {
  // Nothing in plain ASCII without escapes gets longer once compared: shorter than every secret's run, it holds none.
  if (!ASCII_WITHOUT_ESCAPES.test(text)) return false;
  if (text.length < shortest) return true;
  const view = { text: text.toLowerCase().replace(ASCII_SKIPPED, '') };
  const hits = { count: 0 };
  const hit = (): void => void (hits.count += 1);
  hitsIn(view, list, hit);
  // Backwards without a map of positions: only whether, not where.
  if (hits.count === 0) hitsIn({ text: Array.from(view.text).reverse().join('') }, list, hit);
  return hits.count === 0 && !hasEncodedRun(text);
}

const TRAILING_MARKS = /[\p{M}\p{Default_Ignorable_Code_Point}]*/uy;

/**
 * A span that begins or ends inside a word of the text, but crosses whitespace within SECRET_WINDOW_CHARS of that end:
 * the word's letters only happened to continue the secret ("Gate 000…" where the key holds "e000…"), so the span starts
 * (or ends) at the whitespace and the word stays whole.
 */
function withinWords(text: string, from: number, to: number): [number, number] {
  const inWord = (at: number): boolean => at >= 0 && at < text.length && isLetterOrDigit(text.charCodeAt(at));
  let start = from;
  let end = to;
  if (inWord(from - 1)) {
    // Only a word's own letters: an escape or a symbol there may be the secret's.
    // The whitespace and the punctuation after it too ("Gate — …"), but an escape's start.
    const head = /^[\p{L}\p{N}]+\s(?:(?![%\\&])[\s\p{P}\p{S}])*/u.exec(text.slice(from, Math.min(to, from + SECRET_WINDOW_CHARS)));
    if (head !== null) start = from + head[0].length;
  }
  if (inWord(to)) {
    const tail = /\s+[\p{L}\p{N}]+$/u.exec(text.slice(Math.max(start, to - SECRET_WINDOW_CHARS), to));
    if (tail !== null) end = to - tail[0].length;
  }
  return [start, end];
}

/**
 * `text` with every secret in it written as [redacted], and which it held. A secret is found in any case, percent-encoded
 * up to three times, JSON-, \x- or HTML-escaped, reversed, in base64, base64url or hex (and these nested once), with
 * anything that is not a letter or digit inserted (whitespace, punctuation, symbols, combining marks, default-ignorable
 * characters), in look-alike letters of other scripts once they are loaded (useLookAlikes), and by any SECRET_WINDOW_CHARS
 * consecutive letters and digits of it; one shorter than that is found whole, and one shorter than MIN_SECRET_WHOLE_CHARS
 * only as the whole text. What stood for it (its escapes and inserted characters included) goes.
 */
export function redact(text: string, secrets: Secrets): Redaction {
  const { list, shortest } = prepared(secrets);
  if (list.length === 0 || text.length === 0 || plainMiss(text, list, shortest)) return { text, found: [] };
  const spans: [number, number][] = [];
  const found = new Set<number>();
  secretSpans(text, list, (from, to, index) => {
    // Marks written on the secret's last letter (U+0332 under it) go with it.
    const end = Math.min(to, text.length);
    TRAILING_MARKS.lastIndex = end;
    spans.push(withinWords(text, from, end + (TRAILING_MARKS.exec(text)?.[0].length ?? 0)));
    found.add(index);
  });
  if (spans.length === 0) return { text, found: [] };
  spans.sort((a, b) => a[0] - b[0]);
  let clean = '';
  let at = 0;
  for (const [from, to] of spans) {
    if (to <= at) continue;
    if (from >= at) clean += `${text.slice(at, from)}${REDACTED}`;
    at = to;
  }
  return { text: clean + text.slice(at), found: [...found].sort((a, b) => a - b) };
}

/** `text` with every secret in it written as [redacted] (see redact). */
export function withoutSecrets(text: string, secrets: Secrets): string {
  return redact(text, secrets).text;
}

/**
 * A parsed JSON answer or body with every string in it, keys too, run through redact, in place: where the service's text
 * enters. Walked with a list, not by recursion (nor by JSON.parse's reviver, which recurses), so an answer nested
 * thousands deep cannot overflow the stack. `found`: which secrets it held.
 */
export function redactParsed<T>(parsed: T, secrets: Secrets): { value: T; found: number[] } {
  const found = new Set<number>();
  const clean = (text: string): string => {
    const result = redact(text, secrets);
    for (const index of result.found) found.add(index);
    return result.text;
  };
  if (typeof parsed === 'string') return { value: clean(parsed) as T, found: [...found] };
  // The same few keys come back in every door of a sync: each is looked at once.
  const keys = new Map<string, string>();
  const cleanKeyOf = (key: string): string => {
    let known = keys.get(key);
    if (known === undefined) keys.set(key, (known = clean(key)));
    return known;
  };
  const pending: object[] = typeof parsed === 'object' && parsed !== null ? [parsed] : [];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const fields = node as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const value = fields[key];
      const cleanKey = Array.isArray(fields) ? key : cleanKeyOf(key);
      if (typeof value === 'object' && value !== null) {
        pending.push(value);
      }
      const cleanValue = typeof value === 'string' ? clean(value) : value;
      if (cleanKey !== key) delete fields[key];
      // Defined, not assigned: a key "__proto__" that JSON.parse made an own field would otherwise keep its text.
      if (cleanKey !== key || cleanValue !== value) {
        Object.defineProperty(fields, cleanKey, { value: cleanValue, writable: true, enumerable: true, configurable: true });
      }
    }
  }
  return { value: parsed, found: [...found].sort((a, b) => a - b) };
}

/** A parsed answer or body with every string in it cleaned in place (see redactParsed). */
export function withoutSecretsIn<T>(parsed: T, secrets: Secrets): T {
  return redactParsed(parsed, secrets).value;
}

/** The secrets found, named for a sentence: "the access token", "the access token and the webhook key". */
export function namesOf(found: readonly number[], names: (index: number) => string): string {
  const said = [...new Set(found.map(names))];
  return said.length <= 1 ? (said[0] ?? '') : `${said.slice(0, -1).join(', ')} and ${said[said.length - 1] ?? ''}`;
}

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

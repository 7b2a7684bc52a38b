// The access token and the webhook key found in any text from outside, in any spelling they can be echoed in, and written
// as [redacted]: the one redaction every door where outside text enters uses. Plain functions: the settings page bundles it.
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
/** ASCII without % or \: nothing decodes and nothing unfolds into more characters, so it can only be shorter once compared. */
// eslint-disable-next-line no-control-regex -- every ASCII character but % and \, controls included
const ASCII_WITHOUT_ESCAPES = /^[\x00-\x24\x26-\x5b\x5d-\x7f]*$/;

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

/** One character (a code point) as compared; '' when it is skipped. */
function fold(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x80) {
    if (code <= 0x20 || code === 0x7f) return '';
    return code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : char;
  }
  // Skipped after unfolding too: NFKC writes some characters as a space and a combining mark.
  return char.normalize('NFKC').toUpperCase().toLowerCase().replace(SKIPPED, '');
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

/** Bytes of a run of %XX escapes as characters (UTF-8, a byte that is not as a Latin-1 one), each with the span of its escapes. */
function utf8Chars(bytes: number[]): { char: string; from: number; to: number }[] {
  const chars: { char: string; from: number; to: number }[] = [];
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i] ?? 0;
    const size = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead <= 0xdf ? 2 : 1;
    const tail = bytes.slice(i + 1, i + size);
    if (size > 1 && tail.length === size - 1 && tail.every((byte) => byte >= 0x80 && byte <= 0xbf)) {
      const point = tail.reduce((value, byte) => (value << 6) | (byte & 0x3f), lead & (0xff >> (size + 1)));
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
  if (!text.includes('%') && !text.includes('\\')) return undefined;
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
}

function prepare(secret: string, index: number): Prepared | undefined {
  const { text } = compared(secret);
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
  return { index, text, need, next, link, length, letters };
}

/** Spans [from, to) of the view's text that are a run of the secret at least `need` long. */
function runsOf(secret: Prepared, view: View, need: number): [number, number][] {
  const { text } = view;
  const size = secret.letters.size;
  const runs: [number, number][] = [];
  let state = 0;
  let length = 0;
  for (let i = 0; i < text.length; i += 1) {
    const letter = secret.letters.get(text.charCodeAt(i));
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
      const from = i - length + 1;
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
  const list = secrets.flatMap((secret, index) => {
    const ready = typeof secret === 'string' ? prepare(secret, index) : undefined;
    return ready === undefined ? [] : [ready];
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
  return list.every((secret) => (secret.need === undefined ? view.text !== secret.text : runsOf(secret, view, secret.need).length === 0));
}

/**
 * `text` with every secret in it written as [redacted], and which it held. A secret is found in any case, percent-encoded
 * once or twice, JSON-escaped, with whitespace, controls or default-ignorable characters inserted, and by any
 * SECRET_WINDOW_CHARS consecutive characters of it; one shorter than that is found whole, and one shorter than
 * MIN_SECRET_WHOLE_CHARS only as the whole text. What stood for it (its escapes and inserted characters included) goes.
 */
export function redact(text: string, secrets: Secrets): Redaction {
  const { list, shortest } = prepared(secrets);
  if (list.length === 0 || text.length === 0 || plainMiss(text, list, shortest)) return { text, found: [] };
  const spans: [number, number][] = [];
  const found = new Set<number>();
  for (const view of viewsOf(text)) {
    for (const secret of list) {
      if (secret.need === undefined) {
        if (view.text === secret.text) {
          spans.push([0, text.length]);
          found.add(secret.index);
        }
        continue;
      }
      for (const [from, to] of runsOf(secret, view, secret.need)) {
        spans.push([startOf(view, from), endOf(view, to - 1)]);
        found.add(secret.index);
      }
    }
  }
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

// What a reader could recover of a secret from a text (a log, a page, an error), written apart from src/util/redact.ts so
// the tests do not judge the redaction by itself; and the spellings a hostile or careless service echoes a secret in.
import type { AccessControlSimulator } from '../../dev/simulator/server.js';

/** Runs of a secret this long are what a leak is made of (src/util/redact.ts: SECRET_WINDOW_CHARS). */
const LEAK_CHARS = 10;
/** Whitespace, controls and default-ignorable characters: a reader skips them. */
const INSERTED = /[\s\p{Cc}\p{Default_Ignorable_Code_Point}]/gu;

const comparable = (text: string): string => text.replace(INSERTED, '').normalize('NFKC').toUpperCase().toLowerCase();

/** Percent-escapes (as UTF-8 where they are, else byte by byte) and JSON's backslash escapes undone once. */
function decodeOnce(text: string): string {
  return text
    .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\(["\\/bfnrt])/g, (_, char: string) => ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' })[char] ?? char)
    .replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      }
    });
}

/**
 * Each LEAK_CHARS-long run of `secret` (the whole secret if shorter) that `text` holds, once case, whitespace,
 * default-ignorable characters and up to three rounds of percent and JSON escapes are undone: [] when none.
 */
export function secretLeaks(text: string, secret: string): string[] {
  const wanted = comparable(secret);
  const size = Math.min(LEAK_CHARS, wanted.length);
  const runs = new Set(Array.from({ length: wanted.length - size + 1 }, (_, at) => wanted.slice(at, at + size)));
  const forms = [text];
  for (let round = 0; round < 3; round += 1) forms.push(decodeOnce(comparable(forms[forms.length - 1] ?? '')));
  return [...runs].filter((run) => forms.some((form) => comparable(form).includes(run)));
}

/** Every UTF-16 unit of `text` as a JSON escape (\\uXXXX), as a JSON writer that escapes everything writes it. */
export function jsonEscaped(text: string): string {
  return Array.from({ length: text.length }, (_, i) => `\\u${text.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
}

/** Characters between two inserted ones: fewer than a leak is made of, so only the redaction's skipping finds the secret. */
const PIECE_CHARS = 6;

/** `text` cut into pieces of PIECE_CHARS, joined by `between` (a function: it may alternate). */
const pieces = (text: string, between: (index: number) => string): string =>
  (text.match(new RegExp(`.{1,${PIECE_CHARS}}`, 'gsu')) ?? [])
    .map((piece, index) => (index === 0 ? piece : `${between(index)}${piece}`))
    .join('');

/**
 * A secret echoed as the reports saw it: percent-encoded, split by spaces, with zero-width spaces inside, and
 * these together; each insertion every PIECE_CHARS characters, so no run of the secret long enough to be found is left.
 */
export function echoedSpellings(secret: string): Record<string, string> {
  return {
    'as written': secret,
    'upper case': secret.toUpperCase(),
    'percent-encoded': encodeURIComponent(secret),
    'percent-encoded twice': encodeURIComponent(encodeURIComponent(secret)),
    'split by spaces': pieces(secret, () => ' '),
    'with zero-width spaces': pieces(secret, () => '\u200b'),
    'percent-encoded, split and with zero-width spaces': encodeURIComponent(pieces(secret, (index) => (index % 2 === 0 ? ' ' : '\u200b'))),
    'JSON-escaped': jsonEscaped(secret),
  };
}

/** The service echoing `echoed` in a door's name (`<name> <echoed>`), and in a history entry of it: its channel and person. */
export function echoInAccount(sim: AccessControlSimulator, doorId: string, name: string, echoed: string): void {
  sim.renameDoor(doorId, `${name} ${echoed}`);
  sim.addHistoryEvent({
    doorId,
    doorState: 'OPEN',
    at: new Date(),
    channel: `App ${echoed}`,
    user: { id: 'u-echo', firstName: echoed, lastName: 'Doe', emailAddress: 'doe@example.com' },
  });
}

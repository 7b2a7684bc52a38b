// The one redaction of the access token and the webhook key: found in any case, percent-encoded once or twice, JSON-escaped,
// with whitespace or any default-ignorable character inserted, and by any 10 consecutive characters; short secrets only whole.
import { describe, expect, it } from 'vitest';

import {
  MIN_SECRET_WHOLE_CHARS,
  redact,
  redactParsed,
  SECRET_WINDOW_CHARS,
  withoutSecrets,
  withoutSecretsIn,
} from '../../../src/util/redact.js';
import { lookAlikesLoaded } from '../../../src/util/look-alikes.js';
import type { Redaction } from '../../../src/util/redact.js';
import { jsonEscaped } from '../../support/secret-leaks.js';

/** A token with characters URLs escape. */
const TOKEN = 'tok.en+9f3(a)/Zq=%&?#';
/** A webhook key as the service issues them: 96 random hexadecimal characters. */
const KEY = '9fe0b44f0155e6fb7969120dd68e86a4a38ce7f14a6bdb6cf1136983483fc1fd751effdd53395bddff8af030e3b86a02';
const SECRETS = [TOKEN, KEY];

/** Every `every` characters, `insert` put in. */
const split = (text: string, insert: string, every = 3): string => (text.match(new RegExp(`.{1,${every}}`, 'gsu')) ?? []).join(insert);

/** Every code point Unicode gives the Default_Ignorable_Code_Point property, from the property itself. */
const DEFAULT_IGNORABLES = Array.from({ length: 0x110000 }, (_, code) => code)
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCodePoint(code))
  .filter((char) => /\p{Default_Ignorable_Code_Point}/u.test(char));

describe('redact: the spellings a secret is found in', () => {
  it('as written, in any case, wherever it stands', () => {
    expect(withoutSecrets(`Malformed Request for Bearer ${TOKEN} (400)`, SECRETS)).toBe('Malformed Request for Bearer [redacted] (400)');
    expect(withoutSecrets(`${KEY.toUpperCase()}/${KEY}-${TOKEN}`, SECRETS)).toBe('[redacted]/[redacted]-[redacted]');
  });

  it('percent-encoded once or twice, JSON-escaped, or both', () => {
    const once = encodeURIComponent(TOKEN);
    expect(once).toMatch(/%2B.*%2F.*%3D%25%26%3F%23/);
    for (const spelling of [
      once,
      encodeURIComponent(once),
      jsonEscaped(TOKEN),
      encodeURIComponent(jsonEscaped(TOKEN)),
      once.toLowerCase(),
    ]) {
      expect(redact(`Bearer ${spelling} (400)`, SECRETS)).toEqual({ text: 'Bearer [redacted] (400)', found: [0] });
    }
    // Every character escaped, as some encoders do.
    const everyByte = Array.from(Buffer.from(TOKEN), (byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
    expect(withoutSecrets(`x ${everyByte} y`, SECRETS)).toBe('x [redacted] y');
  });

  it('with whitespace or a control character inserted, raw or escaped', () => {
    for (const insert of [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u3000', '\u0000', '\\n', '%20', '%0A', '%2520']) {
      expect({ insert, said: withoutSecrets(`Bearer ${split(TOKEN, insert)} (400)`, SECRETS) }).toEqual({
        insert,
        said: 'Bearer [redacted] (400)',
      });
    }
  });

  it('with any default-ignorable character inserted: every one Unicode lists, not a hand-picked few', () => {
    // Zero-width space and joiners, soft hyphen, word joiner, direction marks, variation selectors, tags, the Hangul filler…
    expect(DEFAULT_IGNORABLES.length).toBeGreaterThan(4000);
    for (const char of ['\u200b', '\u00ad', '\u2060', '\u202e', '\ufe0f', '\u{e0041}', '\u3164', '\u034f']) {
      expect(DEFAULT_IGNORABLES).toContain(char);
    }
    const missed = DEFAULT_IGNORABLES.filter((char) => withoutSecrets(`Bearer ${split(KEY, char, 7)}`, SECRETS) !== 'Bearer [redacted]');
    expect(missed.map((char) => (char.codePointAt(0) ?? 0).toString(16))).toEqual([]);
    // Percent-encoded too: a zero-width space as %E2%80%8B, inside a token itself encoded.
    expect(withoutSecrets(`Bearer ${encodeURIComponent(split(TOKEN, '\u200b'))}`, SECRETS)).toBe('Bearer [redacted]');
  });

  it('in compatibility forms and by full case folding: fullwidth letters, a long s written as SS', () => {
    const fullwidth = Array.from(KEY, (char) => String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0)).join('');
    expect(withoutSecrets(`key ${fullwidth}`, SECRETS)).toBe('key [redacted]');
    expect(withoutSecrets('Bearer STRASSE-0123456789', ['straße-0123456789'])).toBe('Bearer [redacted]');
  });

  it(`by any ${SECRET_WINDOW_CHARS} consecutive characters, but not by ${SECRET_WINDOW_CHARS - 1}`, () => {
    for (let at = 0; at + SECRET_WINDOW_CHARS <= TOKEN.length; at += 1) {
      const part = TOKEN.slice(at, at + SECRET_WINDOW_CHARS);
      expect({ part, said: withoutSecrets(`<${part}>`, SECRETS) }).toEqual({ part, said: '<[redacted]>' });
    }
    expect(withoutSecrets(`<${TOKEN.slice(3, 3 + SECRET_WINDOW_CHARS - 1)}>`, SECRETS)).toBe(`<${TOKEN.slice(3, 12)}>`);
    // Two parts of one key in a text, each taken out on its own (x, y and z cannot continue a hexadecimal key).
    expect(withoutSecrets(`x ${KEY.slice(0, 12)} y ${KEY.slice(40, 60).toUpperCase()} z`, SECRETS)).toBe('x [redacted] y [redacted] z');
  });

  it('takes out what stood for the secret, its escapes and inserted characters included, and says which secrets it found', () => {
    expect(redact(`[${encodeURIComponent(split(TOKEN, '\u200b'))}]`, SECRETS)).toEqual({ text: '[[redacted]]', found: [0] });
    expect(redact(`${KEY} and ${TOKEN}`, [undefined, TOKEN, 42, KEY])).toEqual({ text: '[redacted] and [redacted]', found: [1, 3] });
  });
});

describe('redact: what it leaves alone', () => {
  it('reads a secret literally, not as a pattern, and skips secrets that are not set', () => {
    // Each run of it shorter than a window: '.' read as a pattern would match the X.
    expect(withoutSecrets('tokXen+9f3Xa)/ZqX%&?#', [TOKEN])).toBe('tokXen+9f3Xa)/ZqX%&?#');
    expect(withoutSecrets('Front Gate', [TOKEN, undefined, '', '   ', 42])).toBe('Front Gate');
  });

  it(`finds a secret of ${MIN_SECRET_WHOLE_CHARS} to ${SECRET_WINDOW_CHARS - 1} characters only whole, in any spelling`, () => {
    const secret = 'gate-2024';
    expect(withoutSecrets(`Bearer ${encodeURIComponent(split(secret, '\u200b'))}!`, [secret])).toBe('Bearer [redacted]!');
    expect(withoutSecrets('Gate-202 opened', [secret])).toBe('Gate-202 opened');
  });

  it(`finds a secret shorter than ${MIN_SECRET_WHOLE_CHARS} characters only when it is the whole text: inside, it is a common word`, () => {
    expect(withoutSecrets('gate', ['gate'])).toBe('[redacted]');
    expect(withoutSecrets(' G\u200bATE ', ['gate'])).toBe('[redacted]');
    expect(withoutSecrets('%67ate', ['gate'])).toBe('[redacted]');
    expect(withoutSecrets('Front gate', ['gate'])).toBe('Front gate');
    expect(withoutSecrets("can't open", ['t'])).toBe("can't open");
  });

  it('keeps the ids, dates, addresses and names of a sync as they are', () => {
    const ordinary = [
      '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c',
      '2024-05-01 12:34:56',
      'A1B2C3D4E5F6',
      'Front Gate',
      'Ünïcødé Gäte \u200b 🚪',
      '%E2%80%8B 100% sure \\ not an escape \\u12',
    ];
    for (const text of ordinary) expect(withoutSecrets(text, SECRETS)).toBe(text);
  });
});

describe('redactParsed and withoutSecretsIn, over a parsed answer', () => {
  it('cleans every string of objects and arrays, keys too (those named __proto__ included), and says what it found', () => {
    const parsed = JSON.parse(
      JSON.stringify({ message: `Bearer ${TOKEN}`, doors: [{ name: `Gate ${KEY}`, state: 1 }, [TOKEN, null, true]] }).replace(
        '"state"',
        `"__proto__":"${encodeURIComponent(TOKEN)}","${KEY.slice(0, 20)}":2,"state"`,
      ),
    ) as unknown;
    const { value, found } = redactParsed(parsed, SECRETS);
    expect(found).toEqual([0, 1]);
    expect(JSON.stringify(value)).not.toContain(KEY.slice(0, 10));
    expect(value).toEqual(
      JSON.parse(
        '{"message":"Bearer [redacted]","doors":[{"name":"Gate [redacted]","__proto__":"[redacted]","[redacted]":2,"state":1},["[redacted]",null,true]]}',
      ),
    );
    expect(withoutSecretsIn(TOKEN, [TOKEN])).toBe('[redacted]');
    expect(withoutSecretsIn(42, [TOKEN])).toBe(42);
    expect(redactParsed({ name: 'Front Gate' }, SECRETS).found).toEqual([]);
  });

  it('walks an answer nested 100,000 deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"${TOKEN.replace(/[%&?#]/g, '')}"${']'.repeat(100_000)}`) as unknown;
    let inner: unknown = withoutSecretsIn(deep, [TOKEN]);
    while (Array.isArray(inner)) inner = inner[0];
    expect(inner).toBe('[redacted]');
  });
});

describe('redact: spellings by what they decode or fold to (issue 52)', () => {
  /** A token of letters and digits, as the service issues them. */
  const PLAIN = 'Xq7pLm2Rt9Vb4Nc8Zd1Kf6Hs3Wy5Ej0';
  const said = (text: string): Redaction => redact(`Gate ${text} (400)`, [PLAIN]);
  const piece = PLAIN.slice(4, 4 + SECRET_WINDOW_CHARS);

  it('finds a 10-character piece in base64, base64url, hex, HTML entities, \\x escapes or reversed', () => {
    const spellings = {
      base64: Buffer.from(piece).toString('base64'),
      base64url: Buffer.from(`~${piece}`).toString('base64url'),
      hex: Buffer.from(piece).toString('hex'),
      'base64 of hex': Buffer.from(Buffer.from(piece).toString('hex')).toString('base64'),
      'decimal entities': Array.from(piece, (char) => `&#${char.charCodeAt(0)};`).join(''),
      'hex entities without semicolons': Array.from(piece, (char) => `&#x${char.charCodeAt(0).toString(16)}`).join(''),
      '\\x escapes': Array.from(piece, (char) => `\\x${char.charCodeAt(0).toString(16)}`).join(''),
      reversed: Array.from(piece).reverse().join(''),
    };
    for (const [name, spelled] of Object.entries(spellings)) {
      expect({ name, ...said(spelled) }).toEqual({ name, text: 'Gate [redacted] (400)', found: [0] });
    }
  });

  it('finds a piece in base64 without capitals: two-byte characters encode to small letters and digits alone', () => {
    // Found by test/stress/secret-shapes.test.ts (seed 1563658680): a mark after each character, reversed, in base64.
    const hexKey = '861a28df57ca4b730ff3282c9ed0adb05d5f1bbbcd4583e6898220002d6a5120992f54bf45b69cf8d98ca0080aadff26';
    const marked = Array.from(hexKey.slice(0, SECRET_WINDOW_CHARS), (char) => `${char}\u05a8`).join('');
    const spelled = Buffer.from(Array.from(marked).reverse().join('')).toString('base64');
    expect(spelled).toMatch(/^[a-z0-9]+$/);
    expect(redact(`Gate ${spelled} (400)`, [hexKey])).toEqual({ text: 'Gate [redacted] (400)', found: [0] });
  });

  it('finds a piece in base64 without digits whose small letters all come before its capitals', () => {
    // Found by test/stress/secret-shapes.test.ts (seed 140078412): the piece in capitals, reversed, in base64.
    const hexKey = '9f58ca6003a49e0c89dd162046d99da9bccd9f8296a654a2c5ce68b09178ce9719d5c7e950a5acc338cd3c4c1a8ed297';
    const piece = hexKey.slice(53, 53 + SECRET_WINDOW_CHARS).toUpperCase();
    const spelled = Buffer.from(Array.from(piece).reverse().join('')).toString('base64');
    expect(spelled).toBe('OUVDODcxOTBCOA==');
    expect(redact(`Gate ${spelled} (400)`, [hexKey])).toEqual({ text: 'Gate [redacted] (400)', found: [0] });
  });

  it('finds it with anything that is not a letter or digit between its letters, and marks on them', () => {
    for (const between of ['|', '-', '\u2800', '∞', '·', '🔑']) {
      expect(said(Array.from(piece).join(between))).toEqual({ text: 'Gate [redacted] (400)', found: [0] });
    }
    expect(said(`${piece.slice(0, 5)}-${piece.slice(5)}`).found).toEqual([0]);
    expect(said(Array.from(piece, (char) => `${char}\u0332`).join(''))).toEqual({ text: 'Gate [redacted] (400)', found: [0] });
  });

  it('finds it in look-alike letters of other scripts once they are loaded', async () => {
    const cyrillic = piece.replace(/p/g, 'р').replace(/L/g, 'Ꮮ').replace(/m/g, 'ｍ').replace(/R/g, 'Ʀ').replace(/t/g, 'т');
    await lookAlikesLoaded();
    expect(redact(`Gate ${cyrillic}`, [PLAIN])).toEqual({ text: 'Gate [redacted]', found: [0] });
  });

  it('finds a secret of symbols by all its characters with a variation selector inside, and leaves the word before it whole', () => {
    // U+E017B is a variation selector: a mark, and default-ignorable: skipped, not a break in the secret.
    expect(redact(`Ann — ${TOKEN.slice(2, 8)}\u{E017B}${TOKEN.slice(8, 14)}`, [TOKEN]).text).toBe('Ann — [redacted]');
    // The word's last letters only happen to continue the key ("…7e" then "8ee…"): the word stays whole.
    const at = KEY.indexOf('e') + 1;
    expect(redact(`Gate — ${KEY.slice(at, at + 12)}`, [KEY]).text).toBe('Gate — [redacted]');
  });

  it('leaves 9 characters of it, and ids and words around it, as they are', () => {
    const nine = PLAIN.slice(4, 4 + SECRET_WINDOW_CHARS - 1);
    for (const text of [
      Buffer.from(nine).toString('base64'),
      Array.from(nine).reverse().join('|'),
      '5d8e2f71-4b6a-4c39-9e10-7a3b5c9d1e02',
    ]) {
      expect(said(text).found).toEqual([]);
    }
  });
});

// Property test (issue 52): a secret in spellings the redaction was not written for. Whole, in chains of encodings drawn at
// random, it never reaches a log line or a HomeKit name (the shape rule, src/util/dense-runs.ts); a 10-character piece of
// it, under separators, marks and look-alike letters drawn from all of Unicode, is still found where text enters
// (src/util/redact.ts).
import { createHash } from 'node:crypto';

import fc from 'fast-check';
import confusables from 'unhomoglyph/data.json' with { type: 'json' };
import { beforeAll, describe, expect, it } from 'vitest';

import { homeKitName } from '../../src/util/homekit-name.js';
import { oneLine } from '../../src/util/log-text.js';
import { lookAlikesLoaded } from '../../src/util/look-alikes.js';
import { redact, SECRET_WINDOW_CHARS } from '../../src/util/redact.js';

const ALPHANUMERIC = Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
const HEX = Array.from('0123456789abcdef');
/** Most runs each property makes: every one is a handful of string functions. */
const RUNS = 400;

const BMP = Array.from({ length: 0x10000 }, (_, code) => code).filter((code) => code < 0xd800 || code > 0xdfff);
const charsWhere = (test: RegExp): string[] => BMP.map((code) => String.fromCharCode(code)).filter((char) => test.test(char));
/** Punctuation and symbols of all Unicode, but those that fold into a letter or digit (㉑ is "21"): what may join pieces. */
const SEPARATORS = charsWhere(/^[\p{P}\p{S}]$/u).filter((char) => !/[\p{L}\p{N}]/u.test(char.normalize('NFKC')));
/** Every non-spacing mark Unicode lists: what may be written on each letter (U+0332 is one of them). */
const MARKS = charsWhere(/^\p{Mn}$/u);
/**
 * Look-alike letters and digits of each ASCII letter and digit, from Unicode's confusables as the unhomoglyph package
 * carries them; but those Unicode itself calls another letter (NFKC: "ſ" looks like "f" and is an "s", a fullwidth "Ｉ"
 * looks like "l"), and symbols and marks that look like one ("᙮" like "x"): a symbol between letters is a separator.
 */
const LOOK_ALIKES = new Map<string, string[]>();
for (const [char, prototype] of Object.entries(confusables as Record<string, string>)) {
  const is = char.normalize('NFKC');
  const letter = /^[A-Za-z0-9]$/.test(prototype) && /^[^\p{ASCII}]$/u.test(char) && /^[\p{L}\p{N}]$/u.test(char);
  if (!letter || (/^\p{ASCII}+$/u.test(is) && is.toLowerCase() !== prototype.toLowerCase())) continue;
  LOOK_ALIKES.set(prototype, [...(LOOK_ALIKES.get(prototype) ?? []), char]);
}

/** A spelling: its name (said when the property fails) and what it does to a text. */
interface Spelling {
  name: string;
  spell: (text: string) => string;
}
const spelling = (name: string, spell: (text: string) => string): Spelling => ({ name, spell });
const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
const eachChar = (text: string, map: (char: string, index: number) => string): string => Array.from(text, map).join('');
const shifted = (char: string, by: number): string => {
  const base = /[a-z]/.test(char) ? 97 : /[A-Z]/.test(char) ? 65 : undefined;
  return base === undefined ? char : String.fromCharCode(((char.charCodeAt(0) - base + by) % 26) + base);
};

/** Spellings of letters the redaction folds or skips, each with its parameters drawn at random. */
const letterSpelling: fc.Arbitrary<Spelling> = fc.oneof(
  fc.constant(spelling('reversed', (text) => Array.from(text).reverse().join(''))),
  fc
    .tuple(fc.integer({ min: 1, max: 9 }), fc.constantFrom(...SEPARATORS))
    .map(([size, between]) =>
      spelling(`chunks of ${size} joined by U+${between.codePointAt(0)?.toString(16)}`, (text) =>
        (text.match(new RegExp(`.{1,${size}}`, 'gu')) ?? []).join(between),
      ),
    ),
  fc
    .constantFrom(...SEPARATORS)
    .map((between) => spelling(`U+${between.codePointAt(0)?.toString(16)} between letters`, (text) => Array.from(text).join(between))),
  fc
    .constantFrom(...MARKS)
    .map((mark) => spelling(`U+${mark.codePointAt(0)?.toString(16)} on each letter`, (text) => eachChar(text, (char) => `${char}${mark}`))),
  fc.integer({ min: 0, max: 1000 }).map((seed) =>
    spelling(`look-alike letters (seed ${seed})`, (text) =>
      eachChar(text, (char, index) => {
        const alikes = LOOK_ALIKES.get(char) ?? [];
        return alikes.length === 0 ? char : (alikes[(seed + index * 7) % alikes.length] ?? char);
      }),
    ),
  ),
  fc.constant(
    spelling('fullwidth', (text) =>
      eachChar(text, (char) => (/[!-~]/.test(char) ? String.fromCharCode(char.charCodeAt(0) + 0xfee0) : char)),
    ),
  ),
  fc.constant(
    spelling('swapped case', (text) =>
      eachChar(text, (char) => (/[a-z]/.test(char) ? char.toUpperCase() : /[A-Z]/.test(char) ? char.toLowerCase() : char)),
    ),
  ),
);

/** Encodings the redaction decodes. */
const encodingSpelling: fc.Arbitrary<Spelling> = fc.oneof(
  fc.constant(spelling('base64', (text) => utf8(text).toString('base64'))),
  fc.constant(spelling('base64url', (text) => utf8(text).toString('base64url'))),
  fc
    .boolean()
    .map((upper) =>
      spelling(`hex${upper ? ' (upper case)' : ''}`, (text) =>
        upper ? utf8(text).toString('hex').toUpperCase() : utf8(text).toString('hex'),
      ),
    ),
  fc
    .boolean()
    .map((decimal) =>
      spelling(`HTML entities (${decimal ? 'decimal' : 'hex'})`, (text) =>
        eachChar(text, (char) => `&#${decimal ? '' : 'x'}${(char.codePointAt(0) ?? 0).toString(decimal ? 10 : 16)};`),
      ),
    ),
  fc.constant(
    spelling('percent-encoded, every byte', (text) => Array.from(utf8(text), (byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')),
  ),
  fc.constant(
    spelling('\\x escapes, every byte', (text) => Array.from(utf8(text), (byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('')),
  ),
);
const knownSpelling = fc.oneof(letterSpelling, encodingSpelling);

/** Spellings no rule of the redaction knows: only the shape of what they make can give them away. */
const inventedSpelling: fc.Arbitrary<Spelling> = fc.oneof(
  fc.integer({ min: 1, max: 25 }).map((by) => spelling(`Caesar +${by}`, (text) => eachChar(text, (char) => shifted(char, by)))),
  fc.constant(
    spelling('Atbash', (text) =>
      eachChar(text, (char) => (/[a-z]/i.test(char) ? shifted(char, 25 - (((char.toLowerCase().charCodeAt(0) - 97) * 2) % 26)) : char)),
    ),
  ),
  fc.constant(spelling('binary', (text) => Array.from(utf8(text), (byte) => byte.toString(2).padStart(8, '0')).join(''))),
  fc.constant(spelling('octal bytes', (text) => Array.from(utf8(text), (byte) => byte.toString(8)).join('.'))),
  fc.constant(spelling('decimal code points joined by commas', (text) => Array.from(text, (char) => char.codePointAt(0)).join(','))),
  fc.constant(
    spelling('base32-ish (hex digits shifted into letters)', (text) =>
      eachChar(utf8(text).toString('hex'), (d) => String.fromCharCode(d.charCodeAt(0) + 17)),
    ),
  ),
  fc.constant(spelling('spelled out, one character a word', (text) => Array.from(text).join(' '))),
  fc.constant(spelling('Braille letters', (text) => eachChar(text, (char) => String.fromCharCode(0x2800 + (char.charCodeAt(0) % 64))))),
  fc.constant(
    spelling('Mathematical bold', (text) =>
      eachChar(text, (char) => (/[A-Z]/.test(char) ? String.fromCodePoint(0x1d400 + char.charCodeAt(0) - 65) : char)),
    ),
  ),
);

const chainOf = (spellings: Spelling[]): Spelling =>
  spelling(spellings.map((one) => one.name).join(', then '), (text) => spellings.reduce((spelled, one) => one.spell(spelled), text));

/**
 * A secret as the service issues them: an access token of 24 to 64 random letters and digits, or a webhook key of 96 random
 * hex digits (with a letter and a digit, as random ones have but once in millions).
 */
const secretArb = fc
  .tuple(fc.boolean(), fc.integer({ min: 24, max: 64 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }))
  .map(([token, length, seed]) => randomText(token ? ALPHANUMERIC : HEX, token ? length : 96, seed))
  .filter((secret) => /\d/.test(secret) && /[a-z]/i.test(secret));

/** `length` characters of `alphabet` drawn from a seed: random as a secret is, also once fast-check shrinks the seed. */
function randomText(alphabet: readonly string[], length: number, seed: number): string {
  const bytes = Buffer.concat([0, 1, 2].map((block) => createHash('sha256').update(`${seed}/${block}`).digest()));
  return Array.from({ length }, (_, at) => alphabet[(bytes[at] ?? 0) % alphabet.length] ?? '').join('');
}

/** Pieces of `text` this many code points long with at least this many letters or digits: what would still tell of a secret. */
const LEFT_CHARS = 8;
const LEFT_DENSE = 5;
function piecesOf(text: string): string[] {
  const chars = Array.from(text);
  return chars
    .map((_, at) => chars.slice(at, at + LEFT_CHARS).join(''))
    .filter((piece) => Array.from(piece).length === LEFT_CHARS && (piece.match(/[\p{L}\p{N}\p{So}]/gu) ?? []).length >= LEFT_DENSE);
}

beforeAll(async () => {
  await lookAlikesLoaded();
});

describe('a secret in spellings the redaction was not written for (issue 52)', () => {
  it('whole, in a chain of up to three spellings known or invented, reaches neither a log line nor a HomeKit name', () => {
    fc.assert(
      fc.property(secretArb, fc.array(fc.oneof(knownSpelling, inventedSpelling), { minLength: 1, maxLength: 3 }), (secret, chain) => {
        const { name, spell } = chainOf(chain);
        const spelled = spell(secret);
        const entered = redact(`Gate ${spelled} (400)`, [secret]).text;
        const logged = oneLine(entered, 1_000_000);
        const named = homeKitName(entered, 'Door');
        for (const piece of piecesOf(spelled)) {
          expect(logged, `${name}: ${spelled}`).not.toContain(piece);
          expect(named, `${name}: ${spelled}`).not.toContain(piece);
        }
        expect(logged, name).toMatch(/^Gate .*\(400\)$/u);
      }),
      { numRuns: RUNS },
    );
  });

  it(`by any ${SECRET_WINDOW_CHARS} characters, under separators, marks and look-alikes from all of Unicode, is found where text enters`, () => {
    const pieceArb = secretArb.chain((secret) =>
      fc.tuple(
        fc.constant(secret),
        fc.integer({ min: 0, max: secret.length - SECRET_WINDOW_CHARS }),
        fc.integer({ min: SECRET_WINDOW_CHARS, max: 16 }),
      ),
    );
    // Letters spelled one way or two, then encoded or not: an encoding split by separators is no encoding.
    const chains = fc
      .tuple(fc.array(letterSpelling, { maxLength: 2 }), fc.option(encodingSpelling, { nil: undefined }))
      .map(([letters, encoding]) => (encoding === undefined ? letters : [...letters, encoding]))
      .filter((chain) => chain.length > 0);
    fc.assert(
      fc.property(pieceArb, chains, ([secret, at, size], chain) => {
        const { name, spell } = chainOf(chain);
        const piece = secret.slice(at, at + size);
        const said = redact(`Gate ${spell(piece)} (400)`, ['unrelated-secret-that-is-never-there', secret]);
        expect(said.found, `${name}: ${spell(piece)}`).toEqual([1]);
      }),
      { numRuns: RUNS },
    );
  });

  it('leaves ordinary text as it is: sentences, names, up to three words joined by punctuation, dates, ids of the contract', () => {
    const words = fc.constantFrom(
      'Grace',
      'Hopper',
      'Front',
      'Gate',
      'opened',
      'by',
      'Tiefgaragenzufahrt',
      'Nordflügel',
      'Ворота',
      '車庫',
      'the',
      'a',
    );
    fc.assert(
      fc.property(
        fc.array(words, { minLength: 1, maxLength: 12 }),
        // Under 40 letters: past that, a run is elided however it reads (src/util/dense-runs.ts, MAX_WORDS_RUN_CHARS).
        fc.array(words, { minLength: 1, maxLength: 3 }).filter((joined) => joined.join('').length < 40),
        fc.constantFrom('_', '.', '-', '@', '/'),
        fc.uuid(),
        (sentence, joined, between, uuid) => {
          const text = `${sentence.join(' ')} ${joined.join(between)} ${uuid} 2026-11-28 01:41:54`;
          expect(oneLine(text, 1_000_000)).toBe(text);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

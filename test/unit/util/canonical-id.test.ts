// The canonical id (issue 42.1): Unicode's own definitions, never a hand list, so an id pasted with any invisible
// character, direction mark, compatibility form or trailing separator is the id it shows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { canonicalId } from '../../../src/util/canonical-id.js';

const A = '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c';

/** Every code point Unicode calls default-ignorable or a bidi control, drawn from the whole range. */
const IGNORABLES = Array.from({ length: 0x110000 }, (_, code) => code)
  .filter((code) => code < 0xd800 || code > 0xdfff)
  .map((code) => String.fromCodePoint(code))
  .filter((char) => /[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/u.test(char));

/** Fullwidth forms of ASCII letters, digits and the hyphen: what NFKC folds back. */
const fullwidth = (text: string): string =>
  Array.from(text, (char) => (/[!-~]/.test(char) ? String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0) : char)).join('');

/** The definition, whole: what canonicalId's fast path for ASCII must agree with. */
function byDefinition(text: string): string {
  const edges = /^[\p{White_Space}\p{Z}\p{P}\p{Cc}]+|[\p{White_Space}\p{Z}\p{P}\p{Cc}]+$/gu;
  return text
    .normalize('NFKC')
    .replace(/[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]/gu, '')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC')
    .replace(edges, '');
}

describe('canonicalId', () => {
  it('is the definition for any text, ASCII (its fast path) or not', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
        ),
        (text) => {
          expect(canonicalId(text)).toBe(byDefinition(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('drops case, surrounding white space, separators and invisible characters', () => {
    expect(canonicalId(` ${A.toUpperCase()}\u200b`)).toBe(A);
    expect(canonicalId(`\ufeff${A}\u00ad`)).toBe(A);
    expect(canonicalId(`\u00a0${A}\u2060\u200c\u200d`)).toBe(A);
    expect(canonicalId(`\u200e${A},`)).toBe(A);
    expect(canonicalId(`"${A}";`)).toBe(A);
    expect(canonicalId(`\u201c${A}\u201d`)).toBe(A);
    expect(canonicalId(`\u202e${A}\u202c`)).toBe(A);
    expect(canonicalId('Gate-1')).toBe('gate-1');
    expect(canonicalId(fullwidth(A.toUpperCase()))).toBe(A);
    expect(canonicalId('Stra\u00dfe')).toBe(canonicalId('STRASSE'));
  });

  it('keeps the characters inside an id that mean something', () => {
    expect(canonicalId('a-b_c.d:e')).toBe('a-b_c.d:e');
    // A look-alike letter is another letter: the "could mean" check (src/config/could-mean.ts) finds it, not this.
    expect(canonicalId('\u0430bc')).not.toBe('abc');
  });

  it('knows every default-ignorable code point and bidi control, not a list of a few', () => {
    // The Hangul filler, a variation selector, a tag character, the combining grapheme joiner, the Arabic letter mark.
    for (const char of ['\u3164', '\ufe0f', '\u{e0041}', '\u034f', '\u061c', '\u2066', '\u180e']) {
      expect(IGNORABLES).toContain(char);
    }
    expect(IGNORABLES.length).toBeGreaterThan(4000);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...IGNORABLES), { maxLength: 6 }),
        fc.array(fc.nat(A.length), { minLength: 6, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        (inserted, at, upper, wide) => {
          const chars = Array.from(A);
          inserted.forEach((char, i) => chars.splice(at[i] ?? 0, 0, char));
          let written = chars.join('');
          if (upper) written = written.toUpperCase();
          if (wide) written = fullwidth(written);
          expect(canonicalId(written)).toBe(A);
        },
      ),
      { numRuns: 500 },
    );
  });
});

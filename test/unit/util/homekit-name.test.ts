// Names and versions made acceptable to HomeKit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { fallbackDoorName } from '../../../src/client/fallback-name.js';
import { EXTRAS } from '../../../src/door/extras/index.js';
import { extraName, homeKitName, homeKitVersion, MAX_EXTRA_SUFFIX_LENGTH } from '../../../src/util/homekit-name.js';

/** HAP-NodeJS cuts a longer string value to 64 UTF-16 units, warning with the whole value in the log. */
const HAP_MAX = 64;
const SUFFIXES = Object.values(EXTRAS).map((extra) => extra.suffix);
const LONGEST_SUFFIX = Math.max(...SUFFIXES.map((suffix) => suffix.length));

const hasLoneSurrogate = (text: string) => /\p{Cs}/u.test(text);

describe('homeKitName', () => {
  it('keeps ordinary names and removes what HomeKit refuses', () => {
    expect(homeKitName('Front Gate', 'x')).toBe('Front Gate');
    expect(homeKitName('  #1 Gate (north)! ', 'x')).toBe('1 Gate north');
    expect(homeKitName("Ada's Garage", 'x')).toBe("Ada's Garage");
    // The Home app refuses a name that ends in an apostrophe.
    expect(homeKitName("The Jones' ", 'x')).toBe('The Jones');
    expect(homeKitName('🚪🚪', 'Door 1234')).toBe('Door 1234');
  });

  it('keeps accents typed in decomposed form, composed, and the marks of scripts that have no composed form', () => {
    expect(homeKitName('Re\u0301sume\u0301 Gate', 'x')).toBe('R\u00e9sum\u00e9 Gate');
    // Devanagari vowel signs are marks that NFC leaves as they are.
    expect(homeKitName('गैराज', 'x')).toBe('गैराज');
    // A mark with nothing to sit on goes: at the start, or after a symbol that went.
    expect(homeKitName('\u0301Gate', 'x')).toBe('Gate');
    expect(homeKitName('Gate #\u0301', 'x')).toBe('Gate');
    // An emoji's variation selector is a mark too, and goes with the emoji.
    expect(homeKitName('Gate \u2764\ufe0f', 'x')).toBe('Gate');
  });

  it('cuts a long name between characters, short enough for the extras, and never leaves punctuation at the end', () => {
    const long = 'Gate '.repeat(40);
    expect(homeKitName(long, 'x').length).toBeLessThanOrEqual(HAP_MAX - LONGEST_SUFFIX);
    // The room a name leaves is the longest suffix of any extra in the table: a longer one added there fails here.
    expect(LONGEST_SUFFIX).toBeLessThanOrEqual(MAX_EXTRA_SUFFIX_LENGTH);
    for (const suffix of SUFFIXES) {
      expect(extraName(homeKitName(long, 'x'), suffix).length).toBeLessThanOrEqual(HAP_MAX);
    }
    // The cut lands right after an apostrophe, a dot, or inside a surrogate pair.
    const room = HAP_MAX - LONGEST_SUFFIX;
    // Words, not one letter repeated: a run of 20 letters or more that is no word is elided (src/util/dense-runs.ts).
    const words = (chars: number): string => `${'Gate '.repeat(chars).slice(0, chars - 1)}x`;
    expect(homeKitName(`${words(room - 2)} b'cd`, 'x')).toBe(`${words(room - 2)} b`);
    expect(homeKitName(`${words(room - 1)}.bc`, 'x')).toBe(words(room - 1));
    const cutEmojiLetter = homeKitName(`${words(room - 1)}𝐀bc`, 'x');
    expect(hasLoneSurrogate(cutEmojiLetter)).toBe(false);
    expect(cutEmojiLetter).toBe(words(room - 1));
    // A letter and its mark stay together.
    expect(homeKitName(`${words(room - 1)}q\u0307z`, 'x')).toBe(words(room - 1));
  });

  it('gives a fallback that is itself a clean name', () => {
    expect(homeKitName('', 'Door ab/cd')).toBe('Door ab cd');
    expect(homeKitName('!!!', fallbackDoorName('🚪🚪🚪🚪🚪🚪🚪🚪🚪'))).toBe('Door');
    expect(hasLoneSurrogate(fallbackDoorName('a🚪🚪🚪🚪🚪🚪🚪🚪'))).toBe(false);
    expect(fallbackDoorName('0f3a9c2e-1111-2222')).toBe('Door 0f3a9c2e');
  });

  it('always gives a name HomeKit takes, for any text', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 120 }),
      fc.string({
        unit: fc.constantFrom('a', 'é', 'e\u0301', '.', "'", ' ', '-', ',', '𝐀', '\ud800', '\u0301', 'ग', 'ै', '!'),
        maxLength: 150,
      }),
    );
    fc.assert(
      fc.property(text, (name) => {
        const clean = homeKitName(name, 'Door 1');
        expect(clean.length).toBeGreaterThan(0);
        expect(clean.length).toBeLessThanOrEqual(HAP_MAX - LONGEST_SUFFIX);
        expect(hasLoneSurrogate(clean)).toBe(false);
        expect(clean).toBe(clean.normalize('NFC'));
        expect(clean).toMatch(/^[\p{L}\p{N}]/u);
        expect(clean).toMatch(/[\p{L}\p{N}]\p{M}*$/u);
        // Cleaning is stable: a cached name passed through again stays as it is.
        expect(homeKitName(clean, 'Door 1')).toBe(clean);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('homeKitVersion', () => {
  it('reads x.y.z out of a version string or leaves it out', () => {
    expect(homeKitVersion('2.4.1')).toBe('2.4.1');
    expect(homeKitVersion('v1.9.0-beta')).toBe('1.9.0');
    expect(homeKitVersion('unknown')).toBeUndefined();
    expect(homeKitVersion(undefined)).toBeUndefined();
  });
});

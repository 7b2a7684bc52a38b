// Near misses of known words, and the quoting of typed text: what the parser's warnings rest on.
import { describe, expect, it } from 'vitest';

import { closest, editDistance, fold, nearMiss, nearSecret, quoted } from '../../../src/util/near-miss.js';

describe('near misses', () => {
  it('folds case, spaces, dashes, underscores, zero-width and look-alike letters', () => {
    expect(['readOnly', ' Read-Only ', 'read_only', 're\u0430d\u041enly', 'read\u200bOnly'].map(fold)).toEqual(Array(5).fill('readonly'));
  });

  it('counts one edit for a swap of two neighbours', () => {
    expect(editDistance('lokc', 'lock')).toBe(1);
    expect(editDistance('hidden', 'hide')).toBe(2);
    expect(editDistance('abcdef', 'a', 2)).toBe(3);
  });

  it('reads a word as the one it nearly is, but never guesses between two or from a short word', () => {
    expect(nearMiss('locks', ['garage-door', 'lock'])).toBe('lock');
    expect(nearMiss('Garage Door', ['garage-door', 'lock'])).toBe('garage-door');
    expect(nearMiss('own', ['all', 'owned'])).toBeUndefined();
    expect(nearMiss('ope', ['off', 'open', 'open-close'])).toBeUndefined();
    // One edit from both: no guess.
    expect(nearMiss('cart', ['card', 'care'])).toBeUndefined();
  });

  it('suggests the closest word, preferring one that holds the typed word whole', () => {
    expect(closest('excludeDoor', ['includeDoors', 'excludeDoorIds'])).toBe('excludeDoorIds');
    expect(closest('hidden', ['hide', 'name'])).toBe('hide');
    expect(closest('colourScheme', ['hide', 'name', 'readOnly'])).toBeUndefined();
  });
});

describe('quoting typed text', () => {
  const token = 'ac_live_4f9b8e2d7c1a6b3f';

  it('escapes what could forge a line or hide a letter, and cuts long text', () => {
    expect(quoted('a\nb"c', [])).toBe('"a\\u000ab\\"c"');
    expect(quoted('re\u0430d', [])).toBe('"re\\u0430d"');
    expect(quoted('x'.repeat(50), [])).toBe(`"${'x'.repeat(40)}…"`);
  });

  it('redacts the secret, a part of it, or a near copy, but not a short common word', () => {
    for (const near of [token, `${token}x`, token.slice(1), `"${token}"`, token.slice(3, 15)]) {
      expect(nearSecret(near, [token]), near).toBe(true);
      expect(quoted(near, [token])).toBe('[redacted]');
    }
    expect(nearSecret('gate', [token])).toBe(false);
    expect(nearSecret('front-gate-1', [token, undefined, 42])).toBe(false);
  });
});

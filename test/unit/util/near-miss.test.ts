// Near misses of known words: what the parser's warnings rest on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { closest, editDistance, fold, MAX_COMPARED_CHARS, nearMiss } from '../../../src/util/near-miss.js';

/** The optimal string alignment distance over the whole matrix, as editDistance computed it before issue 42. */
function referenceDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = d[i] ?? [];
      const up = d[i - 1] ?? [];
      row[j] = Math.min((up[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (up[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] ?? 0, (d[i - 2]?.[j - 2] ?? 0) + 1);
    }
  }
  return d[a.length]?.[b.length] ?? 0;
}

describe('near misses', () => {
  it('folds case, spaces, dashes, underscores, compatibility forms and every invisible character', () => {
    expect(
      ['readOnly', ' Read-Only ', 'read_only', '\uff52\uff45\uff41\uff44Only', 'read\u200bOnly', 'read\u2066Only\u200e'].map(fold),
    ).toEqual(Array(6).fill('readonly'));
  });

  it('reads a key with one look-alike letter as the key it nearly is (one edit)', () => {
    expect(nearMiss('re\u0430dOnly', ['readOnly', 'hide'])).toBe('readOnly');
  });

  it('counts one edit for a swap of two neighbours', () => {
    expect(editDistance('lokc', 'lock')).toBe(1);
    expect(editDistance('hidden', 'hide')).toBe(2);
    expect(editDistance('abcdef', 'a', 2)).toBe(3);
  });

  it('matches the full-matrix distance it replaced, in memory that grows with one text (issue 42.6)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), fc.nat(6), (a, b, limit) => {
        const full = referenceDistance(a, b);
        expect(editDistance(a, b)).toBe(full);
        expect(editDistance(a, b, limit)).toBe(Math.min(full, limit + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives up past MAX_COMPARED_CHARS instead of allocating a matrix of the two lengths', () => {
    const huge = 'x'.repeat(50_000);
    expect(editDistance(huge, `${huge}y`, 3)).toBe(4);
    expect(editDistance(huge, huge, 3)).toBe(0);
    expect(editDistance('a'.repeat(MAX_COMPARED_CHARS + 1), 'b'.repeat(MAX_COMPARED_CHARS + 1))).toBe(MAX_COMPARED_CHARS + 1);
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

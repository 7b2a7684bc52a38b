// Values the plugin does not read are looked at up to bounds (texts, characters, parts visited) and named when cut: a
// config large for no reason is never walked in full.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import { MAX_MENTION_CHARS, MAX_PARTS, MAX_TEXT_CHARS, MAX_TEXTS, mentionOf, textsOf } from '../../../src/config/mentions.js';

const BASE = { platform: 'AccessControl', accessToken: 'mentions-token-55ab', baseUrl: 'http://127.0.0.1:9' };
/** The review's case (issue 50): two unknown keys of 1,000 texts of 4,096 characters each. */
const bloated = (n: number, chars: number) => Array.from({ length: n }, (_, i) => `${i}-`.padEnd(chars, 'x'));

/** An array that counts the elements read from it. */
function countingArray(length: number): { value: unknown[]; reads: () => number } {
  let reads = 0;
  const value = new Proxy(
    Array.from({ length }, () => null),
    {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/u.test(key)) reads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    },
  );
  return { value, reads: () => reads };
}

describe('mentions', () => {
  it('keeps a small value whole, and does not call it cut', () => {
    expect(mentionOf('hideDoorIdz', ['d1', 2, { d3: true }], true, 'hideDoorIdz')).toEqual({
      path: 'hideDoorIdz',
      texts: ['hideDoorIdz', 'd1', '2', 'd3'],
      leaveOut: true,
    });
  });

  it('keeps the first MAX_TEXT_CHARS characters of a long text, and calls the value cut', () => {
    const mention = mentionOf('fooBar', ['y'.repeat(MAX_TEXT_CHARS + 1)], false);
    expect(mention?.texts).toEqual(['y'.repeat(MAX_TEXT_CHARS)]);
    expect(mention?.cut).toBe(true);
  });

  it('reads two unknown keys of 1,000 texts of 4,096 characters up to the bounds, and names each', () => {
    const parsed = parseConfig({ ...BASE, fooBar: bloated(1000, 4096), bazQux: bloated(1000, 4096) });
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    for (const mention of parsed.config.mentions) {
      expect(mention.cut).toBe(true);
      expect(mention.texts.join('').length).toBeLessThanOrEqual(MAX_MENTION_CHARS + MAX_TEXT_CHARS);
    }
    expect(parsed.warnings.filter((w) => w.includes('is larger than the plugin looks into'))).toEqual([
      expect.stringMatching(/^fooBar is larger/) as unknown,
      expect.stringMatching(/^bazQux is larger/) as unknown,
    ]);
  });

  it('looks at no more than its bound of parts of a value of a million, texts or not', () => {
    const { value, reads } = countingArray(1_000_000);
    const mention = mentionOf('fooBar', [value], false);
    expect(mention?.cut).toBe(true);
    expect(reads()).toBeLessThanOrEqual(MAX_PARTS);
  });

  it('never keeps more than its bounds, whatever the value (property)', () => {
    const text = fc.string({ maxLength: 6000 });
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.integer(),
        fc.array(tie('node'), { maxLength: 40 }),
        fc.dictionary(text, tie('node'), { maxKeys: 20 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        const texts = textsOf(v);
        expect(texts.length).toBeLessThanOrEqual(MAX_TEXTS);
        expect(texts.every((t) => t.length <= MAX_TEXT_CHARS)).toBe(true);
        expect(texts.join('').length).toBeLessThanOrEqual(MAX_MENTION_CHARS + MAX_TEXT_CHARS);
      }),
      { numRuns: 200 },
    );
  });
});

// The quoting of typed text in the parser's sentences: escaped, cut, and never a secret or a near copy of one.
import { describe, expect, it } from 'vitest';

import { quoted } from '../../../src/util/quoted.js';
import { nearSecret } from '../../../src/util/redact.js';

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

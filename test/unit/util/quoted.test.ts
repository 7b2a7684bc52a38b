// The quoting of typed text in the parser's sentences: escaped and cut (a secret is taken out where the sentence leaves,
// src/config/redacted.ts: test/unit/config/redacted.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { quoted } from '../../../src/util/quoted.js';

describe('quoting typed text', () => {
  it('escapes what could forge a line or hide a letter, and cuts long text', () => {
    expect(quoted('a\nb"c')).toBe('"a\\u000ab\\"c"');
    expect(quoted('re\u0430d')).toBe('"re\\u0430d"');
    expect(quoted('x'.repeat(50))).toBe(`"${'x'.repeat(40)}…"`);
  });

  it('quotes an id of the contract whole, and cuts a long id only before a separator, keeping whole groups (issue 52)', () => {
    const uuid = '34f8a2b1-7c3d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(quoted(uuid)).toBe(`"${uuid}"`);
    expect(quoted('9007199254740991')).toBe('"9007199254740991"');
    expect(quoted(`51;${uuid}`)).toBe(`"51;${uuid}"`);
    expect(quoted(`&#51;${uuid}`)).toBe('"&#51;34f8a2b1-7c3d-4e5f-8a9b…"');
    expect(quoted('door-1234-abcd-ef56-7890-aaaa-bbbb-cccc-dddd')).toBe('"door-1234-abcd-ef56-7890-aaaa-bbbb-cccc…"');
    expect(quoted('front gate of the yard behind the old barn')).toBe('"front gate of the yard behind the old…"');
  });

  it('never ends a cut inside a group: what is shown before … always ends where a separator followed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[0-9a-z]{1,12}$/), { minLength: 2, maxLength: 12 }),
        fc.constantFrom('-', ';', '.', ' ', '|', '_'),
        (groups, separator) => {
          const value = groups.join(separator);
          const shown = quoted(value).slice(1, -1);
          if (shown.endsWith('…')) {
            expect(value.startsWith(`${shown.slice(0, -1)}${separator}`)).toBe(true);
          } else {
            expect(shown).toBe(value);
          }
        },
      ),
    );
  });
});

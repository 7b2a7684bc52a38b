// Issue 53 item 5: the config reader's text leaves through one exit (src/config/redacted.ts), so a secret planted in any
// value or key of the block, in any spelling, comes out of no finding, problem, note or protection sentence.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import type { ConfigResult } from '../../../src/config/index.js';
import { protectionFor } from '../../../src/config/protection.js';
import { redact, REDACTED } from '../../../src/util/redact.js';
import { PLATFORM_NAME } from '../../../src/settings.js';

const TOKEN = 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b7a6f1f8e';
const WEBHOOK_KEY = '7e1d'.repeat(24);
const SECRETS = [TOKEN, WEBHOOK_KEY];
const valid = {
  platform: PLATFORM_NAME,
  accessToken: TOKEN,
  baseUrl: 'https://api.example.com',
  webhook: { port: 8765, apiKey: WEBHOOK_KEY },
};
const ACCOUNT = {
  doors: [
    { id: 'gate', deviceId: 'dev-a' },
    { id: 'garage', deviceId: 'dev-b' },
  ],
};
/** Characters of a secret that a text must not show in a row, letters and digits only (the quoting's old rule: a part of 8). */
const SHOWN_PART_CHARS = 8;

/** Where a value typed by the user can stand: each place a reader quotes, names or refuses a value or a key. */
const PLACES: Record<string, (planted: string) => Record<string, unknown>> = {
  'a top-level key': (p) => ({ [p]: true }),
  'a top-level key naming a door': (p) => ({ [p]: ['gate'] }),
  'a note': (p) => ({ [`_${p}`]: 'x' }),
  'a choice': (p) => ({ showAs: p, matter: p }),
  "a door's id": (p) => ({ doors: [{ id: p, readOnly: 'yes' }] }),
  "a door's name": (p) => ({ doors: [{ id: 'gate', name: p }] }),
  "a door's key": (p) => ({ doors: [{ id: 'gate', [p]: true }] }),
  "a door's choice": (p) => ({ doors: [{ id: 'gate', showAs: p, automationSwitch: p }] }),
  'one door, not a list': (p) => ({ doors: { id: p, readOnly: true } }),
  'a filter': (p) => ({ excludeDoorIds: [p], includeDeviceIds: [p, 'dev-a'] }),
  "a person's name": (p) => ({ people: [{ name: p, user: 'ada@example.com' }] }),
  "a person's key": (p) => ({ people: [{ name: 'Ada', user: 'ada@example.com', [p]: ['gate'] }] }),
  "a person's doors": (p) => ({ people: [{ name: 'Ada', user: 'ada@example.com', doors: [p, 42.5] }] }),
  "the webhook's key": (p) => ({ webhook: { port: 8765, apiKey: WEBHOOK_KEY, [p]: 1 } }),
  "the webhook's path": (p) => ({ webhook: { port: 8765, apiKey: WEBHOOK_KEY, path: p, headerName: p } }),
  'the address': (p) => ({ baseUrl: p }),
};

/** Spellings of a secret a user can paste or type: each one redact.ts knows, or one the quoting used to catch. */
const SPELLINGS: Record<string, (secret: string) => string> = {
  'as it is': (s) => s,
  'in capitals': (s) => s.toUpperCase(),
  'a colon in front': (s) => `:${s}`,
  'one character more': (s) => `${s}.`,
  'one character less': (s) => s.slice(0, -1),
  'two characters changed': (s) => `x${s.slice(1, -1)}y`,
  'a part of it': (s) => s.slice(3, 15),
  'spaced out': (s) => s.replace(/(.{6})/g, '$1 '),
  'percent-encoded': (s) => Array.from(s, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''),
  'JSON-escaped': (s) => Array.from(s, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  'in base64': (s) => Buffer.from(s).toString('base64'),
  // Quoted, this is cut after 40 characters: only the whole value tells it holds a secret.
  'after ordinary words': (s) => `front gate of the yard behind ${s}`,
};

/** Every text of a reading that leaves the plugin: the log's lines and the page's sentences. */
function textsOf(result: ConfigResult): string[] {
  if (!result.ok) return result.problems;
  const protection = protectionFor(result.config, ACCOUNT);
  return [
    ...result.ignored,
    ...result.warnings,
    ...result.findings.flatMap((finding) => [finding.path, finding.sentence]),
    ...(result.notes ?? []),
    ...protection.findings.flatMap((finding) => [finding.path, finding.sentence]),
    ...protection.readOnly.values(),
    ...protection.leftOut.values(),
  ];
}

const lettersAndDigits = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** What a text must not hold: any secret redact.ts finds, a run of SHOWN_PART_CHARS of one, or a typed value's mark. */
function leaks(text: string): string | undefined {
  if (redact(text, SECRETS).found.length > 0) return 'a secret redact.ts finds';
  const shown = lettersAndDigits(text);
  for (const secret of SECRETS.map(lettersAndDigits)) {
    for (let at = 0; at + SHOWN_PART_CHARS <= secret.length; at += 1) {
      if (shown.includes(secret.slice(at, at + SHOWN_PART_CHARS))) return `"${secret.slice(at, at + SHOWN_PART_CHARS)}"`;
    }
  }
  return /[\uFDD0\uFDD1]/u.test(text) ? "a typed value's mark" : undefined;
}

describe('a secret planted anywhere in the block (issue 53 item 5)', () => {
  it('comes out of no finding, problem, note or protection sentence, in any spelling, with anything around it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.keys(PLACES)),
        fc.constantFrom(...Object.keys(SPELLINGS)),
        fc.constantFrom(...SECRETS),
        fc.stringMatching(/^[a-z -]{0,8}$/),
        (place, spelling, secret, around) => {
          const planted = `${around}${SPELLINGS[spelling]?.(secret) ?? ''}`;
          const result = parseConfig({ ...valid, ...PLACES[place]?.(planted) });
          for (const text of textsOf(result)) expect(leaks(text), `${place}, ${spelling}: ${text}`).toBeUndefined();
        },
      ),
      { numRuns: 400 },
    );
  });

  it('says a typed value that holds one as [redacted], though its quote would be cut before it, and quotes the rest as before', () => {
    const result = parseConfig({
      ...valid,
      [`front gate of the yard behind ${TOKEN}`]: true,
      fronGate: true,
      doors: [{ id: 'gate', [`:${TOKEN}`]: 1 }],
    });
    expect(result.ok && result.warnings).toEqual([
      `${REDACTED} is not a setting the plugin knows, so it is ignored; but a door of the account it names stays read-only until it is fixed`,
      expect.stringMatching(/^"fronGate" is not a setting the plugin knows/) as unknown,
      `doors.0 (id "gate"): ${REDACTED} is not a setting the plugin knows, so it is ignored; this door is read-only, without an automation switch, until it is fixed`,
    ]);
  });
});

// The shape rule: a run of outside text long and dense enough to carry a secret in a spelling no rule knows is elided (…);
// ordinary words, names, dates and the contract's ids are shown as they are.
import { describe, expect, it } from 'vitest';

import { DENSE_RUN_CHARS, elideDense, ELIDED, isDenseRun } from '../../../src/util/dense-runs.js';

const TOKEN = 'Xq7pLm2Rt9Vb4Nc8Zd1Kf6Hs3Wy5Ej0';

describe('elideDense', () => {
  it(`elides a run of ${DENSE_RUN_CHARS} letters, digits or symbols in any script, keeping its quotes and brackets`, () => {
    expect(elideDense(`Gate ${TOKEN} (400)`)).toBe(`Gate ${ELIDED} (400)`);
    expect(elideDense(`refused: "${Buffer.from(TOKEN).toString('base64')}".`)).toBe(`refused: "${ELIDED}".`);
    expect(elideDense(`(${Buffer.from(TOKEN).toString('hex')})`)).toBe(`(${ELIDED})`);
    // Cyrillic look-alikes, U+2800 between letters, U+0332 under each: the letters and symbols count, the marks do not part them.
    expect(elideDense(`Gate ${TOKEN.replace(/a/g, 'а').replace(/X/g, 'Х')}`)).toBe(`Gate ${ELIDED}`);
    expect(elideDense(`Gate ${Array.from(TOKEN.slice(0, 12)).join('\u2800')}`)).toBe(`Gate ${ELIDED}`);
    expect(elideDense(`Gate ${Array.from(TOKEN, (char) => `${char}\u0332`).join('')}`)).toBe(`Gate ${ELIDED}`);
    // Braille letters are symbols: as dense as letters.
    expect(elideDense(`Gate ${'⠓⠑⠇⠇⠕'.repeat(5)}`)).toBe(`Gate ${ELIDED}`);
  });

  it('elides a secret spelled out a few characters at a time', () => {
    expect(elideDense(`Gate ${Array.from(TOKEN).join(' ')} (400)`)).toBe(`Gate ${ELIDED} (400)`);
    expect(elideDense(`bytes ${Array.from(Buffer.from(TOKEN), (byte) => byte.toString(10)).join(' ')}`)).toBe(`bytes ${ELIDED}`);
  });

  it('keeps sentences, names, dates, ids of the contract and words joined by punctuation under 40 letters', () => {
    const ordinary = [
      'Yard Gate was opened by Grace Hopper 20 hours ago, before this start',
      'Webhook: enforcer_unauthorized_user by Mallory Doe (mallory@example.com) at Front Gate',
      'Tiefgaragenzufahrt Nordflügel at 2026-11-28 01:41:54 (5d8e2f71-4b6a-4c39-9e10-7a3b5c9d1e02)',
      'see https://help.example.com/pair-sensor',
      'Ворота гаража открыты',
      'it is on the way to the gate and it is a bit up',
    ];
    for (const text of ordinary) expect(elideDense(text)).toBe(text);
  });

  it('elides what the rule costs: 20 letters and digits with a digit or mixed case, and 40 however they read', () => {
    expect(isDenseRun('SN2024000123456789012')).toBe(true);
    expect(isDenseRun('frontGateUnauthorizedUser')).toBe(true);
    expect(isDenseRun('https://help.example.com/articles/pairing-a-door-sensor')).toBe(true);
    expect(isDenseRun('enforcer_unauthorized_user')).toBe(false);
    expect(isDenseRun('5d8e2f71-4b6a-4c39-9e10-7a3b5c9d1e02')).toBe(false);
  });
});

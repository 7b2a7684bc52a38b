// The "Before you save" summary: quiet on a fresh page, green only when the current address and token signed in.
import { describe, expect, it } from 'vitest';

import { ACCEPTED_TEXT, FRESH_TEXT, othersText, summarize, UNTRIED_TEXT } from '../../../../src/ui/page/summary.js';
import type { ConfigCheck, SignInAnswer } from '../../../../src/ui/shared/messages.js';

const accepted: ConfigCheck = {
  problems: [],
  ignored: [],
  warnings: [],
  shown: undefined,
  excluded: new Map(),
  kept: new Map(),
  ignoredKept: 0,
  fixes: [],
};
const missing: ConfigCheck = { ...accepted, problems: ['Access token is required', 'Service address is required'] };
const signedIn: SignInAnswer = { ok: true, account: { controllers: [], doors: [], unreadable: [] } };
const refused: SignInAnswer = {
  ok: false,
  kind: 'refused',
  message: 'The service refused this access token. Copy the Access token from your account again and press Sign in.',
  detail: 'the service refused the access token (HTTP 401)',
};

describe('the Before you save summary', () => {
  it('shows no problem on a fresh page, but keeps Save off', () => {
    expect(summarize(missing, undefined, false)).toEqual({
      kind: 'info',
      text: FRESH_TEXT,
      lines: [],
      warnings: [],
      detail: undefined,
      saveOff: true,
    });
  });

  it('lists the problems once a field was touched', () => {
    expect(summarize(missing, undefined, true)).toMatchObject({ kind: 'error', lines: missing.problems, saveOff: true });
  });

  it('is green only when the settings signed in', () => {
    expect(summarize(accepted, signedIn, true)).toMatchObject({ kind: 'ok', text: ACCEPTED_TEXT, saveOff: false });
    expect(summarize(accepted, undefined, true)).toMatchObject({ kind: 'info', text: UNTRIED_TEXT, saveOff: false });
  });

  it('warns in words when the token is refused, says what saving leads to, and keeps the raw reason for Details', () => {
    const summary = summarize(accepted, refused, true);
    expect(summary.kind).toBe('warn');
    expect(summary.text).toMatch(/^The service refused this access token\. If you save these settings, the plugin/);
    expect(summary.text).not.toMatch(/401|accessToken/);
    expect(summary.detail).toBe('the service refused the access token (HTTP 401)');
    expect(summary.saveOff).toBe(false);
  });

  it('lists the warnings apart and keeps Save on: the settings run as read; a green summary turns amber', () => {
    const warned: ConfigCheck = { ...accepted, warnings: ['Readonly is read as Read-only'] };
    expect(summarize(warned, signedIn, true)).toMatchObject({ kind: 'warn', text: ACCEPTED_TEXT, lines: [], saveOff: false });
    expect(summarize(warned, signedIn, true).warnings).toEqual(['Readonly is read as Read-only']);
    // With a part the plugin ignores, Save is off for that part, not for the warning.
    const both = summarize({ ...warned, ignored: ['Poll interval must be a number of seconds'] }, signedIn, true);
    expect(both).toMatchObject({
      lines: ['Poll interval must be a number of seconds'],
      warnings: ['Readonly is read as Read-only'],
      saveOff: true,
    });
  });

  it('keeps Save on when every part the plugin ignores is one the page keeps as written (it cannot fix those here)', () => {
    const kept: ConfigCheck = {
      ...accepted,
      ignored: ['the per-door settings must be a list of door settings; only its protection is kept'],
      ignoredKept: 1,
    };
    const summary = summarize(kept, signedIn, true);
    expect(summary).toMatchObject({ kind: 'warn', lines: kept.ignored, saveOff: false });
    expect(summary.text).toMatch(/keeps them as written, so Save changes only what you change here/);
    // One more that the page can fix: Save is off again.
    expect(summarize({ ...kept, ignored: [...kept.ignored, 'Poll interval must be a number of seconds'] }, signedIn, true).saveOff).toBe(
      true,
    );
  });

  it('names the other entries changed here that keep Save off by the same rule as the one on screen, and only those', () => {
    const fixable: ConfigCheck = { ...accepted, ignored: ['Poll interval must be a number of seconds'] };
    const keptOnly: ConfigCheck = { ...fixable, ignoredKept: 1 };
    const nearMiss: ConfigCheck = {
      ...accepted,
      warnings: ['Readonly is read as Read-only'],
      fixes: [{ parent: '', written: 'readonly', key: 'readOnly' }],
    };
    // Whatever keeps Save off on screen keeps it off from another entry; what leaves it on there leaves it on.
    for (const check of [accepted, missing, fixable, keptOnly, nearMiss]) {
      expect(othersText([{ name: 'Gates', check }]) !== '', JSON.stringify(check.problems.concat(check.ignored))).toBe(
        summarize(check, signedIn, true).saveOff,
      );
    }
    expect(othersText([{ name: 'Gates', check: missing }])).toBe(
      'Gates also changed here, and the plugin would sync no door with it: choose it above and fix it. Save stays off until then.',
    );
    expect(
      othersText([
        { name: 'Gates', check: fixable },
        { name: 'Clean', check: nearMiss },
        { name: 'Garage', check: missing },
      ]),
    ).toBe(
      'Gates also changed here, and the plugin would ignore part of it; Garage also changed here, and the plugin would sync no door with it: choose each above and fix it. Save stays off until then.',
    );
    expect(othersText([])).toBe('');
  });
});

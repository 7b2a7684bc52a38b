// The sign-in's status line: "Signed in" only for an answer to what is on screen; an overtaken sign-in says it no longer counts.
import { describe, expect, it } from 'vitest';

import {
  ABANDONED_EDIT_TEXT,
  ABANDONED_ENTRY_TEXT,
  EDITED_TEXT,
  OTHER_ENTRY_TEXT,
  SIGNING_IN_TEXT,
  signInLine,
} from '../../../../src/ui/page/sign-in-line.js';
import type { SignInState } from '../../../../src/ui/page/store.js';
import { pageDoor } from '../../../support/door-fixtures.js';

const info = (text: string) => ({ kind: 'info', text, detail: undefined });

describe('the sign-in status line', () => {
  it('says "Signed in" with the counts only for an answer to the address and token on screen', () => {
    const answered: SignInState = {
      kind: 'answered',
      result: { ok: true, account: { controllers: [], doors: [pageDoor('gate')], unreadable: ['controller 2 (no id)'] } },
    };
    expect(signInLine(answered, false)).toEqual({
      kind: 'ok',
      text: 'Signed in: 0 controllers, 1 door. Part of the account could not be read: controller 2 (no id).',
      detail: undefined,
    });
    const lines = (['signing-in', 'none'] as const).map((kind) => signInLine({ kind }, true));
    lines.push(
      ...(['edit', 'entry'] as const).flatMap((by) => [
        signInLine({ kind: 'abandoned', by }, true),
        signInLine({ kind: 'stale', by }, true),
      ]),
    );
    expect(lines).toEqual([
      info(SIGNING_IN_TEXT),
      undefined,
      info(ABANDONED_EDIT_TEXT),
      info(EDITED_TEXT),
      info(ABANDONED_ENTRY_TEXT),
      info(OTHER_ENTRY_TEXT),
    ]);
    expect(lines.map((line) => line?.text ?? '').filter((text) => /signed in/i.test(text) && !text.includes('press Sign in'))).toEqual([]);
  });

  it('words a failed sign-in as the server did, a field to fix as an error, with the cache named and the raw reason apart', () => {
    const refused: SignInState = {
      kind: 'answered',
      result: { ok: false, kind: 'refused', message: 'The service refused this access token.', detail: 'HTTP 401' },
    };
    expect(signInLine(refused, true)).toEqual({
      kind: 'warn',
      text: 'The service refused this access token. The doors below are the ones Homebridge showed last.',
      detail: 'HTTP 401',
    });
    const fields: SignInState = { kind: 'answered', result: { ok: false, kind: 'fields', message: 'Access token is required.' } };
    expect(signInLine(fields, false)).toEqual({ kind: 'error', text: 'Access token is required.', detail: undefined });
  });
});

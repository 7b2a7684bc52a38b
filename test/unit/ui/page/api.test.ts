// The settings page's requests to its server always end in an answer: a server that throws or never answers gives a message.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { redactAnswersWith, server } from '../../../../src/ui/page/api.js';
import { PAGE_REQUEST_LIMIT_MS } from '../../../../src/settings.js';

type Request = (path: string, body?: unknown) => Promise<unknown>;

function serverThat(request: Request): void {
  (globalThis as unknown as { homebridge: unknown }).homebridge = { request };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  redactAnswersWith(() => []);
  delete (globalThis as { homebridge?: unknown }).homebridge;
});

describe('the page asking its server', () => {
  it('ends Sign in with a message when the server never answers, after the page limit', async () => {
    serverThat(() => new Promise(() => undefined));
    const answer = server.signIn('https://api.example.com', 'token');
    let settled = false;
    void answer.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(PAGE_REQUEST_LIMIT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toEqual({
      ok: false,
      kind: 'server',
      message: 'The settings server did not answer within 30 s. Reload the page and try again.',
    });
  });

  it('turns a rejected request into a message of the same shape, for each call', async () => {
    serverThat(() => Promise.reject(new Error('plugin server exited')));
    const expected = 'The settings server could not answer (plugin server exited). Reload the page and try again.';
    expect(await server.signIn('', '')).toEqual({ ok: false, kind: 'server', message: expected });
    expect(await server.testEvent({ port: 51828, apiKey: 'k', tls: false })).toEqual({ ok: false, message: expected });
    expect(await server.checkPort({ port: 51828, entryIndex: 0 })).toEqual({ ok: false, message: expected });
  });

  it("passes the server's own answer through untouched", async () => {
    serverThat((path) => Promise.resolve({ ok: true, message: `answered ${path}` }));
    expect(await server.checkPort({ port: 51828, entryIndex: 0 })).toEqual({ ok: true, message: 'answered /check-port' });
  });
});

describe('what the page draws of an answer (issue 44)', () => {
  const TOKEN = 'page-token+4b7f/9c2e=';
  const TYPED_KEY = '0d8e3a51c7f94b26'.repeat(6);

  it('has no secret of the entries in any spelling: a door named with the token, a person named with a key not saved yet', async () => {
    redactAnswersWith(() => [TOKEN, TYPED_KEY]);
    serverThat(() =>
      Promise.resolve({
        ok: true,
        account: {
          controllers: [{ id: 'c-1', owner: `Ann ${encodeURIComponent(TYPED_KEY)}`, active: true, softwareVersion: undefined }],
          doors: [{ id: 'd-1', name: `Gate ${TOKEN.slice(0, 8)}\u200b${TOKEN.slice(8)}`, controllerId: 'c-1' }],
          unreadable: [`door ${TOKEN.toUpperCase()}`],
        },
      }),
    );
    const answer = await server.signIn('https://api.example.com', TOKEN);
    expect(answer).toMatchObject({
      ok: true,
      account: { controllers: [{ owner: 'Ann [redacted]' }], doors: [{ name: 'Gate [redacted]' }], unreadable: ['door [redacted]'] },
    });
  });

  it('has none in a failure either', async () => {
    redactAnswersWith(() => [TOKEN]);
    serverThat(() => Promise.reject(new Error(`refused ${TOKEN.slice(0, 12)} `)));
    expect(await server.checkPort({ port: 51828, entryIndex: 0 })).toEqual({
      ok: false,
      message: 'The settings server could not answer (refused [redacted] ). Reload the page and try again.',
    });
  });
});

// The settings page's requests to its server always end in an answer: a server that throws or never answers gives a message.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { server } from '../../../../src/ui/page/api.js';
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

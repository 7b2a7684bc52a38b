// "Sign in" against services that redirect or echo what they received: no redirect is followed, and the token never comes back.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';

import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID } from '../../../../dev/simulator/server.js';
import { signIn } from '../../../../src/ui/server/sign-in.js';
import { closeServer, listenOnLoopback } from '../../../support/loopback.js';
import type { SignInResult } from '../../../../src/ui/server/sign-in.js';

const TOKEN = 'sign-in-secret-token-5f2a9c';

const servers: Server[] = [];

async function serve(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    answer(req, res);
  });
  servers.push(server);
  const port = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, requests };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => closeServer(server)));
});

/** Everything a service may echo back: the request's headers (the token among them) in the body and a header. */
const echo =
  (status: number, contentType = 'application/json') =>
  (req: IncomingMessage, res: ServerResponse) => {
    const said = JSON.stringify({
      message: `you sent ${String(req.headers.authorization)}`,
      headers: req.headers,
      devices: req.headers.authorization,
    });
    res.writeHead(status, { 'content-type': contentType, 'x-echo': String(req.headers.authorization) });
    res.end(contentType === 'application/json' ? said : `<p>${said}</p>`);
  };

describe('Sign in', () => {
  it('does not follow a redirect to an address the user did not type, and says it was a redirect', async () => {
    const elsewhere = await serve(echo(200));
    const redirecting = await serve((req, res) => {
      res.writeHead(302, { location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}${req.url ?? '/'}` });
      res.end();
    });
    const result = await signIn(redirecting.url, TOKEN);
    expect(redirecting.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
    expect(result).toEqual({
      ok: false,
      kind: 'redirect',
      message:
        'The Service address answered with a redirect to another address, which is not followed: the plugin does not follow it either. Type the address the service itself answers on.',
      detail: 'HTTP 302',
    });
  });

  it('never returns the token, whatever the service echoes back', async () => {
    for (const [status, type] of [
      [200, 'application/json'],
      [200, 'text/html'],
      [401, 'application/json'],
      [403, 'text/html'],
      [500, 'application/json'],
      [302, 'text/html'],
    ] as const) {
      const service = await serve(echo(status, type));
      const result = await signIn(service.url, TOKEN);
      expect(result.ok, `${status} ${type}`).toBe(false);
      expect(JSON.stringify(result), `${status} ${type}`).not.toContain(TOKEN);
      expect(service.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    }
  });

  it('names the fields by their labels when they are missing or of the wrong type, and never quotes them', async () => {
    expect(await signIn(undefined, undefined)).toEqual({
      ok: false,
      kind: 'fields',
      message: 'Fix the settings first: Access token is required; Service address is required.',
    });
    expect(await signIn('http://127.0.0.1:1', '')).toEqual({
      ok: false,
      kind: 'fields',
      message: 'Fix the settings first: Access token is required.',
    });
    expect(await signIn({}, 5)).toEqual({
      ok: false,
      kind: 'fields',
      message: 'Fix the settings first: Access token must be text; Service address must be text.',
    });
    const swapped = await signIn(TOKEN, 'https://api.example.com');
    expect(swapped.ok).toBe(false);
    expect(JSON.stringify(swapped)).not.toContain(TOKEN);
    expect(!swapped.ok && swapped.message).toMatch(/^Fix the settings first: Service address must be an http:\/\/ or https:\/\/ address/);
  });
});

/** What the page shows in words: no config key, no system code, no HTTP status (those belong behind "Details"). */
function expectWordsOnly(result: SignInResult): void {
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.message).not.toMatch(/accessToken|baseUrl|E[A-Z]{4,}|UND_ERR|HTTP \d/);
}

describe('Sign in failures, by kind, in words with the raw reason apart', () => {
  it('a refused token is "refused", in words, with the HTTP status only in the detail', async () => {
    const service = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end('{"message":"invalid token"}');
    });
    const result = await signIn(service.url, TOKEN);
    expectWordsOnly(result);
    expect(result).toMatchObject({ ok: false, kind: 'refused', detail: expect.stringMatching(/HTTP 401/) as unknown });
    expect(!result.ok && result.message).toMatch(/^The service refused this access token\. .*Access token/);
  });

  it('a closed port is "no-answer": Nothing answers at this address; the system code is only in the detail', async () => {
    const service = await serve(echo(200));
    await Promise.all(servers.splice(0).map((server) => closeServer(server)));
    const result = await signIn(service.url, TOKEN);
    expectWordsOnly(result);
    expect(result).toMatchObject({ ok: false, kind: 'no-answer', detail: expect.stringMatching(/ECONNREFUSED/) as unknown });
    expect(!result.ok && result.message).toMatch(/^Nothing answers at this address\. Check the Service address/);
  });

  it('a host name that does not exist is "not-found"', async () => {
    const result = await signIn('http://no-such-host.invalid', TOKEN);
    expectWordsOnly(result);
    expect(result).toMatchObject({ ok: false, kind: 'not-found', detail: expect.stringMatching(/ENOTFOUND|EAI_AGAIN/) as unknown });
    expect(!result.ok && result.message).toMatch(/^Nothing answers at this address: its host name was not found/);
  });

  it('a service that never answers is "timeout"; one that answers something else is "bad-answer"', async () => {
    const silent = await serve(() => undefined);
    const late = await signIn(silent.url, TOKEN, { deadlineMs: 200 });
    expectWordsOnly(late);
    expect(late).toMatchObject({ ok: false, kind: 'timeout' });
    const page = await serve(echo(200, 'text/html'));
    const odd = await signIn(page.url, TOKEN);
    expectWordsOnly(odd);
    expect(odd).toMatchObject({ ok: false, kind: 'bad-answer', detail: expect.stringMatching(/JSON/) as unknown });
  });
});

describe("Sign in: the service's names reach the page without a secret (issue 38)", () => {
  it('shows a door named with the token or a saved webhook key as [redacted]', async () => {
    const key = 'ab12'.repeat(24);
    const sim = new AccessControlSimulator({ accessToken: TOKEN });
    await sim.start();
    try {
      sim.renameDoor(SAMPLE_FRONT_GATE_ID, `Gate ${TOKEN} ${key}`);
      const result = await signIn(sim.baseUrl, TOKEN, { secrets: [key] });
      expect(result.ok && result.account.doors.find((door) => door.id === SAMPLE_FRONT_GATE_ID)?.name).toBe('Gate [redacted] [redacted]');
      expect(JSON.stringify(result)).not.toContain(key);
    } finally {
      await sim.stop();
    }
  });
});

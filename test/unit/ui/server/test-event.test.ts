// "Send test event" against listeners that are not the plugin's, stall, or speak HTTPS: it says only what it observed.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { plainPath, sendTestEvent, urlFromParts } from '../../../../src/ui/server/test-event.js';
import type { TestEventTarget } from '../../../../src/ui/server/test-event.js';
import { WebhookReceiver } from '../../../../src/webhook/receiver.js';
import type { WebhookEvent } from '../../../../src/webhook/event.js';
import { captureLog } from '../../../support/log.js';
import { closeServer, listenOnLoopback } from '../../../support/loopback.js';
import { makeSelfSignedCertificate } from '../../../support/certificates.js';

const KEY = 'ab12'.repeat(24);

interface Peer {
  server: Server;
  port: number;
  sockets: Socket[];
  closed: () => number;
  requests: () => number;
}

/** A plain HTTP server that answers every request with `answer`, counting connections and their closes. */
async function startPeer(answer: (req: IncomingMessage, res: ServerResponse) => void): Promise<Peer> {
  const sockets: Socket[] = [];
  let closed = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    answer(req, res);
  });
  server.on('connection', (socket: Socket) => {
    sockets.push(socket);
    socket.once('close', () => (closed += 1));
  });
  const port = await listenOnLoopback(server);
  return { server, port, sockets, closed: () => closed, requests: () => requests };
}

async function stopPeer(peer: Peer): Promise<void> {
  for (const socket of peer.sockets) socket.destroy();
  await closeServer(peer.server);
}

const target = (port: number, more: Partial<TestEventTarget> = {}): TestEventTarget => ({
  port,
  host: '127.0.0.1',
  path: '/',
  apiKey: KEY,
  headerName: undefined,
  tls: false,
  certFile: undefined,
  ...more,
});

describe("Send test event, against what is not the plugin's listener", () => {
  it('gives up at its whole-request deadline on a listener that trickles its answer, and closes the connection', async () => {
    const timers: NodeJS.Timeout[] = [];
    const peer = await startPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // One byte per 100 ms for ever: each chunk arrives well within any per-chunk time-out.
      timers.push(setInterval(() => res.write('.'), 100));
    });
    try {
      const result = await sendTestEvent(target(peer.port), { deadlineMs: 400 });
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/^The listener on 127\.0\.0\.1:\d+ did not answer within 0\.4 seconds; the connection was closed\.$/);
      expect(peer.requests()).toBe(1);
      // The listener sees its connection closed: nothing is left open to leak with each try.
      await expect.poll(() => peer.closed()).toBe(peer.sockets.length);
    } finally {
      for (const timer of timers) clearInterval(timer);
      await stopPeer(peer);
    }
  });

  it('does not call a 200 from another program accepted', async () => {
    const peer = await startPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>some other program</html>');
    });
    try {
      const result = await sendTestEvent(target(peer.port));
      expect(result.ok).toBe(false);
      expect(result.message).not.toMatch(/accept/);
      expect(result.message).toMatch(/^Something at http:\/\/127\.0\.0\.1:\d+ answered 200, but not as this plugin's listener answers/);
      // Nothing the other program sent is repeated on the page.
      expect(result.message).not.toContain('some other program');
    } finally {
      await stopPeer(peer);
    }
  });

  it("does not explain a 401 from another program as a wrong key of the plugin's listener", async () => {
    const peer = await startPeer((_req, res) => {
      res.writeHead(401);
      res.end();
    });
    try {
      const result = await sendTestEvent(target(peer.port));
      expect(result).toEqual({
        ok: false,
        message: expect.stringMatching(
          /^Something at http:\/\/127\.0\.0\.1:\d+ answered HTTP 401, but not as this plugin's listener answers/,
        ) as string,
      });
    } finally {
      await stopPeer(peer);
    }
  });
});

describe('Send test event: only to a listener of this machine, at a URL built from its parts (issue 38)', () => {
  it('refuses a path that would choose the host (`@host:port/`, `//host/`) or hold a query, and sends nothing anywhere', async () => {
    const listener = await startPeer((_req, res) => res.end());
    const elsewhere = await startPeer((_req, res) => res.end());
    try {
      for (const path of [
        `@127.0.0.1:${elsewhere.port}/`,
        `//127.0.0.1:${elsewhere.port}/`,
        '/hook?x=1',
        '/hook#x',
        '/a/../b',
        'hook',
        '/a b',
      ]) {
        const result = await sendTestEvent(target(listener.port, { path }));
        expect(result, path).toEqual({
          ok: false,
          message: 'The Path must start with a single / and hold no spaces, \\, ? or # (such as /access-control): no test event was sent.',
        });
      }
      expect(listener.requests()).toBe(0);
      expect(elsewhere.requests()).toBe(0);
    } finally {
      await stopPeer(listener);
      await stopPeer(elsewhere);
    }
  });

  // Each of the two layers on its own (issue 44): the path check refuses what the URL built from parts would also keep
  // on the host, and the URL from parts keeps on the host what the path check would also refuse.
  const HOSTILE_PATHS = ['@127.0.0.2:9/', '//127.0.0.2:9/', '/hook?x=1', '/hook#x', '/a/../b', 'hook', '/a b', '/a\\b', '\\\\127.0.0.2/'];

  it('the path check alone refuses every path that is not a plain absolute one', () => {
    expect(HOSTILE_PATHS.filter((path) => plainPath(path) !== undefined)).toEqual([]);
    expect(['/', '/access-control', '/@hooks:8/x', '/a%20b'].map((path) => plainPath(path))).toEqual([
      '/',
      '/access-control',
      '/@hooks:8/x',
      '/a%20b',
    ]);
    expect(plainPath(undefined)).toBe('/');
  });

  it('the URL from parts alone keeps any path on the host and port given, with no query or fragment', () => {
    for (const path of HOSTILE_PATHS) {
      const url = urlFromParts('127.0.0.1', 51828, path, false);
      expect({ path, host: url.host, search: url.search, hash: url.hash, protocol: url.protocol }).toEqual({
        path,
        host: '127.0.0.1:51828',
        search: '',
        hash: '',
        protocol: 'http:',
      });
    }
    expect(urlFromParts('::1', 8443, '/x', true).href).toBe('https://[::1]:8443/x');
  });

  it('sends to the path exactly as typed, on the host and port given', async () => {
    const paths: (string | undefined)[] = [];
    const listener = await startPeer((req, res) => {
      paths.push(req.url);
      res.end();
    });
    try {
      await sendTestEvent(target(listener.port, { path: '/@hooks:8/x' }));
      await sendTestEvent(target(listener.port, { path: undefined, host: '' }));
      expect(paths).toEqual(['/@hooks:8/x', '/']);
    } finally {
      await stopPeer(listener);
    }
  });

  it('sends nothing to an address that is not this machine, whatever its port', async () => {
    for (const host of ['192.0.2.1', '[2001:db8::1]', '8.8.8.8']) {
      const result = await sendTestEvent(target(443, { host }), { deadlineMs: 400 });
      expect(result, host).toEqual({
        ok: false,
        message:
          "Listen on address is not an address of this machine: Send test event only sends to the listener of the Homebridge this page runs on, so no test event was sent. Leave it empty, or type one of this machine's addresses.",
      });
    }
  });

  it('takes a loopback address, and a wildcard as 127.0.0.1', async () => {
    const listener = await startPeer((_req, res) => res.end());
    try {
      for (const host of ['127.0.0.1', '0.0.0.0', '[::]']) {
        const result = await sendTestEvent(target(listener.port, { host }));
        expect(result.message, host).toMatch(/^Something at http:\/\/(127\.0\.0\.1|\[::1\]):\d+ answered 200/);
      }
    } finally {
      await stopPeer(listener);
    }
  });
});

describe('Send test event: the key only to a listener that proved it holds it (issue 30.10)', () => {
  it('is not fooled by a program answering {"message":"ok"} to everything, and never sends it the key', async () => {
    const keys: unknown[] = [];
    const peer = await startPeer((req, res) => {
      keys.push(req.headers['x-service-api-key']);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'ok' }));
    });
    try {
      const result = await sendTestEvent(target(peer.port));
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/so the key was not sent/);
      expect(keys).toEqual([undefined]);
    } finally {
      await stopPeer(peer);
    }
  });

  it("is not fooled by a program that repeats the plugin's 401 either, nor by a proof it made up", async () => {
    const keys: unknown[] = [];
    const peer = await startPeer((req, res) => {
      keys.push(req.headers['x-service-api-key']);
      res.writeHead(401, { 'content-type': 'application/json', 'x-access-control-proof': 'f'.repeat(64) });
      res.end(JSON.stringify({ message: 'missing or wrong API key' }));
    });
    try {
      const result = await sendTestEvent(target(peer.port));
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/could not prove it holds this API key, so the key was not sent/);
      expect(keys).toEqual([undefined]);
    } finally {
      await stopPeer(peer);
    }
  });

  async function withListener(
    apiKey: string,
    run: (port: number, events: WebhookEvent[], log: ReturnType<typeof captureLog>) => Promise<void>,
  ) {
    const events: WebhookEvent[] = [];
    const log = captureLog();
    const receiver = new WebhookReceiver({ port: 0, host: '127.0.0.1', apiKey, onEvent: (event) => void events.push(event), log });
    await receiver.start();
    try {
      await run(receiver.port, events, log);
    } finally {
      await receiver.stop();
    }
  }

  it("is green for the plugin's own listener holding the same key, which gets the event once", async () => {
    await withListener(KEY, async (port, events, log) => {
      const result = await sendTestEvent(target(port));
      expect(result).toEqual({ ok: true, message: expect.stringMatching(/proved it holds this API key and answered 200/) as string });
      await expect.poll(() => events.length).toBe(1);
      // The question without a key is no refused webhook worth a warning.
      expect(log.texts('warn')).toEqual([]);
    });
  });

  it("sends no key to the plugin's listener running with another key, and says so", async () => {
    await withListener('cd34'.repeat(24), async (port, events, log) => {
      const result = await sendTestEvent(target(port));
      expect(result.ok).toBe(false);
      expect(result.message).toMatch(/runs with another API key/);
      expect(events).toEqual([]);
      expect(log.texts('warn')).toEqual([]);
    });
  });
});

describe('Send test event over HTTPS', () => {
  let dir = '';
  let certFile = '';
  let otherCertFile = '';
  let cert = '';
  let key = '';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'test-event-tls-'));
    ({ certFile, cert, key } = makeSelfSignedCertificate(dir, 'listener', 'DNS:homebridge.example.com'));
    otherCertFile = makeSelfSignedCertificate(dir, 'other', 'DNS:homebridge.example.com').certFile;
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function withListener(run: (port: number, events: WebhookEvent[]) => Promise<void>): Promise<void> {
    const events: WebhookEvent[] = [];
    const receiver = new WebhookReceiver({
      port: 0,
      host: '127.0.0.1',
      apiKey: KEY,
      tls: { cert, key },
      onEvent: (event) => void events.push(event),
      log: captureLog(),
    });
    await receiver.start();
    try {
      await run(receiver.port, events);
    } finally {
      await receiver.stop();
    }
  }

  it('verifies the listener against the certificate its saved settings name, though it is self-signed for another name', async () => {
    await withListener(async (port, events) => {
      const result = await sendTestEvent(target(port, { tls: true, certFile }));
      expect(result.ok).toBe(true);
      expect(result.message).toMatch(/answered 200 \{"message":"ok"\}, as this plugin's listener does when it takes the key/);
      expect(result.message).toContain(`It presented the certificate in ${certFile}.`);
      await expect.poll(() => events.length).toBe(1);
    });
  });

  it('sends no key to a listener presenting another certificate than the saved one', async () => {
    await withListener(async (port, events) => {
      const result = await sendTestEvent(target(port, { tls: true, certFile: otherCertFile }));
      expect(result).toEqual({
        ok: false,
        message: `The listener on 127.0.0.1:${port} presents another certificate than ${otherCertFile}, so the key was not sent. Save and restart Homebridge so it runs with that certificate.`,
      });
      expect(events).toEqual([]);
    });
  });

  it('says so when no saved certificate could be checked', async () => {
    await withListener(async (port, events) => {
      const result = await sendTestEvent(target(port, { tls: true, certFile: undefined }));
      expect(result.ok).toBe(true);
      expect(result.message).toMatch(/Its certificate was not verified: the saved settings name no certificate for port \d+\.$/);
      await expect.poll(() => events.length).toBe(1);
    });
  });
});

// WebhookReceiver over real loopback HTTP(S): key, method, path, size and time bounds, ack-before-work, shutdown, and the simulator end to end.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent as HttpAgent, createServer, request as httpRequest, ServerResponse } from 'node:http';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { connect as tlsConnect } from 'node:tls';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  WEBHOOK_MAX_BODY_BYTES,
  WEBHOOK_MAX_CONNECTIONS,
  WEBHOOK_MAX_CONNECTIONS_PER_CLIENT,
  WEBHOOK_MAX_REQUESTS_PER_CONNECTION,
} from '../../../src/settings.js';
import {
  AccessControlSimulator,
  SAMPLE_ACCOUNT_USER,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
} from '../../../dev/simulator/server.js';
import type { WebhookEvent } from '../../../src/webhook/event.js';
import { WebhookReceiver } from '../../../src/webhook/receiver.js';
import type { WebhookReceiverOptions } from '../../../src/webhook/receiver.js';
import { captureLog } from '../../support/log.js';
import type { LogLine } from '../../support/log.js';
import { closeServer, listenOnLoopback } from '../../support/loopback.js';
import { makeSelfSignedCertificate } from '../../support/certificates.js';

/** Like the service's: 96 hexadecimal characters (contract 6.3). */
const KEY = randomBytes(48).toString('hex');
const WRONG_KEY = randomBytes(48).toString('hex');
const SHORT_TIMEOUTS = { headersMs: 200, requestMs: 300 };
const DOOR_EVENT = { id: 'evt-1', eventType: 'door_state_change', doorID: 'door-1', doorState: 'OPEN', eventOccurred: 1_700_000_000 };

interface Harness {
  receiver: WebhookReceiver;
  events: WebhookEvent[];
  lines: LogLine[];
}

async function startReceiver(options: Partial<WebhookReceiverOptions> = {}): Promise<Harness> {
  const events: WebhookEvent[] = [];
  const log = captureLog();
  const receiver = new WebhookReceiver({
    port: 0,
    host: '127.0.0.1',
    apiKey: KEY,
    onEvent: (event) => void events.push(event),
    log,
    ...options,
  });
  await receiver.start();
  return { receiver, events, lines: log.lines };
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(
  url: string,
  body: string | Buffer,
  headers: OutgoingHttpHeaders = {},
  extra: { method?: string; ca?: string; agent?: HttpAgent } = {},
): Promise<Reply> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(target, {
      method: extra.method ?? 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      agent: extra.agent ?? false,
      ca: extra.ca,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(body);
  });
}

const post = (url: string, body: unknown, headers: OutgoingHttpHeaders = { 'x-service-api-key': KEY }) =>
  send(url, typeof body === 'string' ? body : JSON.stringify(body), headers);

// eslint-disable-next-line @typescript-eslint/unbound-method -- spies call it back with its own `this` through Reflect.apply.
const originalEnd = ServerResponse.prototype.end;

/** A raw TCP client: resolves with everything the server sent once it closes the connection (or after `waitMs`). */
function rawClient(port: number, waitMs = 3_000) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined); // EPIPE / ECONNRESET once the server hangs up are expected here.
  const closed = new Promise<{ received: string; closedByServer: boolean }>((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received, closedByServer: false });
    }, waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received, closedByServer: true });
    });
  });
  return { socket, closed, received: () => received };
}

const headerBlock = (lines: string[]) => `${['POST / HTTP/1.1', 'Host: 127.0.0.1', ...lines].join('\r\n')}\r\n\r\n`;

describe('WebhookReceiver', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startReceiver();
  });

  afterAll(async () => {
    await h.receiver.stop();
  });

  afterEach(() => {
    h.events.length = 0;
    h.lines.length = 0;
    vi.restoreAllMocks();
  });

  it('answers a valid event 200 first, then hands it to onEvent', async () => {
    const order: string[] = [];
    vi.spyOn(ServerResponse.prototype, 'end').mockImplementation(function (this: ServerResponse, ...args: unknown[]) {
      order.push(`end ${this.statusCode}`);
      return Reflect.apply(originalEnd, this, args) as ServerResponse;
    });
    const seen: WebhookEvent[] = [];
    const local = await startReceiver({ onEvent: (event) => void (order.push('onEvent'), seen.push(event)) });
    try {
      const reply = await post(local.receiver.url, DOOR_EVENT);
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toEqual({ message: 'ok' });
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      await vi.waitFor(() => expect(seen).toHaveLength(1));
      expect(order).toEqual(['end 200', 'onEvent']);
      expect(seen[0]).toMatchObject({
        id: 'evt-1',
        kind: 'door-state',
        doorId: 'door-1',
        doorState: 'OPEN',
        occurredAtMs: 1_700_000_000_000,
      });
      expect(local.receiver.stats).toEqual({ accepted: 1, unauthorized: 0, rejected: 0 });
      expect(local.receiver.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    } finally {
      await local.receiver.stop();
    }
  });

  it('does not hold the 200 back for a slow handler', async () => {
    const local = await startReceiver({ onEvent: () => new Promise<void>(() => undefined) });
    try {
      expect((await post(local.receiver.url, DOOR_EVENT)).status).toBe(200);
    } finally {
      await local.receiver.stop();
    }
  });

  it('reads both field spellings and the door-numbered form', async () => {
    await post(h.receiver.url, DOOR_EVENT);
    await post(h.receiver.url, { eventType: 'door_state_change', doorId: 'door-2', deviceId: 'dev-2', doorState: 'CLOSED' });
    await post(h.receiver.url, { eventType: 'door1_open', deviceID: 'dev-3' });
    await vi.waitFor(() => expect(h.events).toHaveLength(3));
    expect(h.events.map((e) => [e.doorId, e.deviceId, e.doorNumber, e.doorState])).toEqual([
      ['door-1', undefined, undefined, 'OPEN'],
      ['door-2', 'dev-2', undefined, 'CLOSED'],
      [undefined, 'dev-3', 1, 'OPEN'],
    ]);
  });

  it('passes unknown event types on with 200 and a debug line', async () => {
    expect((await post(h.receiver.url, { eventType: 'battery_low', doorID: 'nowhere' })).status).toBe(200);
    await vi.waitFor(() => expect(h.events).toHaveLength(1));
    expect(h.events[0]?.kind).toBe('unknown');
    expect(h.lines).toContainEqual({ level: 'debug', text: 'Webhook of an unknown type, passed on: battery_low' });
  });

  it('refuses a wrong or missing key with 401, applies nothing, never logs a key, and warns at most once a minute', async () => {
    const before = { ...h.receiver.stats };
    const wrong = await post(h.receiver.url, DOOR_EVENT, { 'x-service-api-key': WRONG_KEY });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toEqual({ message: 'missing or wrong API key' });
    expect((await post(h.receiver.url, DOOR_EVENT, {})).status).toBe(401);
    expect((await post(h.receiver.url, DOOR_EVENT, { 'x-service-api-key': KEY.slice(0, -1) })).status).toBe(401);
    expect((await post(h.receiver.url, DOOR_EVENT, { 'x-service-api-key': '' })).status).toBe(401);
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.events).toEqual([]);
    expect(h.receiver.stats.unauthorized - before.unauthorized).toBe(4);
    const warnings = h.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.text).toContain('refused (401): a wrong API key in X-Service-API-Key');
    expect(h.lines.map((line) => line.text).join('\n')).toContain('refused (401): no X-Service-API-Key header');
    const everything = JSON.stringify(h.lines);
    expect(everything).not.toContain(KEY.slice(0, 16));
    expect(everything).not.toContain(WRONG_KEY.slice(0, 16));
  });

  it('takes the hexadecimal key in either case, as the settings do, and still refuses another key in upper case', async () => {
    expect((await post(h.receiver.url, DOOR_EVENT, { 'x-service-api-key': KEY.toUpperCase() })).status).toBe(200);
    const upper = await startReceiver({ apiKey: KEY.toUpperCase() });
    try {
      expect((await post(upper.receiver.url, DOOR_EVENT, { 'x-service-api-key': KEY })).status).toBe(200);
      expect((await post(upper.receiver.url, DOOR_EVENT, { 'x-service-api-key': WRONG_KEY.toUpperCase() })).status).toBe(401);
    } finally {
      await upper.receiver.stop();
    }
  });

  it('passes on no webhook key or access token a body holds, to the event or the log (issue 38)', async () => {
    const token = 'receiver-token-3c9d51';
    const local = await startReceiver({ secrets: [token] });
    try {
      const body = { ...DOOR_EVENT, userThatToggled: { firstName: KEY.toUpperCase(), lastName: token }, channel: `App ${token}` };
      expect((await post(local.receiver.url, body)).status).toBe(200);
      await expect.poll(() => local.events.length).toBe(1);
      expect(local.events[0]?.summary).toBe('door_state_change: OPEN by [redacted] [redacted] (App [redacted])');
      const everything = JSON.stringify([local.events, local.lines]).toLowerCase();
      expect(everything).not.toContain(KEY);
      expect(everything).not.toContain(token);
    } finally {
      await local.receiver.stop();
    }
  });

  it('matches the header name case-insensitively, and honours a custom one', async () => {
    expect((await post(h.receiver.url, DOOR_EVENT, { 'X-SERVICE-API-KEY': KEY })).status).toBe(200);
    const local = await startReceiver({ headerName: 'X-Hook-Secret' });
    try {
      expect((await post(local.receiver.url, DOOR_EVENT, { 'x-hook-secret': KEY })).status).toBe(200);
      expect((await post(local.receiver.url, DOOR_EVENT, { 'x-service-api-key': KEY })).status).toBe(401);
    } finally {
      await local.receiver.stop();
    }
  });

  it('answers anything but POST with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const reply = await send(h.receiver.url, '', { 'x-service-api-key': KEY }, { method });
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('POST');
      expect(JSON.parse(reply.body)).toEqual({ message: 'only POST is accepted' });
    }
  });

  it('answers 400 to malformed JSON and to bodies that are not objects', async () => {
    for (const body of ['{"eventType": "door_state_change"', '', 'null', '[]', '[{"eventType":"door1_open"}]', '"door1_open"', '42']) {
      const reply = await post(h.receiver.url, body);
      expect(reply.status, body).toBe(400);
      expect(typeof (JSON.parse(reply.body) as { message: unknown }).message).toBe('string');
    }
    expect(h.events).toEqual([]);
  });

  it('accepts a body of exactly the limit, and a gzip-encoded one', async () => {
    const base = JSON.stringify({ ...DOOR_EVENT, padding: '' });
    const exact = JSON.stringify({ ...DOOR_EVENT, padding: 'x'.repeat(WEBHOOK_MAX_BODY_BYTES - base.length) });
    expect(Buffer.byteLength(exact)).toBe(WEBHOOK_MAX_BODY_BYTES);
    expect((await post(h.receiver.url, exact)).status).toBe(200);
    const zipped = gzipSync(JSON.stringify(DOOR_EVENT));
    expect((await send(h.receiver.url, zipped, { 'x-service-api-key': KEY, 'content-encoding': 'gzip' })).status).toBe(200);
    const bomb = gzipSync(Buffer.alloc(WEBHOOK_MAX_BODY_BYTES * 4, 0x20));
    expect((await send(h.receiver.url, bomb, { 'x-service-api-key': KEY, 'content-encoding': 'gzip' })).status).toBe(413);
  });

  it('refuses an oversized Content-Length with 413 at once, before any of the body is sent', async () => {
    const client = rawClient(h.receiver.port);
    client.socket.write(headerBlock([`X-Service-API-Key: ${KEY}`, `Content-Length: ${10 * 1024 * 1024}`]) + '{"eventType":');
    const { received, closedByServer } = await client.closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(received.toLowerCase()).toContain('connection: close');
    expect(closedByServer).toBe(true);
  });

  it('stops reading a chunked body that grows past the limit, answers 413 and hangs up', async () => {
    const client = rawClient(h.receiver.port);
    client.socket.write(headerBlock([`X-Service-API-Key: ${KEY}`, 'Transfer-Encoding: chunked']));
    const chunk = `2000\r\n${' '.repeat(0x2000)}\r\n`;
    let sent = 0;
    while (client.received() === '' && !client.socket.destroyed && sent < 4 * 1024 * 1024) {
      client.socket.write(chunk);
      sent += 0x2000;
      await new Promise((resolve) => setImmediate(resolve));
    }
    const { received, closedByServer } = await client.closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(closedByServer).toBe(true);
    expect(h.events).toEqual([]);
  });

  it('cuts off a client that stalls in its body, and one that never sends its headers', async () => {
    const local = await startReceiver({ timeouts: SHORT_TIMEOUTS });
    try {
      const stalledBody = rawClient(local.receiver.port);
      stalledBody.socket.write(headerBlock([`X-Service-API-Key: ${KEY}`, 'Content-Length: 100']) + '{"eventType"');
      const silent = rawClient(local.receiver.port);
      silent.socket.write('POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const [body, headers] = await Promise.all([stalledBody.closed, silent.closed]);
      expect(body.closedByServer).toBe(true);
      expect(body.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(headers.closedByServer).toBe(true);
      expect(headers.received).toMatch(/^HTTP\/1\.1 408 /);
      expect(local.events).toEqual([]);
      expect(local.receiver.stats.rejected).toBe(2);
    } finally {
      await local.receiver.stop();
    }
  });

  it('asks for the body of an Expect: 100-continue request only once the key is right', async () => {
    const refused = rawClient(h.receiver.port);
    refused.socket.write(headerBlock(['X-Service-API-Key: nope', 'Content-Length: 20', 'Expect: 100-continue']));
    await vi.waitFor(() => expect(refused.received()).toMatch(/^HTTP\/1\.1 401 /));
    refused.socket.destroy();
    const body = JSON.stringify(DOOR_EVENT);
    const accepted = rawClient(h.receiver.port);
    accepted.socket.write(headerBlock([`X-Service-API-Key: ${KEY}`, `Content-Length: ${body.length}`, 'Expect: 100-continue']));
    await vi.waitFor(() => expect(accepted.received()).toMatch(/^HTTP\/1\.1 100 Continue/));
    accepted.socket.write(body);
    await vi.waitFor(() => expect(accepted.received()).toContain('HTTP/1.1 200 OK'));
    accepted.socket.destroy();
  });

  it('serves only the configured path when one is set', async () => {
    const local = await startReceiver({ path: '/hooks/access' });
    try {
      expect(local.receiver.url).toMatch(/\/hooks\/access$/);
      expect((await post(local.receiver.url, DOOR_EVENT)).status).toBe(200);
      expect((await post(`${local.receiver.url}?source=service`, DOOR_EVENT)).status).toBe(200);
      const elsewhere = await post(local.receiver.url.replace('/hooks/access', '/'), DOOR_EVENT);
      expect(elsewhere.status).toBe(404);
      expect(JSON.parse(elsewhere.body)).toEqual({ message: 'not found' });
      expect((await post(`${local.receiver.url}/more`, DOOR_EVENT)).status).toBe(404);
    } finally {
      await local.receiver.stop();
    }
    // Without a path option any path is served.
    expect((await post(`${h.receiver.url}anything/at/all`, DOOR_EVENT)).status).toBe(200);
  });

  it('does not hand on an event acknowledged just before stop()', async () => {
    const local = await startReceiver();
    vi.spyOn(ServerResponse.prototype, 'end').mockImplementation(function (this: ServerResponse, ...args: unknown[]) {
      const result = Reflect.apply(originalEnd, this, args) as ServerResponse;
      void local.receiver.stop(); // the platform shuts down between the 200 and the hand-over
      return result;
    });
    expect((await post(local.receiver.url, DOOR_EVENT)).status).toBe(200);
    await local.receiver.stop();
    expect(local.events).toEqual([]);
    expect(local.lines.at(-1)?.text).toBe('Webhook dropped, the receiver is stopping: door_state_change: OPEN');
  });

  it('keeps working after a handler throws or rejects', async () => {
    let calls = 0;
    const local = await startReceiver({
      onEvent: (event) => {
        calls += 1;
        if (event.id === 'throw') throw new Error('handler exploded');
        if (event.id === 'reject') return Promise.reject(new Error('handler rejected'));
      },
    });
    try {
      expect((await post(local.receiver.url, { ...DOOR_EVENT, id: 'throw' })).status).toBe(200);
      expect((await post(local.receiver.url, { ...DOOR_EVENT, id: 'reject' })).status).toBe(200);
      expect((await post(local.receiver.url, { ...DOOR_EVENT, id: 'fine' })).status).toBe(200);
      await vi.waitFor(() => expect(calls).toBe(3));
      await vi.waitFor(() => expect(local.lines.filter((line) => line.level === 'error')).toHaveLength(2));
      expect(local.lines.find((line) => line.level === 'error')?.text).toContain('handler exploded');
    } finally {
      await local.receiver.stop();
    }
  });
});

describe('WebhookReceiver connection caps', () => {
  const LIMITS = { maxConnections: 6, maxConnectionsPerClient: 4, maxRequestsPerConnection: 2 };
  /** Idle connections may make room as soon as they are open: these tests open them a moment before. */
  const EVICT_AT_ONCE = { evictIdleAfterMs: 0 };
  const LONG_TIMEOUTS = { headersMs: 10_000, requestMs: 10_000 };
  const BODY = JSON.stringify(DOOR_EVENT);
  /** Every connection a test opened, closed after it whatever happened. */
  const opened: Socket[] = [];

  afterEach(() => {
    for (const socket of opened.splice(0)) socket.destroy();
  });

  /** A connection from the loopback address `from`; `served` resolves once a webhook sent on it got its 200. */
  function open(port: number, from: string) {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    opened.push(socket);
    let received = '';
    let closedNow = false;
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined); // a refused or closed connection is reset or ended; both are expected here
    const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const closed = new Promise<string>((resolve) =>
      socket.once('close', () => {
        closedNow = true;
        resolve(received);
      }),
    );
    const served = (): Promise<void> => {
      socket.write(
        headerBlock([`X-Service-API-Key: ${KEY}`, 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(BODY)}`]) + BODY,
      );
      return vi.waitFor(() => expect(received).toMatch(/^HTTP\/1\.1 200/), { timeout: 5_000 });
    };
    /** Starts a webhook and holds its body back until the listener asks for it: the connection is busy with a request. */
    const busy = (): Promise<void> => {
      socket.write(
        headerBlock([
          `X-Service-API-Key: ${KEY}`,
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(BODY)}`,
          'Expect: 100-continue',
        ]),
      );
      return vi.waitFor(() => expect(received).toMatch(/^HTTP\/1\.1 100 Continue/), { timeout: 5_000 });
    };
    /** Sends the body a busy connection held back; resolves once it got its 200. */
    const finish = (): Promise<void> => {
      socket.write(BODY);
      return vi.waitFor(() => expect(received).toMatch(/HTTP\/1\.1 200/), { timeout: 5_000 });
    };
    return { socket, connected, closed, served, busy, finish, isClosed: () => closedNow };
  }

  const warnings = (lines: LogLine[]) => lines.filter((line) => line.level === 'warn').map((line) => line.text);

  it('takes a real webhook when the listener is full of idle connections from two addresses, closing the oldest idle one', async () => {
    // The caps of settings.ts: 64 idle connections from each of two addresses fill all 128.
    const limits = {
      maxConnections: WEBHOOK_MAX_CONNECTIONS,
      maxConnectionsPerClient: WEBHOOK_MAX_CONNECTIONS_PER_CLIENT,
      maxRequestsPerConnection: WEBHOOK_MAX_REQUESTS_PER_CONNECTION,
      ...EVICT_AT_ONCE,
    };
    const local = await startReceiver({ timeouts: LONG_TIMEOUTS, limits });
    const port = local.receiver.port;
    const idle = [
      ...Array.from({ length: 64 }, () => open(port, '127.0.0.2')),
      ...Array.from({ length: 64 }, () => open(port, '127.0.0.3')),
    ];
    try {
      await Promise.all(idle.map((c) => c.connected));
      // Before the fix the service's webhook got a socket hang-up here.
      const reply = await post(local.receiver.url, DOOR_EVENT);
      expect(reply.status).toBe(200);
      await vi.waitFor(() => expect(local.events.map((event) => event.doorId)).toEqual(['door-1']));
      // The connection waiting longest made room, and only it.
      expect(await idle[0]?.closed).toBe('');
      expect(idle.filter((c) => c.isClosed())).toHaveLength(1);
      expect(warnings(local.lines)).toEqual([
        'The webhook listener holds its limit of 128 connections, so it closed the oldest one that sent nothing (from 127.0.0.2) to take a new one from 127.0.0.1: a flood, or a client that opens connections without using them. Webhooks still get through.',
      ]);
      expect(local.receiver.stats.rejected).toBe(0);
    } finally {
      await local.receiver.stop();
    }
  });

  it("at one client's cap closes that client's oldest idle connection, not another's", async () => {
    const refusals: number[] = [];
    const local = await startReceiver({
      limits: { ...LIMITS, ...EVICT_AT_ONCE },
      timeouts: LONG_TIMEOUTS,
      onConnectionRefused: () => refusals.push(1),
    });
    const port = local.receiver.port;
    try {
      const other = open(port, '127.0.0.3');
      await other.connected;
      const mine = Array.from({ length: LIMITS.maxConnectionsPerClient }, () => open(port, '127.0.0.2'));
      await Promise.all(mine.map((c) => c.connected));
      const next = open(port, '127.0.0.2');
      await next.served();
      expect(await mine[0]?.closed).toBe('');
      expect(other.isClosed()).toBe(false);
      expect(refusals).toEqual([]);
      expect(warnings(local.lines)).toEqual([
        'The webhook listener holds its limit of 4 connections from 127.0.0.2, so it closed the oldest one that sent nothing (from 127.0.0.2) to take a new one from 127.0.0.2: a flood, or a client that opens connections without using them. Webhooks still get through.',
      ]);
    } finally {
      await local.receiver.stop();
    }
  });

  it('never closes a connection opened moments ago, whose webhook may not be read yet: refuses the new one instead', async () => {
    let refusals = 0;
    const local = await startReceiver({
      limits: { ...LIMITS, evictIdleAfterMs: 60_000 },
      timeouts: LONG_TIMEOUTS,
      onConnectionRefused: () => (refusals += 1),
    });
    const port = local.receiver.port;
    try {
      const young = Array.from({ length: LIMITS.maxConnectionsPerClient }, () => open(port, '127.0.0.2'));
      await Promise.all(young.map((c) => c.connected));
      expect(await open(port, '127.0.0.2').closed).toBe('');
      expect(refusals).toBe(1);
      expect(young.filter((c) => c.isClosed())).toEqual([]);
      expect(warnings(local.lines)).toEqual([
        expect.stringMatching(
          /^The webhook listener is full \(its limit of 4 connections from 127\.0\.0\.2, each busy with a request or opened in the last 60 s\), so it refused/,
        ) as string,
      ]);
    } finally {
      await local.receiver.stop();
    }
  });

  it('refuses a new connection only when every held one is busy with a request, says what the plugin does, and serves again once they go', async () => {
    let refusals = 0;
    const local = await startReceiver({
      limits: LIMITS,
      timeouts: LONG_TIMEOUTS,
      onConnectionRefused: () => (refusals += 1),
      refusedAdvice: 'the plugin polls every 15 s until webhooks arrive again',
    });
    const port = local.receiver.port;
    const held: ReturnType<typeof open>[] = [];
    try {
      for (let i = 0; i < LIMITS.maxConnectionsPerClient; i += 1) {
        held.push(open(port, '127.0.0.1'));
      }
      await Promise.all(held.map((c) => c.busy()));
      // One client past its own share, all of it busy: closed at once, nothing read from it, nothing answered.
      expect(await open(port, '127.0.0.1').closed).toBe('');
      expect(refusals).toBe(1);
      const others = [open(port, '127.0.0.2'), open(port, '127.0.0.2')];
      await Promise.all(others.map((c) => c.busy()));
      held.push(...others);
      // The listener is full of busy connections: a third client gets nothing either.
      expect(await open(port, '127.0.0.3').closed).toBe('');
      expect(refusals).toBe(2);
      expect(local.receiver.stats.rejected).toBe(2);
      expect(warnings(local.lines)).toEqual([
        'The webhook listener is full (its limit of 4 connections from 127.0.0.1, each busy with a request or opened in the last 2 s), so it refused a new connection from 127.0.0.1 unanswered; any webhook on it is lost, so the plugin polls every 15 s until webhooks arrive again. A flood, or clients that keep requests open; if it repeats, check who reaches the port.',
      ]);
      expect(local.lines.map((line) => line.text)).toContain(
        'The webhook listener is full (its limit of 6 connections, each busy with a request or opened in the last 2 s), so it refused a new connection from 127.0.0.3 unanswered; any webhook on it is lost, so the plugin polls every 15 s until webhooks arrive again.',
      );
      expect(warnings(local.lines).join('\n')).not.toMatch(/HomeKit is not affected/);
      // The held requests were never cut short by the refusals.
      await Promise.all(held.map((c) => c.finish()));
      for (const c of held) c.socket.destroy();
      await Promise.all(held.map((c) => c.closed));
      await vi.waitFor(async () => expect((await post(local.receiver.url, DOOR_EVENT)).status).toBe(200), { timeout: 5_000 });
    } finally {
      await local.receiver.stop();
    }
  });

  it('closes a kept-alive connection after its share of requests', async () => {
    const local = await startReceiver({ limits: LIMITS });
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    try {
      const body = JSON.stringify(DOOR_EVENT);
      const headers = { 'x-service-api-key': KEY };
      const first = await send(local.receiver.url, body, headers, { agent });
      const second = await send(local.receiver.url, body, headers, { agent });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect([first.headers.connection, second.headers.connection]).toEqual(['keep-alive', 'close']);
    } finally {
      agent.destroy();
      await local.receiver.stop();
    }
  });
});

describe('WebhookReceiver lifecycle', () => {
  it('logs one line when listening, on all interfaces by default', async () => {
    const local = await startReceiver({ host: undefined });
    try {
      expect(local.lines).toEqual([
        {
          level: 'info',
          text: expect.stringMatching(
            /^Webhook listener on http:\/\/(\[::\]|0\.0\.0\.0):\d+\/ \(all interfaces\); the service only calls https/,
          ) as string,
        },
      ]);
      // Reachable over IPv4 loopback even when Node picked the dual-stack '::'.
      expect((await post(local.receiver.url, DOOR_EVENT)).status).toBe(200);
    } finally {
      await local.receiver.stop();
    }
  });

  it('gives no advice for a listener reachable from outside when only this machine reaches it (loopback, as in the demo)', async () => {
    const local = await startReceiver({ host: '127.0.0.1' });
    try {
      expect(local.lines.map((line) => line.text)).toEqual([expect.stringMatching(/^Webhook listener on http:\/\/127\.0\.0\.1:\d+\/$/)]);
    } finally {
      await local.receiver.stop();
    }
  });

  it('rejects start() with one clear sentence when the port is taken, and leaves nothing open', async () => {
    const blocker = createServer();
    const port = await listenOnLoopback(blocker);
    const receiver = new WebhookReceiver({ port, host: '127.0.0.1', apiKey: KEY, onEvent: () => undefined, log: captureLog() });
    await expect(receiver.start()).rejects.toThrow(new RegExp(`^port ${port} is already in use$`));
    expect(() => receiver.port).toThrow('not listening');
    await receiver.stop();
    await closeServer(blocker);
    // Nothing half-open was left behind: the same receiver now gets the port.
    await receiver.start();
    expect(receiver.port).toBe(port);
    await receiver.stop();
  });

  it('rejects start() with an empty key or an unusable certificate', async () => {
    const noKey = new WebhookReceiver({ port: 0, apiKey: '  ', onEvent: () => undefined, log: captureLog() });
    await expect(noKey.start()).rejects.toThrow('the webhook API key is empty');
    const badTls = new WebhookReceiver({
      port: 0,
      apiKey: KEY,
      tls: { cert: 'not a cert', key: 'not a key' },
      onEvent: () => undefined,
      log: captureLog(),
    });
    await expect(badTls.start()).rejects.toThrow(/^the webhook TLS certificate or key cannot be used/);
  });

  it('stop() closes kept-alive and stalled connections, is idempotent, and is fine when never started', async () => {
    await new WebhookReceiver({ port: 0, apiKey: KEY, onEvent: () => undefined, log: captureLog() }).stop();
    const local = await startReceiver();
    const port = local.receiver.port;
    const agent = new HttpAgent({ keepAlive: true });
    expect((await send(local.receiver.url, JSON.stringify(DOOR_EVENT), { 'x-service-api-key': KEY }, { agent })).status).toBe(200);
    const kept = Object.values(agent.freeSockets).flat();
    expect(kept).toHaveLength(1);
    const keptClosed = new Promise((resolve) => kept[0]?.once('close', resolve));
    const stalled = rawClient(port, 10_000);
    stalled.socket.write('POST / HTTP/1.1\r\n');
    // The listener and the server side of both connections keep the process alive until stop().
    await vi.waitFor(() => expect(handlesOn(port).filter((h) => h.listening === true || h.localPort === port)).toHaveLength(3));
    const started = Date.now();
    await Promise.all([local.receiver.stop(), local.receiver.stop()]);
    await keptClosed;
    expect((await stalled.closed).closedByServer).toBe(true);
    // Well under the 5 s keep-alive time-out: the sockets were closed, not waited out.
    expect(Date.now() - started).toBeLessThan(2_000);
    agent.destroy();
    await vi.waitFor(() => expect(handlesOn(port)).toEqual([]));
    await local.receiver.stop();
  });
});

interface HandleInfo {
  listening?: boolean;
  localPort?: number;
  remotePort?: number;
}

/** Live handles (what keeps a process from exiting) bound to or connected to `port`. */
function handlesOn(port: number): HandleInfo[] {
  // Undocumented but long-standing (why-is-node-running relies on it): the objects behind getActiveResourcesInfo().
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles
    .map((handle): HandleInfo | undefined => {
      if (handle instanceof Server) {
        const address = handle.address();
        return typeof address === 'object' && address?.port === port ? { listening: true } : undefined;
      }
      if (handle instanceof Socket && (handle.localPort === port || handle.remotePort === port)) {
        return { localPort: handle.localPort, remotePort: handle.remotePort };
      }
      return undefined;
    })
    .filter((info): info is HandleInfo => info !== undefined);
}

describe('WebhookReceiver over HTTPS', () => {
  let dir: string | undefined;
  let cert = '';
  let key = '';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-tls-'));
    ({ cert, key } = makeSelfSignedCertificate(dir, 'listener', 'IP:127.0.0.1,DNS:localhost'));
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS with the given certificate, verified by a client that trusts it', async () => {
    const local = await startReceiver({ tls: { cert, key } });
    try {
      expect(local.receiver.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/$/);
      expect(local.lines).toEqual([
        { level: 'info', text: expect.stringMatching(/^Webhook listener on https:\/\/127\.0\.0\.1:\d+\/$/) as string },
      ]);
      const reply = await send(local.receiver.url, JSON.stringify(DOOR_EVENT), { 'x-service-api-key': KEY }, { ca: cert });
      expect(reply.status).toBe(200);
      await vi.waitFor(() => expect(local.events).toHaveLength(1));
      // A plain-HTTP client is not answered as HTTP at all.
      await expect(post(local.receiver.url.replace('https:', 'http:'), DOOR_EVENT)).rejects.toThrow();
    } finally {
      await local.receiver.stop();
    }
  });

  it('at its cap closes a TLS connection that sent no request after its handshake, never one busy with a request', async () => {
    const local = await startReceiver({
      tls: { cert, key },
      limits: { maxConnections: 2, maxConnectionsPerClient: 2, maxRequestsPerConnection: 2, evictIdleAfterMs: 0 },
    });
    const sockets: Socket[] = [];
    const secure = async () => {
      const socket = tlsConnect({ port: local.receiver.port, host: '127.0.0.1', ca: cert });
      sockets.push(socket);
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      socket.on('error', () => undefined);
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await new Promise((resolve) => socket.once('secureConnect', resolve));
      return { socket, closed, received: () => received };
    };
    try {
      const body = JSON.stringify(DOOR_EVENT);
      // Oldest: busy with a request whose body waits for the go-ahead. Then one that shook hands and said nothing since.
      const busy = await secure();
      busy.socket.write(headerBlock([`X-Service-API-Key: ${KEY}`, `Content-Length: ${Buffer.byteLength(body)}`, 'Expect: 100-continue']));
      await vi.waitFor(() => expect(busy.received()).toMatch(/^HTTP\/1\.1 100 Continue/));
      const quiet = await secure();
      const reply = await send(local.receiver.url, body, { 'x-service-api-key': KEY }, { ca: cert });
      expect(reply.status).toBe(200);
      await quiet.closed;
      busy.socket.write(body);
      await vi.waitFor(() => expect(busy.received()).toMatch(/HTTP\/1\.1 200/));
    } finally {
      for (const socket of sockets) socket.destroy();
      await local.receiver.stop();
    }
  });

  it('cuts off a TLS client that stalls in its body, and one that never finishes its handshake', async () => {
    const local = await startReceiver({ tls: { cert, key }, timeouts: SHORT_TIMEOUTS });
    try {
      const secure = tlsConnect({ port: local.receiver.port, host: '127.0.0.1', ca: cert });
      let received = '';
      secure.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
      secure.on('error', () => undefined);
      await new Promise((resolve) => secure.once('secureConnect', resolve));
      secure.write(headerBlock([`X-Service-API-Key: ${KEY}`, 'Content-Length: 100']) + '{"eventType"');
      const noHandshake = rawClient(local.receiver.port);
      noHandshake.socket.write('\x16\x03\x01'); // the first bytes of a ClientHello, then silence
      await Promise.all([new Promise((resolve) => secure.once('close', resolve)), noHandshake.closed]);
      expect(received).toMatch(/^HTTP\/1\.1 408 /);
      expect((await noHandshake.closed).closedByServer).toBe(true);
      expect(local.events).toEqual([]);
    } finally {
      await local.receiver.stop();
    }
  });
});

describe('WebhookReceiver with the simulator', () => {
  it('receives a real door change end to end, in both spellings, and refuses malformed bodies', async () => {
    const local = await startReceiver({ path: '/webhook' });
    const sim = new AccessControlSimulator({
      accessToken: 'sim-token',
      travelTimeMs: 20,
      webhook: { url: local.receiver.url, apiKey: KEY },
    });
    await sim.start();
    try {
      sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { channel: 'Keypad' });
      await sim.flushWebhooks();
      expect(sim.webhookDeliveries.map((d) => d.status)).toEqual([200]);
      await vi.waitFor(() => expect(local.events).toHaveLength(1));
      const expectedName = `${SAMPLE_ACCOUNT_USER.firstName} ${SAMPLE_ACCOUNT_USER.lastName}`;
      expect(local.events[0]).toMatchObject({
        kind: 'door-state',
        eventType: 'door_state_change',
        doorId: SAMPLE_FRONT_GATE_ID,
        deviceId: SAMPLE_OWNED_DEVICE_ID,
        doorState: 'OPEN',
        channel: 'Keypad',
        summary: `door_state_change: OPEN by ${expectedName} (Keypad)`,
      });
      expect(local.events[0]?.occurredAtMs).toBeGreaterThan(Date.now() - 60_000);

      sim.setWebhook({ url: local.receiver.url, apiKey: KEY, spelling: 'table' });
      sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN');
      await sim.flushWebhooks();
      await vi.waitFor(() => expect(local.events).toHaveLength(2));
      expect(local.events[1]).toMatchObject({ doorId: SAMPLE_GARAGE_DOOR_ID, deviceId: SAMPLE_OWNED_DEVICE_ID, doorState: 'OPEN' });

      expect((await sim.sendRawWebhook('{"eventType": ')).status).toBe(400);
      expect((await sim.sendRawWebhook([sim.buildWebhookEvent(SAMPLE_FRONT_GATE_ID)])).status).toBe(400);
      const unsigned = await sim.sendRawWebhook(sim.buildWebhookEvent(SAMPLE_FRONT_GATE_ID), { 'X-Service-API-Key': null });
      expect(unsigned.status).toBe(401);
      expect(JSON.parse(unsigned.body)).toEqual({ message: 'missing or wrong API key' });
      expect((await sim.sendRawWebhook(sim.buildWebhookEvent(SAMPLE_FRONT_GATE_ID, { eventType: 'door1_close' }))).status).toBe(200);
      await vi.waitFor(() => expect(local.events).toHaveLength(3));
      expect(local.events[2]).toMatchObject({ kind: 'door-state', doorNumber: 1 });
      expect(local.receiver.stats).toEqual({ accepted: 3, unauthorized: 1, rejected: 2 });
    } finally {
      await sim.stop();
      await local.receiver.stop();
    }
  });
});

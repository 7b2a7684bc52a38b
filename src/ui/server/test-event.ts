// "Send test event" on the settings page: one authenticated, harmless event to the running listener, and what came back in words.
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

import { Agent, request } from 'undici';

import { deadlineSignal, within } from '../../util/clock.js';
import {
  DEFAULT_WEBHOOK_HEADER_NAME,
  LISTENER_NONCE_HEADER,
  LISTENER_PROOF_HEADER,
  TEST_EVENT_TIMEOUT_MS,
  WEBHOOK_TEST_EVENT_TYPE,
} from '../../settings.js';
import { keyDigest, listenerProof } from '../../webhook/api-key.js';
import { LABELS } from '../shared/labels.js';
import { listenerTrust, OTHER_CERTIFICATE } from './listener-tls.js';
import type { ListenerTrust } from './listener-tls.js';

export interface TestEventTarget {
  port: number;
  /** The listener's address; empty or a wildcard means this machine. */
  host: string | undefined;
  path: string | undefined;
  apiKey: string;
  headerName: string | undefined;
  tls: boolean;
  /** HTTPS only: the certificate file the saved settings give the listener on this port, to verify it against. */
  certFile: string | undefined;
}

export interface TestEventOptions {
  /** Whole-request bound, connection to last byte; tests shorten it. */
  deadlineMs?: number;
}

export interface TestEventResult {
  ok: boolean;
  message: string;
}

const WILDCARD_HOSTS = new Set(['', '0.0.0.0', '::', '[::]']);

/** Of an answer only this much is read: the plugin's listener answers in a few bytes. */
const MAX_ANSWER_BYTES = 1024;

/**
 * What the plugin's listener answers (src/webhook/request-handler.ts). A plain "200" proves nothing about who
 * answered; these bodies are what tells the plugin's listener apart from another program on the port.
 */
const LISTENER_ANSWERS: Partial<Record<number, string>> = { 200: 'ok', 401: 'missing or wrong API key', 404: 'not found' };

/** Whether an IP address is one of this machine's: loopback, or an address of one of its network interfaces. */
function ownAddress(ip: string): boolean {
  const plain = ip.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
  if (plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'))) return true;
  return Object.values(networkInterfaces()).some((addresses) =>
    (addresses ?? []).some((address) => address.address.toLowerCase() === plain),
  );
}

/**
 * The path as typed, if it is a plain absolute path: one leading /, nothing URL parsing would read as a host, query,
 * fragment or dot segment (a path `@host:port/` or `//host/` must never choose where the request goes). The first of
 * two layers: urlFromParts is the second, so either alone keeps the request on the host and port given.
 */
export function plainPath(path: string | undefined): string | undefined {
  const typed = path ?? '/';
  if (!typed.startsWith('/') || typed.startsWith('//') || /[\s\\?#]/.test(typed)) return undefined;
  return new URL(typed, 'http://listener.invalid').pathname === typed ? typed : undefined;
}

/**
 * The listener's URL, built from its parts, or why no request is sent. Only to this machine, where the plugin's listener
 * runs: a wildcard or empty host is 127.0.0.1, a name is looked up once and the request goes to the address of this
 * machine it gave, so the button cannot probe any other address.
 */
async function listenerUrl(target: Pick<TestEventTarget, 'port' | 'host' | 'path' | 'tls'>, deadlineMs: number): Promise<URL | string> {
  const path = plainPath(target.path);
  if (path === undefined) {
    return `The ${LABELS.path.replace(/ \(optional\)$/, '')} must start with a single / and hold no spaces, \\, ? or # (such as /access-control): no test event was sent.`;
  }
  const typed = (target.host ?? '').trim().replace(/^\[(.*)\]$/, '$1');
  let ip = WILDCARD_HOSTS.has(typed) ? '127.0.0.1' : typed;
  if (isIP(ip) === 0) {
    const found = await within(lookup(ip, { all: true }), deadlineMs, () => new Error('no answer')).catch(() => []);
    ip = found.find((address) => ownAddress(address.address))?.address ?? '';
  }
  if (!ownAddress(ip)) {
    return `${LABELS.host} is not an address of this machine: Send test event only sends to the listener of the Homebridge this page runs on, so no test event was sent. Leave it empty, or type one of this machine's addresses.`;
  }
  return urlFromParts(ip, target.port, path, target.tls);
}

/**
 * A URL built from its parts, never by joining text: the host and port are set as such and the path only as a path, so
 * no path, however written (`@host:port/`, `//host/`, `?`, `#`), can choose where the request goes or add a query.
 */
export function urlFromParts(ip: string, port: number, path: string, tls: boolean): URL {
  const url = new URL(`${tls ? 'https' : 'http'}://127.0.0.1`);
  url.hostname = isIP(ip) === 6 ? `[${ip}]` : ip;
  url.port = String(port);
  url.pathname = path;
  return url;
}

/** At most `MAX_ANSWER_BYTES` of the body; the rest is left unread (the connection is destroyed afterwards). */
async function readAnswer(body: AsyncIterable<Buffer>): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += chunk.toString('utf8');
    if (text.length >= MAX_ANSWER_BYTES) {
      break;
    }
  }
  return text.slice(0, MAX_ANSWER_BYTES);
}

function fromListener(status: number, answer: string): boolean {
  const expected = LISTENER_ANSWERS[status];
  try {
    return expected !== undefined && (JSON.parse(answer) as { message?: unknown } | null)?.message === expected;
  } catch {
    return false;
  }
}

/** A one-time value for the listener to prove itself with (128 bits, as hexadecimal). */
const nonce = (): string => randomBytes(16).toString('hex');

/** Whether an answer carries the proof that only a listener holding `apiKey` can give for `sent`. */
function proved(headers: Record<string, string | string[] | undefined>, apiKey: string, sent: string): boolean {
  const expected = listenerProof(keyDigest(apiKey), sent);
  const given = headers[LISTENER_PROOF_HEADER];
  return expected !== undefined && given === expected;
}

/**
 * Never throws. First a question without the key: only a listener that answers it with the proof of holding the same
 * key (the plugin's, running with these settings) is then sent the key, with the event. The event names no door, so it
 * can move none, and the plugin logs it as a test.
 */
export async function sendTestEvent(target: TestEventTarget, options: TestEventOptions = {}): Promise<TestEventResult> {
  const deadlineMs = options.deadlineMs ?? TEST_EVENT_TIMEOUT_MS;
  const url = await listenerUrl(target, deadlineMs);
  if (typeof url === 'string') {
    return { ok: false, message: url };
  }
  const trust = target.tls ? await listenerTrust(target.certFile, target.port) : undefined;
  const agent = new Agent({ connect: { timeout: deadlineMs, ...trust?.connect }, headersTimeout: deadlineMs, bodyTimeout: deadlineMs });
  const nowS = Math.floor(Date.now() / 1000);
  // The body time-out runs between chunks only: a listener trickling its answer a byte at a time would hold the
  // request for ever, so the whole exchange has this one deadline too.
  const signal = deadlineSignal(deadlineMs);
  try {
    const question = nonce();
    const probe = await request(url, {
      method: 'POST',
      dispatcher: agent,
      signal,
      headers: { 'content-type': 'application/json', [LISTENER_NONCE_HEADER]: question },
      body: '{}',
    });
    const probeAnswer = await readAnswer(probe.body);
    if (!proved(probe.headers, target.apiKey, question)) {
      return unproven(probe.statusCode, fromListener(probe.statusCode, probeAnswer), url);
    }
    if (probe.statusCode === 404) {
      return describeStatus(404, true, url, trust);
    }
    const check = nonce();
    const response = await request(url, {
      method: 'POST',
      dispatcher: agent,
      signal,
      headers: {
        'content-type': 'application/json',
        [LISTENER_NONCE_HEADER]: check,
        [target.headerName ?? DEFAULT_WEBHOOK_HEADER_NAME]: target.apiKey,
      },
      body: JSON.stringify({
        id: `settings-page-test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
        eventType: WEBHOOK_TEST_EVENT_TYPE,
        eventOccurred: nowS,
      }),
    });
    const answer = await readAnswer(response.body);
    const ours = fromListener(response.statusCode, answer) && proved(response.headers, target.apiKey, check);
    return describeStatus(response.statusCode, ours, url, trust);
  } catch (error) {
    return describeFailure(error as NodeJS.ErrnoException, url, trust, deadlineMs);
  } finally {
    // Destroyed, not closed: after a deadline the connection is still open and would stay so.
    void agent.destroy();
  }
}

/** The answer to the question did not prove the key: what it looked like, and that the key was not sent. */
function unproven(status: number, looksOurs: boolean, url: URL): TestEventResult {
  if (looksOurs) {
    return {
      ok: false,
      message: `A listener at ${url.origin} answers as this plugin's does, but could not prove it holds this API key, so the key was not sent: it runs with another API key (or is an older version of the plugin). Save, restart Homebridge, and try again.`,
    };
  }
  return {
    ok: false,
    message: `Something at ${url.origin} answered ${status === 200 ? '200' : `HTTP ${status}`}, but not as this plugin's listener answers, so the key was not sent: another program may have port ${url.port || (url.protocol === 'https:' ? '443' : '80')}. The Homebridge log says "Webhook listener on …" when the plugin's listener runs, or why it could not start.`,
  };
}

function describeStatus(status: number, ours: boolean, url: URL, trust: ListenerTrust | undefined): TestEventResult {
  if (!ours) {
    // Said as observed: a status alone does not make it the plugin's listener, let alone one that took the key.
    return {
      ok: false,
      message: `Something at ${url.origin} answered ${status === 200 ? '200' : `HTTP ${status}`}, but not as this plugin's listener answers: another program may have port ${url.port || (url.protocol === 'https:' ? '443' : '80')}. The Homebridge log says "Webhook listener on …" when the plugin's listener runs, or why it could not start.`,
    };
  }
  switch (status) {
    case 200: {
      const certificate =
        trust === undefined
          ? ''
          : trust.kind === 'pinned'
            ? ` It presented the certificate in ${trust.file}.`
            : ` Its certificate was not verified: ${trust.why}.`;
      return {
        ok: true,
        message: `${url.origin} proved it holds this API key and answered 200 {"message":"ok"}, as this plugin's listener does when it takes the key: it works on this machine. The Homebridge log confirms it with "Webhook test from the settings page received". The service must still reach it at your public HTTPS address.${certificate}`,
      };
    }
    case 401:
      return {
        ok: false,
        message: `The listener answered 401 (missing or wrong API key): it runs with another API key. Save, restart Homebridge, and try again.`,
      };
    default:
      return {
        ok: false,
        message: `The listener answered 404 (not found): it accepts webhooks on another path. Save, restart Homebridge, and try again.`,
      };
  }
}

const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/;

function describeFailure(error: NodeJS.ErrnoException, url: URL, trust: ListenerTrust | undefined, deadlineMs: number): TestEventResult {
  const code = error.code ?? '';
  if (error.name === 'TimeoutError' || error.name === 'AbortError' || (code.startsWith('UND_ERR') && code.includes('TIMEOUT'))) {
    return {
      ok: false,
      message: `The listener on ${url.host} did not answer within ${deadlineMs / 1000} seconds; the connection was closed.`,
    };
  }
  if (code === 'ECONNREFUSED') {
    return {
      ok: false,
      message: `No listener answers on ${url.host}. Save, restart Homebridge, then try again: the log says "Webhook listener on …" once it runs, or why it could not start.`,
    };
  }
  if (
    trust?.kind === 'pinned' &&
    (code === OTHER_CERTIFICATE || code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN')
  ) {
    return {
      ok: false,
      message: `The listener on ${url.host} presents another certificate than ${trust.file}, so the key was not sent. Save and restart Homebridge so it runs with that certificate.`,
    };
  }
  if (trust?.kind === 'pinned' && CERTIFICATE_CODES.test(code)) {
    return {
      ok: false,
      message: `The certificate of the listener on ${url.host} could not be verified against ${trust.file} (${code}), so the key was not sent.`,
    };
  }
  if (code === 'EPROTO' || code.startsWith('ERR_SSL') || /wrong version number|ssl/i.test(error.message)) {
    return {
      ok: false,
      message: `The listener on ${url.host} does not speak ${url.protocol === 'https:' ? 'HTTPS' : 'plain HTTP'}: save and restart Homebridge so it runs with these settings.`,
    };
  }
  return { ok: false, message: `The listener on ${url.host} could not be reached (${code || error.message}).` };
}

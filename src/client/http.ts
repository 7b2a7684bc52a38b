// One JSON request over a kept-alive undici connection pool: timeouts, size limit, gzip, and errors mapped to ServiceError.
import type { Dispatcher } from 'undici';

import { BoundedChunks, decodeBody } from '../util/body.js';
import { deadlineSignal } from '../util/clock.js';
import { oneLine } from '../util/log-text.js';
import { lookAlikesLoaded } from '../util/look-alikes.js';
import { namesOf, redact, redactParsed, withoutSecrets } from '../util/redact.js';
import {
  BODY_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_CONNECTIONS_PER_ORIGIN,
  MAX_RESPONSE_BYTES,
} from '../settings.js';
import { ServiceError } from './errors.js';
import { undiciParts } from './undici.js';
import type { Agent } from './undici.js';

/** An answer came but could not be read: the service had the request and may have acted on it. */
const ANSWERED = true;

export interface JsonResponse {
  status: number;
  /** Parsed JSON, or `undefined` when the body was empty. */
  body: unknown;
  retryAfterMs: number | undefined;
  /** Places in the request's `secrets` of those the answer quoted, in any spelling (the body has them as [redacted]). */
  quoted: number[];
}

export interface JsonRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: unknown;
  /** Whole-request time limit on top of the connection's own timeouts. */
  timeoutMs?: number;
  /**
   * What no text of the answer may pass on, the access token first, then the webhook key: every string in it, and the
   * text of a failure, is cleaned of them (src/util/redact.ts).
   */
  secrets: readonly string[];
  /**
   * The caller cleans the fields it reads (service-client.ts: a sync's, a history's, schemas.ts syncFieldsRead):
   * the answer's other fields (a 6 MB sync's images) are never walked. Without it, every string of the answer is cleaned here.
   */
  cleansWhatItReads?: boolean;
}

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: CONNECT_TIMEOUT_MS,
  headersMs: HEADERS_TIMEOUT_MS,
  bodyMs: BODY_TIMEOUT_MS,
};

export function createAgent(timeouts: Timeouts = DEFAULT_TIMEOUTS): Agent {
  return new (undiciParts().Agent)({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connections: MAX_CONNECTIONS_PER_ORIGIN,
  });
}

/** Retry-After is either seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) {
    return undefined;
  }
  if (/^\s*\d+(\.\d+)?\s*$/.test(text)) {
    return Math.round(Number(text) * 1000);
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

async function readLimited(body: Dispatcher.ResponseData['body']): Promise<Buffer> {
  const chunks = new BoundedChunks(MAX_RESPONSE_BYTES);
  for await (const chunk of body) {
    if (!chunks.add(chunk as Buffer)) {
      body.destroy();
      throw new ServiceError('invalid-response', `the answer is larger than ${MAX_RESPONSE_BYTES} bytes`, undefined, undefined, ANSWERED);
    }
  }
  return chunks.body;
}

/** How the secret at `index` of a request's `secrets` is named in a sentence. */
export const secretName = (index: number): string => (index === 0 ? 'the access token' : 'the webhook key');

/**
 * Outside text for a failure's sentence: one line without a secret, or, where it quoted one, left out with the reason: the
 * rest of a text that quoted a secret may hold more of it in a spelling no rule knows, and a failure is told by its kind.
 */
export function failureText(text: string, secrets: readonly string[], what: string): string {
  const clean = redact(text, secrets);
  return clean.found.length > 0 ? `${what} is left out: it quoted ${namesOf(clean.found, secretName)}` : oneLine(clean.text);
}

async function decode(raw: Buffer, encoding: string | string[] | undefined, secrets: readonly string[]): Promise<Buffer> {
  const decoded = await decodeBody(raw, encoding, MAX_RESPONSE_BYTES);
  switch (decoded.kind) {
    case 'ok':
      return decoded.body;
    case 'too-large':
      throw new ServiceError(
        'invalid-response',
        `the answer is larger than ${MAX_RESPONSE_BYTES} bytes once decompressed`,
        undefined,
        undefined,
        ANSWERED,
      );
    case 'unsupported':
      throw new ServiceError(
        'invalid-response',
        `the answer is in an encoding the plugin does not read (${oneLine(withoutSecrets(decoded.encoding, secrets))})`,
        undefined,
        undefined,
        ANSWERED,
      );
    case 'corrupt':
      throw new ServiceError('invalid-response', 'the answer could not be decompressed', undefined, undefined, ANSWERED);
  }
}

/** Plain words for the connection failures users meet; the code stays in brackets for searching. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'address not found in DNS',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection closed early',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
};

/** Failures that happen before a request is sent, so the service surely never saw it; any other may come after. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function describeFailure(error: unknown, secrets: readonly string[]): ServiceError {
  if (error instanceof ServiceError) {
    return error;
  }
  if (error instanceof undiciParts().errors.ConnectTimeoutError) {
    return new ServiceError('timeout', 'the service did not answer in time', undefined, undefined, false);
  }
  if (
    error instanceof undiciParts().errors.HeadersTimeoutError ||
    error instanceof undiciParts().errors.BodyTimeoutError ||
    (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
  ) {
    // Connected and sent: the service may act on it although its answer never came.
    return new ServiceError('timeout', 'the service did not answer in time', undefined, undefined, true);
  }
  const failure = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = failure?.code ?? failure?.cause?.code;
  const reason =
    typeof code === 'string'
      ? `${NETWORK_REASONS[code] ?? 'network error'}, ${code}`
      : error instanceof Error
        ? failureText(error.message, secrets, "the error's text")
        : 'unknown error';
  const mayHaveArrived = typeof code !== 'string' || !NOT_SENT_CODES.has(code);
  return new ServiceError(
    'network',
    `the service could not be reached (${reason})`,
    undefined,
    undefined,
    mayHaveArrived,
    typeof code === 'string' ? code : undefined,
  );
}

/** Sends one request. Resolves with any HTTP status; rejects only with a ServiceError for transport and decoding failures. */
export async function requestJson(dispatcher: Dispatcher, request: JsonRequest): Promise<JsonResponse> {
  await lookAlikesLoaded();
  try {
    const response = await undiciParts().request(dispatcher, {
      origin: request.url.origin,
      path: request.url.pathname + request.url.search,
      method: request.method,
      headers: request.headers,
      body: request.body === undefined ? null : JSON.stringify(request.body),
      signal: request.timeoutMs === undefined ? null : deadlineSignal(request.timeoutMs),
    });
    const encoded = await readLimited(response.body);
    let raw: Buffer;
    try {
      raw = await decode(encoded, response.headers['content-encoding'], request.secrets);
    } catch (error) {
      // As with JSON below: past 2xx the status is what counts (a 401 or 429 must stay one), not a mislabelled body.
      if (response.statusCode < 300) {
        throw error;
      }
      raw = Buffer.alloc(0);
    }
    const text = raw.toString('utf8').trim();
    let body: unknown;
    let quoted: number[] = [];
    if (text.length > 0) {
      try {
        // The one place the service's text enters: every string of the answer, names and messages alike, without a secret.
        body = JSON.parse(text) as unknown;
        if (request.cleansWhatItReads !== true) ({ value: body, found: quoted } = redactParsed(body, request.secrets));
      } catch {
        // An error page from a proxy is common; the status is what counts then.
        if (response.statusCode < 300) {
          throw new ServiceError('invalid-response', 'the answer is not valid JSON', response.statusCode, undefined, ANSWERED);
        }
      }
    }
    return {
      status: response.statusCode,
      body,
      retryAfterMs: parseRetryAfter(response.headers['retry-after']),
      quoted,
    };
  } catch (error) {
    throw describeFailure(error, request.secrets);
  }
}

// Answers one webhook request: path, method, key, size, JSON, then 200 first and the event handed on afterwards.
import type { IncomingMessage, ServerResponse } from 'node:http';

import { LISTENER_NONCE_HEADER, LISTENER_PROOF_HEADER } from '../settings.js';
import { decodeBody } from '../util/body.js';
import type { LogRateLimit } from '../util/log-rate-limit.js';
import { lookAlikesLoaded } from '../util/look-alikes.js';
import { withoutSecretsIn } from '../util/redact.js';
import type { ApiKeyCheck } from './api-key.js';
import { parseWebhookEvent } from './event.js';
import type { WebhookEvent } from './event.js';
import { declaredLength, readBoundedBody } from './request-body.js';

export interface WebhookLog {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface WebhookReceiverStats {
  /** Answered 200 and handed to onEvent. */
  accepted: number;
  /** Answered 401: missing or wrong key. */
  unauthorized: number;
  /** Answered 4xx for any other reason (path, method, size, JSON, time-out, broken request), or closed unanswered at a connection cap. */
  rejected: number;
}

export interface RequestHandlerContext {
  /** Only this exact path is served when set. */
  path: string | undefined;
  headerName: string;
  apiKey: ApiKeyCheck;
  /** What no string of a body may pass on to the log (the webhook key, the access token). */
  secrets: readonly string[];
  maxBodyBytes: number;
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  log: WebhookLog;
  stats: WebhookReceiverStats;
  unauthorizedWarnings: LogRateLimit;
  /** False once stop() is called: an event acknowledged just before must not reach a platform that is shutting down. */
  open: boolean;
}

/** `expectsContinue`: the client sent `Expect: 100-continue` and waits for our go-ahead before sending the body. */
export async function handleWebhookRequest(
  ctx: RequestHandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  expectsContinue = false,
): Promise<void> {
  const from = req.socket.remoteAddress ?? 'an unknown address';
  // The settings page asks the listener to prove it holds the key before it sends the key (ui/test-event.ts).
  const proof = ctx.apiKey.proof(req.headers[LISTENER_NONCE_HEADER]);
  if (proof !== undefined) {
    res.setHeader(LISTENER_PROOF_HEADER, proof);
  }
  if (ctx.path !== undefined && pathOf(req.url) !== ctx.path) {
    refuse(ctx, req, res, 404, 'not found');
    return;
  }
  if (req.method !== 'POST') {
    refuse(ctx, req, res, 405, 'only POST is accepted', { allow: 'POST' });
    return;
  }
  const key = req.headers[ctx.headerName.toLowerCase()];
  if (proof !== undefined && key === undefined) {
    // The settings page's question, without a key: answered 401 with the proof, and no warning about a missing key.
    ctx.log.debug(`Webhook listener asked to prove its key by ${from} (the settings page's "Send test event").`);
    send(ctx, req, res, 401, 'missing or wrong API key');
    return;
  }
  if (!ctx.apiKey.matches(key)) {
    // The body of an unauthenticated request is never read, let alone applied.
    unauthorized(ctx, req, res, from);
    return;
  }
  const announced = declaredLength(req);
  if (announced !== undefined && announced > ctx.maxBodyBytes) {
    // Refused on the header alone: not one byte of such a body is read.
    refuse(ctx, req, res, 413, `the body is larger than ${ctx.maxBodyBytes} bytes`);
    return;
  }
  if (expectsContinue) {
    res.writeContinue();
  }
  const read = await readBoundedBody(req, ctx.maxBodyBytes);
  if (read.kind === 'aborted') {
    // Not counted: a time-out was already counted as it cut the connection, and a client that left was not refused.
    ctx.log.debug(`Webhook from ${from} ended before its body was complete; nothing applied.`);
    return;
  }
  if (read.kind === 'too-large') {
    refuse(ctx, req, res, 413, `the body is larger than ${ctx.maxBodyBytes} bytes`);
    return;
  }
  const decoded = await decodeBody(read.body, req.headers['content-encoding'], ctx.maxBodyBytes);
  if (decoded.kind === 'too-large') {
    refuse(ctx, req, res, 413, `the decompressed body is larger than ${ctx.maxBodyBytes} bytes`);
    return;
  }
  if (decoded.kind === 'unsupported') {
    refuse(ctx, req, res, 415, 'unsupported Content-Encoding (gzip, deflate, br or none are accepted)');
    return;
  }
  if (decoded.kind === 'corrupt') {
    refuse(ctx, req, res, 400, 'the body could not be decompressed');
    return;
  }
  await lookAlikesLoaded();
  let body: unknown;
  try {
    // Where a body's text enters: every string without a secret, before any of it is read, logged or refused with.
    body = withoutSecretsIn(JSON.parse(decoded.body.toString('utf8').replace(/^\uFEFF/, '')) as unknown, ctx.secrets);
  } catch {
    refuse(ctx, req, res, 400, 'the body is not valid JSON');
    return;
  }
  const event = parseWebhookEvent(body);
  if ('error' in event) {
    refuse(ctx, req, res, 400, event.error);
    return;
  }
  ctx.stats.accepted += 1;
  // The service does not wait long and never retries (contract 6.4): acknowledge first, work afterwards.
  sendJson(res, 200, 'ok');
  setImmediate(() => deliver(ctx, event));
}

function deliver(ctx: RequestHandlerContext, event: WebhookEvent): void {
  if (!ctx.open) {
    ctx.log.debug(`Webhook dropped, the receiver is stopping: ${event.summary}`);
    return;
  }
  ctx.log.debug(event.kind === 'unknown' ? `Webhook of an unknown type, passed on: ${event.summary}` : `Webhook: ${event.summary}`);
  const failed = (error: unknown): void =>
    ctx.log.error(
      `Webhook handler failed on "${event.summary}": ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  try {
    const result = ctx.onEvent(event);
    if (result instanceof Promise) {
      result.catch(failed);
    }
  } catch (error) {
    failed(error);
  }
}

function unauthorized(ctx: RequestHandlerContext, req: IncomingMessage, res: ServerResponse, from: string): void {
  ctx.stats.unauthorized += 1;
  const present = req.headers[ctx.headerName.toLowerCase()] !== undefined;
  // Never the key nor the received value: only whether a value came at all.
  const why = present ? `a wrong API key in ${ctx.headerName}` : `no ${ctx.headerName} header`;
  const held = ctx.unauthorizedWarnings.take();
  if (held === undefined) {
    ctx.log.debug(`Webhook from ${from} refused (401): ${why}.`);
  } else {
    const more = held > 0 ? ` (${held} more refused since the last warning)` : '';
    ctx.log.warn(`Webhook from ${from} refused (401): ${why}; check the webhook API key in the plugin settings${more}.`);
  }
  send(ctx, req, res, 401, 'missing or wrong API key');
}

function refuse(
  ctx: RequestHandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  ctx.stats.rejected += 1;
  ctx.log.debug(`Webhook from ${req.socket.remoteAddress ?? 'an unknown address'} refused (${status}): ${message}.`);
  send(ctx, req, res, status, message, headers);
}

/**
 * Answers a refusal. When the rest of the body is still on its way and is chunked (no bound) or over
 * the limit, the connection is closed after the answer rather than drained (Node would otherwise read
 * it all to reuse the connection); a small announced body is left for Node to drain, keeping keep-alive.
 */
function send(
  ctx: RequestHandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const length = declaredLength(req);
  const unbounded = length === undefined ? req.headers['transfer-encoding'] !== undefined : length > ctx.maxBodyBytes;
  const close = !req.complete && (unbounded || status === 413);
  sendJson(res, status, message, close ? { ...headers, connection: 'close' } : headers);
}

function sendJson(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) {
    return;
  }
  const body = JSON.stringify({ message });
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** The path without the query; a request line Node accepted but URL cannot read gets a path no option matches. */
function pathOf(url: string | undefined): string {
  try {
    return new URL(url ?? '/', 'http://receiver.invalid').pathname;
  } catch {
    return '';
  }
}

// Builds the webhook's node:http(s) server: time-outs, 100-continue, connection-level errors, and socket tracking for stop().
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

import {
  WEBHOOK_CONNECTIONS_CHECK_INTERVAL_MS,
  WEBHOOK_HEADERS_TIMEOUT_MS,
  WEBHOOK_KEEP_ALIVE_TIMEOUT_MS,
  WEBHOOK_MAX_CONNECTIONS,
  WEBHOOK_MAX_CONNECTIONS_PER_CLIENT,
  WEBHOOK_MAX_REQUESTS_PER_CONNECTION,
  WEBHOOK_REQUEST_TIMEOUT_MS,
  WEBHOOK_TLS_HANDSHAKE_TIMEOUT_MS,
} from '../settings.js';
import { limitConnections } from './connection-caps.js';
import type { ConnectionLimits } from './connection-caps.js';
import type { WebhookLog, WebhookReceiverStats } from './request-handler.js';

export type { ConnectionLimits } from './connection-caps.js';

/** Node's sweep for expired connections must run well within the shortest time-out, or it cuts off late. */
const MIN_CHECK_INTERVAL_MS = 10;

const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: WEBHOOK_MAX_CONNECTIONS,
  maxConnectionsPerClient: WEBHOOK_MAX_CONNECTIONS_PER_CLIENT,
  maxRequestsPerConnection: WEBHOOK_MAX_REQUESTS_PER_CONNECTION,
};

export interface WebhookServerSettings {
  tls: { cert: string | Buffer; key: string | Buffer } | undefined;
  timeouts: { headersMs: number; requestMs: number } | undefined;
  limits: ConnectionLimits | undefined;
  log: WebhookLog;
  stats: WebhookReceiverStats;
  /** Every accepted TCP connection (before TLS), so stop() can destroy it. */
  sockets: Set<Socket>;
  /** Told of every connection refused at a cap (all held connections busy): a webhook may be lost. Must not throw. */
  onRefused?: () => void;
  /** What the plugin does about a refused connection, for the end of its warning. */
  refusedAdvice?: string;
  /** Must not throw; `expectsContinue`: the client waits for 100 Continue before sending its body. */
  onRequest: (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => void;
}

/** Throws a one-sentence Error when the TLS certificate or key cannot be used. */
export function createWebhookServer(settings: WebhookServerSettings): Server {
  const headersMs = settings.timeouts?.headersMs ?? WEBHOOK_HEADERS_TIMEOUT_MS;
  // Node refuses a headers time-out longer than the request time-out.
  const requestMs = Math.max(settings.timeouts?.requestMs ?? WEBHOOK_REQUEST_TIMEOUT_MS, headersMs);
  const httpOptions: ServerOptions = {
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    keepAliveTimeout: WEBHOOK_KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.max(
      MIN_CHECK_INTERVAL_MS,
      Math.min(WEBHOOK_CONNECTIONS_CHECK_INTERVAL_MS, Math.floor(headersMs / 4)),
    ),
  };
  const { log, stats } = settings;
  let server: Server;
  if (settings.tls) {
    try {
      server = createHttpsServer({
        ...httpOptions,
        cert: settings.tls.cert,
        key: settings.tls.key,
        // The HTTP time-outs only start once TLS is up; a stalled handshake needs its own bound.
        handshakeTimeout: Math.min(WEBHOOK_TLS_HANDSHAKE_TIMEOUT_MS, headersMs),
      });
    } catch (error) {
      // Node's own text (e.g. "error:...:PEM routines::no start line") names the problem, never the key's content.
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`the webhook TLS certificate or key cannot be used (${reason})`, { cause: error });
    }
    server.on('tlsClientError', (error: Error, socket: Duplex) => {
      stats.rejected += 1;
      log.debug(`Webhook TLS handshake from ${remote(socket)} failed: ${error.message}`);
      socket.destroy();
    });
  } else {
    server = createHttpServer(httpOptions);
  }

  // The latest response on each connection, to know whether a time-out may still be answered with a 408.
  const responses = new WeakMap<Duplex, ServerResponse>();
  const handle = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void => {
    responses.set(req.socket, res);
    settings.onRequest(req, res, expectsContinue);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => handle(req, res, false));
  // With this listener Node no longer sends 100 Continue by itself: the key and size are checked first.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => handle(req, res, true));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    // Header or request time-out, malformed request, oversized headers: answered as Node would, but counted and logged.
    stats.rejected += 1;
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    log.debug(`Webhook connection from ${remote(socket)} closed (${status}): ${error.code ?? error.message}`);
    const res = responses.get(socket);
    // A refusal may already be on the wire for a request whose body was still arriving; never answer twice.
    if (!(res && res.headersSent && !res.req.complete)) {
      socket.write(rawResponse(status));
    }
    socket.destroy();
  });
  limitConnections(server, {
    limits: settings.limits ?? DEFAULT_CONNECTION_LIMITS,
    tls: settings.tls !== undefined,
    log,
    stats,
    sockets: settings.sockets,
    onRefused: settings.onRefused,
    refusedAdvice: settings.refusedAdvice,
  });
  return server;
}

/** The one sentence start() rejects with when listen() fails. */
export function listenFailure(error: NodeJS.ErrnoException, port: number, host: string | undefined): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `port ${port} is already in use`;
    case 'EACCES':
      return `port ${port} needs privileges this process lacks (ports below 1024 usually do)`;
    case 'EADDRNOTAVAIL':
      return `host ${host ?? '(all interfaces)'} is not an address of this machine, so port ${port} cannot be opened`;
    default:
      return `port ${port} cannot be opened (${error.code ?? error.message})`;
  }
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function rawResponse(status: number): string {
  const body = JSON.stringify({ message: status === 408 ? 'request timed out' : (REASONS[status] ?? 'bad request').toLowerCase() });
  const head = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

function remote(socket: Duplex): string {
  return (socket as Partial<Socket>).remoteAddress ?? 'an unknown address';
}

// Builds the webhook's node:http(s) server: time-outs, 100-continue, connection-level errors, and socket tracking for stop().
import { createServer as createHttpServer } from 'node:http';
import type { IncomingMessage, Server, ServerOptions, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { DropArgument, Socket } from 'node:net';
import type { Duplex } from 'node:stream';

import {
  WEBHOOK_CONNECTION_LIMIT_LOG_INTERVAL_MS,
  WEBHOOK_CONNECTIONS_CHECK_INTERVAL_MS,
  WEBHOOK_HEADERS_TIMEOUT_MS,
  WEBHOOK_KEEP_ALIVE_TIMEOUT_MS,
  WEBHOOK_MAX_CONNECTIONS,
  WEBHOOK_MAX_CONNECTIONS_PER_CLIENT,
  WEBHOOK_MAX_REQUESTS_PER_CONNECTION,
  WEBHOOK_REQUEST_TIMEOUT_MS,
  WEBHOOK_TLS_HANDSHAKE_TIMEOUT_MS,
} from '../settings.js';
import { LogRateLimit } from '../util/log-rate-limit.js';
import type { WebhookLog, WebhookReceiverStats } from './request-handler.js';

/** Node's sweep for expired connections must run well within the shortest time-out, or it cuts off late. */
const MIN_CHECK_INTERVAL_MS = 10;

/** How much of the machine one listener, and one client of it, may take. */
export interface ConnectionLimits {
  /** Connections held at once; past it a new one is closed as soon as it is accepted. */
  maxConnections: number;
  /** Connections one remote address may hold at once. */
  maxConnectionsPerClient: number;
  /** Requests one kept-alive connection may carry before it is closed. */
  maxRequestsPerConnection: number;
}

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
    connectionsCheckingInterval: Math.max(MIN_CHECK_INTERVAL_MS, Math.min(WEBHOOK_CONNECTIONS_CHECK_INTERVAL_MS, Math.floor(headersMs / 4))),
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
  limitConnections(server, settings);
  return server;
}

/**
 * Caps what a flood can take: every held connection costs memory and a file descriptor, and once the process runs
 * out of descriptors the bridge's HomeKit port stops answering too. Refused connections are closed unanswered.
 */
function limitConnections(server: Server, settings: WebhookServerSettings): void {
  const limits = settings.limits ?? DEFAULT_CONNECTION_LIMITS;
  const { log, stats } = settings;
  // Node closes a connection past maxConnections as soon as it is accepted, and says so with 'drop'.
  server.maxConnections = limits.maxConnections;
  server.maxRequestsPerSocket = limits.maxRequestsPerConnection;
  const warnings = new LogRateLimit(WEBHOOK_CONNECTION_LIMIT_LOG_INTERVAL_MS);
  const refused = (limit: number, scope: string, address: string): void => {
    stats.rejected += 1;
    const held = warnings.take();
    const text = `The webhook listener holds its limit of ${limit} connections${scope}, so new ones are closed unanswered (the latest from ${address})`;
    if (held === undefined) {
      log.debug(text);
    } else {
      const more = held > 0 ? `; ${held} more refused since the last such line` : '';
      log.warn(`${text}: a flood, or a client that opens connections without using them. HomeKit is not affected${more}.`);
    }
  };
  server.on('drop', (data?: DropArgument) => refused(limits.maxConnections, '', data?.remoteAddress ?? 'an unknown address'));
  const perClient = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'an unknown address';
    const count = (perClient.get(address) ?? 0) + 1;
    if (count > limits.maxConnectionsPerClient) {
      socket.destroy();
      refused(limits.maxConnectionsPerClient, ` from one address`, address);
      return;
    }
    perClient.set(address, count);
    settings.sockets.add(socket);
    socket.once('close', () => {
      settings.sockets.delete(socket);
      const left = (perClient.get(address) ?? 1) - 1;
      if (left > 0) {
        perClient.set(address, left);
      } else {
        perClient.delete(address);
      }
    });
  });
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
  const head = [`HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}`, 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close'];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

function remote(socket: Duplex): string {
  return (socket as Partial<Socket>).remoteAddress ?? 'an unknown address';
}

// The webhook listener's connection caps: at a cap the oldest connection that never sent a request makes room; only when all are busy is one refused.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

import { WEBHOOK_CONNECTION_LIMIT_LOG_INTERVAL_MS, WEBHOOK_IDLE_EVICT_AFTER_MS } from '../settings.js';
import { LogRateLimit } from '../util/log-rate-limit.js';
import type { WebhookLog, WebhookReceiverStats } from './request-handler.js';

/** How much of the machine one listener, and one client of it, may take. */
export interface ConnectionLimits {
  /** Connections held at once; past it the oldest idle one is closed, or the new one when none is idle. */
  maxConnections: number;
  /** Connections one remote address may hold at once. */
  maxConnectionsPerClient: number;
  /** Requests one kept-alive connection may carry before it is closed. */
  maxRequestsPerConnection: number;
  /** A connection silent this long may make room at a cap; default WEBHOOK_IDLE_EVICT_AFTER_MS, tests shorten it. */
  evictIdleAfterMs?: number;
}

export interface ConnectionCapSettings {
  limits: ConnectionLimits;
  tls: boolean;
  log: WebhookLog;
  stats: WebhookReceiverStats;
  /** Every accepted TCP connection (before TLS), so stop() can destroy it. */
  sockets: Set<Socket>;
  /** Told of every connection refused at a cap: a webhook on it would have been lost. Must not throw. */
  onRefused: (() => void) | undefined;
  /** What the plugin does about a refusal, ending its warning ("the plugin polls every 15 s until webhooks arrive again"). */
  refusedAdvice: string | undefined;
}

/** Said when nobody told the listener what a refusal leads to. */
const DEFAULT_REFUSED_ADVICE = 'doors catch up at the next poll';

interface Held {
  socket: Socket;
  address: string;
  /** The decrypted side, once the TLS handshake is done (HTTPS only): its bytes are the request's. */
  secure: TLSSocket | undefined;
  /** When it was accepted (monotonic ms). */
  sinceMs: number;
}

/**
 * Caps what a flood can take: every held connection costs memory and a file descriptor, and once the process runs
 * out of descriptors the bridge's HomeKit port stops answering too. A full listener must still take the service's
 * webhook, so a connection that has sent no byte of a request for a while (a flood, a scanner, a stalled TLS
 * handshake) gives way to a new one; closing it loses nothing. A younger silent one may be a webhook whose bytes are not
 * read yet, so when every held connection is busy or young, the new one is refused and the owner is told.
 */
export function limitConnections(server: Server, settings: ConnectionCapSettings): void {
  const { limits, log, stats } = settings;
  // Not server.maxConnections: Node would close the new connection at the cap before an idle one could make room.
  server.maxRequestsPerSocket = limits.maxRequestsPerConnection;
  const held = new Map<Socket, Held>();
  const graceMs = limits.evictIdleAfterMs ?? WEBHOOK_IDLE_EVICT_AFTER_MS;
  const evictions = new LogRateLimit(WEBHOOK_CONNECTION_LIMIT_LOG_INTERVAL_MS);
  const refusals = new LogRateLimit(WEBHOOK_CONNECTION_LIMIT_LOG_INTERVAL_MS);
  /** Never sent a byte of a request: over HTTPS the handshake does not count, only what comes after it. */
  const silent = (entry: Held): boolean => (settings.tls ? (entry.secure?.bytesRead ?? 0) : entry.socket.bytesRead) === 0;
  const oldestIdle = (address: string | undefined): Held | undefined => {
    const now = performance.now();
    // A Map iterates in insertion order: the first match is the one waiting longest.
    for (const entry of held.values()) {
      if (now - entry.sinceMs < graceMs) {
        // Every later one is younger still.
        return undefined;
      }
      if ((address === undefined || entry.address === address) && silent(entry)) {
        return entry;
      }
    }
    return undefined;
  };
  const release = (entry: Held): void => {
    held.delete(entry.socket);
    settings.sockets.delete(entry.socket);
  };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'an unknown address';
    const fromClient = [...held.values()].filter((entry) => entry.address === address).length;
    const clientFull = fromClient >= limits.maxConnectionsPerClient;
    if (clientFull || held.size >= limits.maxConnections) {
      // At its own cap a client can only make room among its own connections.
      const victim = oldestIdle(clientFull ? address : undefined);
      const limit = clientFull ? limits.maxConnectionsPerClient : limits.maxConnections;
      const scope = clientFull ? ` from ${address}` : '';
      if (!victim) {
        socket.destroy();
        stats.rejected += 1;
        refused(
          refusals,
          log,
          `The webhook listener is full (its limit of ${limit} connections${scope}, each busy with a request or opened in the last ${graceMs / 1000} s), so it refused a new connection from ${address} unanswered; any webhook on it is lost, so ${settings.refusedAdvice ?? DEFAULT_REFUSED_ADVICE}`,
        );
        try {
          settings.onRefused?.();
        } catch (error) {
          // A throw here would escape an event handler and stop Homebridge.
          log.error(`Webhook listener error: ${error instanceof Error ? error.message : String(error)}`);
        }
        return;
      }
      release(victim);
      victim.socket.destroy();
      evicted(
        evictions,
        log,
        `The webhook listener holds its limit of ${limit} connections${scope}, so it closed the oldest one that sent nothing (from ${victim.address}) to take a new one from ${address}`,
      );
    }
    const entry: Held = { socket, address, secure: undefined, sinceMs: performance.now() };
    held.set(socket, entry);
    settings.sockets.add(socket);
    socket.once('close', () => release(entry));
  });
  server.on('secureConnection', (secure: TLSSocket) => {
    // The TLS socket rides on one accepted TCP connection; the address and port pair names it.
    for (const entry of held.values()) {
      if (
        entry.secure === undefined &&
        entry.socket.remotePort === secure.remotePort &&
        entry.socket.remoteAddress === secure.remoteAddress
      ) {
        entry.secure = secure;
        return;
      }
    }
  });
}

/** A refusal may lose a webhook: a warning, at most one a minute, the rest to debug. */
function refused(limit: LogRateLimit, log: WebhookLog, text: string): void {
  const held = limit.take();
  if (held === undefined) {
    log.debug(`${text}.`);
    return;
  }
  const more = held > 0 ? ` (${held} more refused since the last such line)` : '';
  log.warn(`${text}${more}. A flood, or clients that keep requests open; if it repeats, check who reaches the port.`);
}

/** Closing an idle connection loses nothing, but a listener kept full is worth knowing of: at most one warning a minute. */
function evicted(limit: LogRateLimit, log: WebhookLog, text: string): void {
  const held = limit.take();
  if (held === undefined) {
    log.debug(`${text}.`);
    return;
  }
  const more = held > 0 ? `; ${held} more closed since the last such line` : '';
  log.warn(`${text}: a flood, or a client that opens connections without using them. Webhooks still get through${more}.`);
}

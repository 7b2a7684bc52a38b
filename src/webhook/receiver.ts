// WebhookReceiver: the HTTP(S) listener the service posts events to; bounded in size and time, closed completely on stop().
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIPv4 } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

import { DEFAULT_WEBHOOK_HEADER_NAME, WEBHOOK_MAX_BODY_BYTES, WEBHOOK_UNAUTHORIZED_LOG_INTERVAL_MS } from '../settings.js';
import { LogRateLimit } from '../util/log-rate-limit.js';
import { ApiKeyCheck } from './api-key.js';
import type { WebhookEvent } from './event.js';
import { handleWebhookRequest } from './request-handler.js';
import type { RequestHandlerContext, WebhookLog, WebhookReceiverStats } from './request-handler.js';
import { createWebhookServer, listenFailure } from './server.js';
import type { ConnectionLimits } from './server.js';

export type { WebhookLog, WebhookReceiverStats } from './request-handler.js';

export interface WebhookReceiverOptions {
  /** 0 = an ephemeral port (tests). */
  port: number;
  /**
   * Default: all interfaces, IPv6 and IPv4. Left unset, Node binds `::` as a dual-stack socket (libuv
   * clears IPV6_V6ONLY, so IPv4 clients arrive as ::ffff:a.b.c.d) and falls back to `0.0.0.0` on a host
   * without IPv6; an explicit `::` would instead fail there, and `0.0.0.0` would shut out IPv6 clients.
   */
  host?: string;
  /** When set, only this exact path is served (anything else: 404); by default every path is. */
  path?: string;
  apiKey: string;
  /** Other text no webhook body may pass on (the access token); the API key never passes either way. */
  secrets?: readonly string[];
  /** Default 'X-Service-API-Key'; matched case-insensitively. */
  headerName?: string;
  /** Serve HTTPS directly with this PEM certificate and key (the service only calls https:// URLs). */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Called after the 200 has been sent; a throw or a rejected promise is logged, never propagated. */
  onEvent: (event: WebhookEvent) => void | Promise<void>;
  log: WebhookLog;
  /** Tests shorten these; requestMs is raised to headersMs if below it (Node requires headers <= request). */
  timeouts?: { headersMs: number; requestMs: number };
  /** Connection caps; the defaults from settings.ts, tests make them small. */
  limits?: ConnectionLimits;
  /** Told of every connection refused because the listener is full of busy connections: a webhook may be lost. */
  onConnectionRefused?: () => void;
  /** What the plugin does about such a refusal, to end its warning ("the plugin polls every 15 s until webhooks arrive again"). */
  refusedAdvice?: string;
}

export class WebhookReceiver {
  readonly stats: WebhookReceiverStats = { accepted: 0, unauthorized: 0, rejected: 0 };
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private starting: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  private readonly context: RequestHandlerContext;

  constructor(private readonly options: WebhookReceiverOptions) {
    this.context = {
      path: normalizePath(options.path),
      headerName: options.headerName?.trim() || DEFAULT_WEBHOOK_HEADER_NAME,
      apiKey: new ApiKeyCheck(options.apiKey),
      secrets: [options.apiKey, ...(options.secrets ?? [])],
      maxBodyBytes: WEBHOOK_MAX_BODY_BYTES,
      onEvent: options.onEvent,
      log: options.log,
      stats: this.stats,
      unauthorizedWarnings: new LogRateLimit(WEBHOOK_UNAUTHORIZED_LOG_INTERVAL_MS),
      open: false,
    };
  }

  /** Rejects with a one-sentence Error (port in use, no permission, bad certificate, empty key); nothing is left open then. */
  start(): Promise<void> {
    if (this.server || this.starting) {
      return Promise.reject(new Error('the webhook receiver is already started'));
    }
    this.starting = this.listen().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Closes the listener and every connection (kept-alive, mid-request, mid-handshake). Idempotent; fine if never started. */
  stop(): Promise<void> {
    this.context.open = false;
    this.stopping ??= this.close().finally(() => {
      this.stopping = undefined;
    });
    return this.stopping;
  }

  /** The bound port (the real one when 0 was asked for). Throws when not listening. */
  get port(): number {
    return this.address().port;
  }

  /** A URL of the listener reachable from this machine (loopback when bound to all interfaces). Throws when not listening. */
  get url(): string {
    const address = this.address();
    const host = isWildcard(address.address) ? '127.0.0.1' : address.address;
    return `${this.scheme}://${formatHost(host)}:${address.port}${this.context.path ?? '/'}`;
  }

  private get scheme(): 'http' | 'https' {
    return this.options.tls ? 'https' : 'http';
  }

  private address(): AddressInfo {
    const address = this.server?.address();
    if (!address || typeof address === 'string') {
      throw new Error('the webhook receiver is not listening');
    }
    return address;
  }

  private async listen(): Promise<void> {
    if (this.options.apiKey.trim() === '') {
      throw new Error('the webhook API key is empty');
    }
    const server = this.createServer();
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException): void => {
        // A failed listen leaves no handle open, but a connection may not outlive it either.
        this.destroySockets();
        server.close(() => undefined);
        reject(new Error(listenFailure(error, this.options.port, this.options.host), { cause: error }));
      };
      server.once('error', onError);
      const ready = (): void => {
        server.off('error', onError);
        resolve();
      };
      if (this.options.host === undefined) {
        server.listen(this.options.port, ready);
      } else {
        server.listen(this.options.port, this.options.host, ready);
      }
    });
    // From now on a server error (e.g. EMFILE on accept) is logged; an 'error' without a listener would crash Homebridge.
    server.on('error', (error) => this.options.log.error(`Webhook listener error: ${error.message}`));
    this.server = server;
    this.context.open = true;
    const address = this.address();
    const where = `${this.scheme}://${formatHost(address.address)}:${address.port}${this.context.path ?? '/'}`;
    const scope = isWildcard(address.address) ? ' (all interfaces)' : '';
    // Only something on this machine reaches a loopback listener (a local proxy or tunnel, or the demo's simulator): it is
    // already in front, so the advice for one reachable from outside would be noise there.
    const advice =
      this.options.tls || isLoopback(address.address)
        ? ''
        : '; the service only calls https:// URLs, so put an HTTPS proxy or tunnel in front';
    this.options.log.info(`Webhook listener on ${where}${scope}${advice}`);
  }

  private createServer(): Server {
    return createWebhookServer({
      tls: this.options.tls,
      timeouts: this.options.timeouts,
      limits: this.options.limits,
      log: this.options.log,
      stats: this.stats,
      sockets: this.sockets,
      onRefused: this.options.onConnectionRefused,
      refusedAdvice: this.options.refusedAdvice,
      onRequest: (req, res, expectsContinue) => this.onRequest(req, res, expectsContinue),
    });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse, expectsContinue: boolean): void {
    handleWebhookRequest(this.context, req, res, expectsContinue).catch((error: unknown) => {
      this.options.log.error(`Webhook request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (res.headersSent) {
        res.destroy();
      } else {
        res.writeHead(500, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ message: 'internal error' }));
      }
    });
  }

  private async close(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const server = this.server;
    this.server = undefined;
    if (!server) {
      return;
    }
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      // server.close() only stops accepting; kept-alive and stalled connections would hold the port and the process.
      this.destroySockets();
    });
  }

  private destroySockets(): void {
    for (const socket of this.sockets) {
      socket.destroy();
    }
    this.sockets.clear();
  }
}

function normalizePath(path: string | undefined): string | undefined {
  const trimmed = path?.trim();
  if (!trimmed) {
    return undefined;
  }
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** 127.0.0.0/8 and ::1, as Node reports the address a server listens on (IPv4 mapped into IPv6 too). */
function isLoopback(address: string): boolean {
  const host = address.replace(/^::ffff:/i, '');
  return host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}

function isWildcard(address: string): boolean {
  return address === '::' || address === '0.0.0.0';
}

function formatHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

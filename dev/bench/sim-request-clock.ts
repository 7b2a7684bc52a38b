// Timestamps (performance.now()) every request the in-process simulators receive and answer, via Node's http diagnostics channels.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/** Published when a server has parsed a request's headers (before its body is read). */
const REQUEST_START = 'http.server.request.start';
/** Published when a server's answer has been handed to the OS in full. */
const RESPONSE_FINISH = 'http.server.response.finish';
/** The contract's sync endpoint; the plugin sends one GET per poll. */
export const SYNC_PATH_SUFFIX = '/endpoints/sync';
/** The contract's toggle endpoint (the plugin uses the singular `endpoint/toggle`). */
export const TOGGLE_PATH_SUFFIX = '/toggle';

export interface TimedRequest {
  /** Local port of the server that got it: tells the simulators apart. */
  port: number;
  method: string;
  path: string;
  /** performance.now() when the request's headers were parsed. */
  startMs: number;
  /** performance.now() when the whole answer was handed to the OS; undefined until then. */
  finishMs: number | undefined;
  status: number | undefined;
  /** Bytes of the whole answer on the wire (status line, headers, body as sent); undefined until answered. */
  bytes: number | undefined;
  /** The request asked for gzip (the simulator then compresses its answer). */
  gzipAsked: boolean;
}

interface ServerMessage {
  request: IncomingMessage;
  response: ServerResponse;
}

interface Pending {
  timed: TimedRequest;
  /** The socket's bytesWritten when the request came: one request at a time per connection (no pipelining). */
  bytesBefore: number;
}

type FinishListener = (request: TimedRequest) => void;

const pathOf = (request: IncomingMessage): string => (request.url ?? '/').split('?')[0]?.replace(/\/+$/, '') ?? '/';

export class SimRequestClock {
  private readonly all: TimedRequest[] = [];
  private readonly byResponse = new WeakMap<ServerResponse, Pending>();
  private readonly finishListeners = new Set<FinishListener>();
  private readonly onStart = (message: unknown): void => {
    const { request, response } = message as ServerMessage;
    const timed: TimedRequest = {
      port: request.socket.localPort ?? 0,
      method: request.method ?? '',
      path: pathOf(request),
      startMs: performance.now(),
      finishMs: undefined,
      status: undefined,
      bytes: undefined,
      gzipAsked: /\bgzip\b/i.test(String(request.headers['accept-encoding'] ?? '')),
    };
    this.all.push(timed);
    this.byResponse.set(response, { timed, bytesBefore: request.socket.bytesWritten });
  };
  private readonly onFinish = (message: unknown): void => {
    const { response } = message as ServerMessage;
    const pending = this.byResponse.get(response);
    if (pending === undefined) {
      return;
    }
    const { timed } = pending;
    timed.finishMs = performance.now();
    timed.status = response.statusCode;
    // The simulator sets its headers with writeHead, which getHeader() does not see; the socket's count does.
    timed.bytes = response.socket ? response.socket.bytesWritten - pending.bytesBefore : undefined;
    for (const listener of [...this.finishListeners]) {
      listener(timed);
    }
  };

  /** Starts recording; `stop()` must follow (the bench registers it as a clean-up step). */
  start(): void {
    subscribe(REQUEST_START, this.onStart);
    subscribe(RESPONSE_FINISH, this.onFinish);
  }

  stop(): void {
    unsubscribe(REQUEST_START, this.onStart);
    unsubscribe(RESPONSE_FINISH, this.onFinish);
    this.finishListeners.clear();
  }

  /** Requests to the server on `port` whose path ends with `pathSuffix`, oldest first. */
  requests(port: number, pathSuffix = ''): TimedRequest[] {
    return this.all.filter((r) => r.port === port && r.path.endsWith(pathSuffix));
  }

  /** Resolves with the first answered request matching `match` (already answered ones count); undefined after `timeoutMs`. */
  waitForAnswered(match: (request: TimedRequest) => boolean, timeoutMs: number): Promise<TimedRequest | undefined> {
    const done = this.all.find((r) => r.finishMs !== undefined && match(r));
    if (done !== undefined) {
      return Promise.resolve(done);
    }
    return new Promise((resolve) => {
      const listener: FinishListener = (request) => {
        if (match(request)) {
          clearTimeout(timer);
          this.finishListeners.delete(listener);
          resolve(request);
        }
      };
      const timer = setTimeout(() => {
        this.finishListeners.delete(listener);
        resolve(undefined);
      }, timeoutMs);
      this.finishListeners.add(listener);
    });
  }
}

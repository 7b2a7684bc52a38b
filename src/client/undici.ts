// The three parts of undici the plugin uses: its Agent (kept-alive pools with timeouts), the request API and its error classes.
// undici's main entry loads all of undici (fetch, WebSocket, EventSource, mocks, caches, proxies, interceptors): on Node 20
// ~90 ms and ~18 MB resident before the first request; these three files take about half the time and ~11 MB. undici has
// no "exports" map, so these paths are open to Node as they are; the types are undici's own, for the same classes.
// They are undici's internals, though: should a later undici 7 move them, the main entry is loaded instead, slower but whole.
import { Module, createRequire } from 'node:module';
import type * as Undici from 'undici';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/** undici's HTTP/2 connector. Its client.js requires it at load, and it requires node:http2 (and so tls and crypto). */
export const HTTP2_CONNECTOR = 'undici/lib/dispatcher/client-h2.js';

/** What of Node's require the loader uses; tests pass one that cannot find the narrow files. */
export interface ModuleLoader {
  (id: string): unknown;
  resolve: (id: string) => string;
  cache: Record<string, NodeJS.Module | undefined>;
}

export interface UndiciParts {
  Agent: typeof UndiciAgent;
  errors: typeof Undici.errors;
  /** `dispatcher.request(options)`, for any dispatcher (one of these Agents, or a full undici's). */
  request: (dispatcher: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** false when the narrow files could not be loaded and undici's main entry stands in. */
  narrow: boolean;
}

type Connector = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Puts a stand-in for undici's HTTP/2 connector into the require cache before undici's client.js asks for it, so
 * loading undici does not load node:http2, tls and crypto (~1.3 MiB resident on Node 20, for each child bridge). The
 * plugin never offers HTTP/2 (no `allowH2`: the TLS handshake asks for http/1.1 alone), so the connector is never
 * called; should anything sharing this copy of undici ever call it, the stand-in loads the real one then and hands over.
 * Nothing is done when the connector is already loaded (there is nothing left to save) or cannot be found.
 */
export function deferHttp2Connector(load: ModuleLoader): void {
  let file: string;
  try {
    file = load.resolve(HTTP2_CONNECTOR);
  } catch {
    return;
  }
  if (load.cache[file] !== undefined) return;
  let real: Connector | undefined;
  const standIn = new Module(file);
  standIn.filename = file;
  standIn.loaded = true;
  standIn.exports = function connectH2(this: unknown, ...args: unknown[]): unknown {
    if (real === undefined) {
      if (load.cache[file] === standIn) delete load.cache[file];
      real = load(HTTP2_CONNECTOR) as Connector;
    }
    return real.apply(this, args);
  };
  load.cache[file] = standIn;
}

/** `load` is Node's require; tests pass one that cannot find the narrow files. */
export function loadUndiciParts(load: ModuleLoader): UndiciParts {
  deferHttp2Connector(load);
  try {
    const Agent = load('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
    const errors = load('undici/lib/core/errors.js') as typeof Undici.errors;
    // The main entry copies this onto Dispatcher.prototype (as dispatcher.request); without it, it is called on the dispatcher.
    const requestApi = load('undici/lib/api/api-request.js') as RequestApi;
    if (typeof Agent !== 'function' || typeof requestApi !== 'function' || typeof errors.UndiciError !== 'function') {
      throw new Error('undici moved its files');
    }
    return { Agent, errors, request: (dispatcher, options) => requestApi.call(dispatcher, options), narrow: true };
  } catch {
    const full = load('undici') as typeof Undici;
    return { Agent: full.Agent, errors: full.errors, request: (dispatcher, options) => dispatcher.request(options), narrow: false };
  }
}

const parts = loadUndiciParts(createRequire(import.meta.url));

export const Agent = parts.Agent;
export type Agent = UndiciAgent;
export const undiciErrors = parts.errors;
export const request = parts.request;

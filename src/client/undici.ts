// The three parts of undici the plugin uses: its Agent (kept-alive pools with timeouts), the request API and its error classes.
// undici's main entry loads all of undici (fetch, WebSocket, EventSource, mocks, caches, proxies, interceptors): on Node 20
// ~90 ms and ~18 MB resident before the first request; these three files take about half the time and ~11 MB. undici has
// no "exports" map, so these paths are open to Node as they are; the types are undici's own, for the same classes.
// They are undici's internals, though: the undici range in package.json is the one CI runs the client tests on (its lowest
// and its newest version, test/package/undici-range.test.ts), and should a later undici move them, the main entry is loaded
// instead, slower but whole. Nothing here touches Node's module state: other plugins share this copy of undici.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

/** undici's files the narrow path loads, relative to the package. */
export const NARROW_FILES = {
  agent: 'undici/lib/dispatcher/agent.js',
  errors: 'undici/lib/core/errors.js',
  request: 'undici/lib/api/api-request.js',
} as const;

/** What of Node's require the loader uses; tests pass one that cannot find the narrow files, or one of another undici. */
export type ModuleLoader = (id: string) => unknown;

export interface UndiciParts {
  Agent: typeof UndiciAgent;
  errors: typeof Undici.errors;
  /** `dispatcher.request(options)`, for any dispatcher (one of these Agents, or a full undici's). */
  request: (dispatcher: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  /** false when the narrow files could not be loaded and undici's main entry stands in. */
  narrow: boolean;
}

/** `load` is Node's require; tests pass one that cannot find the narrow files. */
export function loadUndiciParts(load: ModuleLoader): UndiciParts {
  try {
    const Agent = load(NARROW_FILES.agent) as typeof UndiciAgent;
    const errors = load(NARROW_FILES.errors) as typeof Undici.errors;
    // The main entry copies this onto Dispatcher.prototype (as dispatcher.request); without it, it is called on the dispatcher.
    const requestApi = load(NARROW_FILES.request) as RequestApi;
    if (
      typeof Agent !== 'function' ||
      typeof Agent.prototype.dispatch !== 'function' ||
      typeof requestApi !== 'function' ||
      typeof errors.UndiciError !== 'function' ||
      typeof errors.ConnectTimeoutError !== 'function' ||
      typeof errors.HeadersTimeoutError !== 'function' ||
      typeof errors.BodyTimeoutError !== 'function'
    ) {
      throw new Error('undici moved its files');
    }
    return { Agent, errors, request: (dispatcher, options) => requestApi.call(dispatcher, options), narrow: true };
  } catch {
    const full = load('undici') as typeof Undici;
    return { Agent: full.Agent, errors: full.errors, request: (dispatcher, options) => dispatcher.request(options), narrow: false };
  }
}

let loaded: UndiciParts | undefined;

/**
 * undici's parts, loaded at the first call (the client's, at Homebridge's didFinishLaunching), not when Homebridge imports
 * the plugin: its ~12 MB resident then come with the first sync, and a bridge that never syncs (a config that cannot be
 * read) never loads them (BENCHMARKS.md, section 9). `require` is synchronous, so no caller waits for a promise.
 */
export function undiciParts(): UndiciParts {
  loaded ??= loadUndiciParts(createRequire(import.meta.url));
  return loaded;
}

export type Agent = UndiciAgent;

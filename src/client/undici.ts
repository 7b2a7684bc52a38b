// The three parts of undici the plugin uses: its Agent (kept-alive pools with timeouts), the request API and its error classes.
// undici's main entry loads all of undici (fetch, WebSocket, EventSource, mocks, caches, proxies, interceptors): on Node 20
// ~90 ms and ~18 MB resident before the first request; these three files take about half the time and ~11 MB. undici has
// no "exports" map, so these paths are open to Node as they are; the types are undici's own, for the same classes.
import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Dispatcher, errors } from 'undici';

const load = createRequire(import.meta.url);

export const Agent = load('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export type Agent = UndiciAgent;
export const undiciErrors = load('undici/lib/core/errors.js') as typeof errors;

type RequestApi = (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
// The main entry copies this onto Dispatcher.prototype (as dispatcher.request); without it, it is called on the dispatcher.
const requestApi = load('undici/lib/api/api-request.js') as RequestApi;

/** `dispatcher.request(options)`, for any dispatcher (one of these Agents, or a full undici's). */
export function request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestApi.call(dispatcher, options);
}

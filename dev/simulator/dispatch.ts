// Routes one incoming request: control interface, outage, faults, authentication, then the contract endpoints.
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { handleHistory, handleSync, handleToggle, matchApiRoute } from './api-routes.js';
import type { ApiContext } from './api-routes.js';
import { isAuthorized } from './auth.js';
import { CONTROL_PATH_PREFIX } from './constants.js';
import { handleControl } from './control-routes.js';
import type { SimulatorControls } from './control-routes.js';
import { serveFault } from './fault-responses.js';
import type { FaultTable } from './faults.js';
import type { PendingWaits } from './waits.js';
import { BodyTooLargeError, readBody, sendJson } from './http-util.js';
import { INVALID_TOKEN_MESSAGE } from './messages.js';

/** One API request as received (headers verbatim, including Authorization). */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
  /** Arrival time in ms since the epoch, from the simulator's clock. */
  at: number;
}

export interface DispatchContext {
  api: ApiContext;
  controls: SimulatorControls;
  faults: FaultTable;
  /** Where 'delay' faults wait: stop() ends them unanswered. */
  waits: PendingWaits;
  requests: RecordedRequest[];
  outage(): boolean;
  accessToken(): string;
  strictHeaders: boolean;
}

export async function dispatch(ctx: DispatchContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://simulator.invalid');
  if (url.pathname.startsWith(CONTROL_PATH_PREFIX)) {
    await handleControl(ctx.controls, req, res, url.pathname);
    return;
  }
  const body = await readBody(req);
  ctx.requests.push({
    method: req.method ?? '',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body,
    at: ctx.api.now(),
  });
  if (ctx.outage()) {
    req.socket.destroy();
    return;
  }
  const route = matchApiRoute(url.pathname);
  if (!route) {
    sendJson(req, res, 404, { success: false, message: `Not found: ${url.pathname}` });
    return;
  }
  if (req.method !== route.method) {
    sendJson(req, res, 405, { success: false, message: 'Method not allowed' }, { Allow: route.method });
    return;
  }
  // Faults model the network and the service's front end, so they come before authentication.
  let fault = ctx.faults.take(route.endpoint);
  if (fault?.kind === 'delay') {
    // A slow service acts when it gets round to it, also on a request whose client has hung up meanwhile.
    if (!(await ctx.waits.wait(fault.ms))) {
      return;
    }
    fault = fault.then;
  }
  if (fault) {
    serveFault(req, res, fault, route.endpoint);
    return;
  }
  if (!isAuthorized(req.headers, ctx.accessToken(), ctx.strictHeaders)) {
    sendJson(req, res, 401, { success: false, message: INVALID_TOKEN_MESSAGE });
    return;
  }
  switch (route.endpoint) {
    case 'sync':
      handleSync(ctx.api, req, res);
      return;
    case 'toggle':
      handleToggle(ctx.api, req, res, body);
      return;
    case 'history':
      handleHistory(ctx.api, req, res, url.searchParams);
      return;
  }
}

/** Last-resort answer when a handler throws: 413 for oversized bodies, 500 otherwise. */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const tooLarge = error instanceof BodyTooLargeError;
  sendJson(
    req,
    res,
    tooLarge ? 413 : 500,
    { success: false, message: error instanceof Error ? error.message : String(error) },
    {
      Connection: 'close',
    },
  );
}

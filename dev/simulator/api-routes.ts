// Handlers of the three contract endpoints (sync, toggle, toggle-history) once a request is authorized.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { AccountState } from './account-state.js';
import { historyEventToContract, syncBody } from './contract.js';
import type { SimEndpoint } from './faults.js';
import type { HistoryLog } from './history.js';
import { parseHistoryQuery } from './history-query.js';
import { hasNoBody, parseJsonOrUndefined, sendEmpty, sendJson } from './http-util.js';
import { toggleMessage } from './messages.js';
import type { HistoryFilter, HistoryShape } from './types.js';

export interface ApiContext {
  state: AccountState;
  history: HistoryLog;
  hardwareName: string;
  now: () => number;
  /** How the history is written now (tests change it while running). */
  historyShape: () => HistoryShape;
}

interface ApiRoute {
  endpoint: SimEndpoint;
  method: 'GET' | 'POST';
}

/** Formal paths, plus the variants the contract's worked examples use (plural toggle, trailing slash). */
const API_ROUTES: ReadonlyMap<string, ApiRoute> = new Map([
  ['/oauth/v1/endpoints/sync', { endpoint: 'sync', method: 'GET' }],
  ['/oauth/v1/endpoint/toggle', { endpoint: 'toggle', method: 'POST' }],
  ['/oauth/v1/endpoints/toggle', { endpoint: 'toggle', method: 'POST' }],
  ['/oauth/v1/endpoints/toggle-history', { endpoint: 'history', method: 'GET' }],
  ['/oauth/v1/endpoints/toggle-history/', { endpoint: 'history', method: 'GET' }],
]);

export function matchApiRoute(pathname: string): ApiRoute | undefined {
  return API_ROUTES.get(pathname);
}

const toggleBodySchema = z.object({
  door_id: z.string().min(1),
  door_state: z.enum(['OPEN', 'CLOSED']),
});

export function handleSync(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): void {
  sendJson(req, res, 200, syncBody(ctx.state.devices, ctx.historyShape().zoneOffsetMinutes));
}

export function handleToggle(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, bodyText: string): void {
  const parsed = toggleBodySchema.safeParse(parseJsonOrUndefined(bodyText));
  // The contract's outcomes all carry success: true, errors included.
  const status = parsed.success ? ctx.state.toggle(parsed.data.door_id, parsed.data.door_state) : 400;
  if (hasNoBody(status)) {
    sendEmpty(res, status);
    return;
  }
  sendJson(req, res, status, { success: true, timestamp: ctx.now(), message: toggleMessage(status, ctx.hardwareName) });
}

export function handleHistory(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void {
  const parsed = parseHistoryQuery(query);
  if (!parsed.ok) {
    sendJson(req, res, 400, { success: false, message: parsed.message });
    return;
  }
  const filter: HistoryFilter = parsed.filter;
  const shape = ctx.historyShape();
  if (filter.deviceId !== undefined && shape.deviceHistory === false) {
    sendJson(req, res, 400, { success: false, message: 'Invalid parameter history_type: must be door or user' });
    return;
  }
  if (filter.doorId !== undefined && !ctx.state.findDoor(filter.doorId)) {
    sendJson(req, res, 404, { success: false, message: `Door ${filter.doorId} not found` });
    return;
  }
  if (filter.deviceId !== undefined && !ctx.state.findDevice(filter.deviceId)) {
    sendJson(req, res, 404, { success: false, message: `Device ${filter.deviceId} not found` });
    return;
  }
  const newestFirst = ctx.history.query(filter);
  const ordered = shape.order === 'oldest-first' ? newestFirst.reverse() : shape.order === 'shuffled' ? shuffled(newestFirst) : newestFirst;
  const events = ordered.map((event) => historyEventToContract(event, shape));
  sendJson(req, res, 200, { success: true, timestamp: ctx.now(), data: { toggle_events: events } });
}

/** The entries in an order that is neither newest nor oldest first, the same for the same entries (a seeded shuffle). */
function shuffled<T>(entries: T[]): T[] {
  const out = [...entries];
  let seed = out.length * 2_654_435_761;
  for (let i = out.length - 1; i > 0; i -= 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

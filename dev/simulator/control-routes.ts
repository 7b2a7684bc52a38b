// The unauthenticated `/_simulator/` control interface for demos and manual play (zod-validated JSON bodies).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { SAMPLE_PEOPLE } from './account.js';
import { UnknownIdError } from './account-state.js';
import { CONTROL_PATH_PREFIX } from './constants.js';
import { parseJsonOrUndefined, readBody, sendJson } from './http-util.js';
import { ENFORCER_SAMPLES } from './webhook-event.js';
import type { EnforcerSample } from './webhook-event.js';
import type { SimDoorState, SimUser } from './types.js';

/** What the control interface may do to the simulator. */
export interface SimulatorControls {
  snapshot(): unknown;
  setDoorState(doorId: string, state: SimDoorState, change?: { user?: SimUser }): void;
  setToggleOutcome(doorId: string, status: number | null): void;
  setOutage(on: boolean): void;
  setDeviceActive(deviceId: string, active: boolean): void;
  renameDoor(doorId: string, name: string): void;
  sendEnforcerEvent(sample: EnforcerSample, where: { doorId: string } | { deviceId: string }): unknown;
}

/** `person`: who the webhook and the history name (one of SAMPLE_PEOPLE); default the account's user. */
const doorStateBody = z.object({
  state: z.enum(['OPEN', 'CLOSED']),
  person: z.enum(Object.keys(SAMPLE_PEOPLE) as [keyof typeof SAMPLE_PEOPLE]).optional(),
});
const outcomeBody = z.object({ status: z.number().int().min(100).max(599).nullable() });
const outageBody = z.object({ on: z.boolean() });
const deviceBody = z.object({ active: z.boolean() });
const nameBody = z.object({ name: z.string().max(200) });
/** An enforcer webhook: at a door (`doorId`) or at a controller only (`deviceId`). */
const enforcerBody = z.union([
  z.object({ sample: z.enum(ENFORCER_SAMPLES), doorId: z.string().min(1) }),
  z.object({ sample: z.enum(ENFORCER_SAMPLES), deviceId: z.string().min(1) }),
]);

type Action = (controls: SimulatorControls, body: unknown, id: string) => unknown;

interface ControlRoute {
  pattern: RegExp;
  action: Action;
}

function withBody<T>(schema: z.ZodType<T>, apply: (controls: SimulatorControls, body: T, id: string) => void): Action {
  return (controls, raw, id) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw new BadControlRequest(z.prettifyError(parsed.error));
    }
    apply(controls, parsed.data, id);
    return controls.snapshot();
  };
}

class BadControlRequest extends Error {}

const POST_ROUTES: ControlRoute[] = [
  {
    pattern: /^doors\/([^/]+)$/,
    action: withBody(doorStateBody, (c, b, id) => c.setDoorState(id, b.state, b.person ? { user: SAMPLE_PEOPLE[b.person] } : {})),
  },
  { pattern: /^doors\/([^/]+)\/name$/, action: withBody(nameBody, (c, b, id) => c.renameDoor(id, b.name)) },
  { pattern: /^doors\/([^/]+)\/toggle-outcome$/, action: withBody(outcomeBody, (c, b, id) => c.setToggleOutcome(id, b.status)) },
  { pattern: /^outage$/, action: withBody(outageBody, (c, b) => c.setOutage(b.on)) },
  { pattern: /^devices\/([^/]+)$/, action: withBody(deviceBody, (c, b, id) => c.setDeviceActive(id, b.active)) },
  { pattern: /^enforcer$/, action: withBody(enforcerBody, (c, b) => void c.sendEnforcerEvent(b.sample, b)) },
];

export async function handleControl(
  controls: SimulatorControls,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
): Promise<void> {
  const route = pathname.slice(CONTROL_PATH_PREFIX.length);
  if (req.method === 'GET' && route === 'state') {
    sendJson(req, res, 200, controls.snapshot());
    return;
  }
  const match = req.method === 'POST' ? findRoute(route) : undefined;
  if (!match) {
    sendJson(req, res, 404, { success: false, message: `No control route ${req.method ?? ''} ${pathname}` });
    return;
  }
  const raw = parseJsonOrUndefined(await readBody(req));
  try {
    sendJson(req, res, 200, match.route.action(controls, raw, decodeURIComponent(match.id)));
  } catch (error) {
    if (error instanceof BadControlRequest) {
      sendJson(req, res, 400, { success: false, message: error.message });
    } else if (error instanceof UnknownIdError) {
      sendJson(req, res, 404, { success: false, message: error.message });
    } else {
      throw error;
    }
  }
}

function findRoute(route: string): { route: ControlRoute; id: string } | undefined {
  for (const candidate of POST_ROUTES) {
    const found = candidate.pattern.exec(route);
    if (found) {
      return { route: candidate, id: found[1] ?? '' };
    }
  }
  return undefined;
}

// RealtimeUpdates with the one log double and a listener on a free local port, doors that are the real door model
// (its event order and state machine, no HomeKit), and the sizes of the collections a run keeps.
import type { DoorState } from '../../src/client/types.js';
import type { WebhookConfig } from '../../src/config/index.js';
import { DoorModel } from '../../src/door/model/door.js';
import type { ReportOutcome } from '../../src/door/model/state-machine.js';
import { RealtimeUpdates } from '../../src/sync/realtime.js';
import type { RealtimeDoor } from '../../src/sync/realtime-door.js';
import type { RealtimeDeps } from '../../src/sync/realtime.js';
import type { WebhookEvent } from '../../src/webhook/event.js';
import { captureLog } from './log.js';
import type { CapturedLog } from './log.js';

/** How long a movement started on a harness door may take. */
const TRANSITION_TIMEOUT_MS = 60_000;

/** A door as RealtimeUpdates sees it, applying events as DoorAccessory does: through the real door model. */
export class OrderedDoor implements RealtimeDoor {
  readonly model: DoorModel;
  /** Calls of applyEvent, stale ones included. */
  calls = 0;
  stale = 0;

  constructor(
    readonly name: string,
    initial: DoorState,
    now: () => number,
    /** Told of every call with the event's time, to count applications per event without keeping them here. */
    private readonly onApply?: (occurredAtMs: number | undefined) => void,
  ) {
    // The door's own lines (state changes) are not what these runs look at: they go nowhere, and nothing keeps them.
    const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
    this.model = new DoorModel(
      { doorId: name, deviceId: 'device', name, state: initial },
      { log: quiet, now, transitionTimeoutMs: TRANSITION_TIMEOUT_MS, options: undefined, onRename: () => undefined },
    );
  }

  applyEvent(state: DoorState, occurredAtMs: number | undefined, who: string): ReportOutcome | 'stale' {
    this.calls += 1;
    this.onApply?.(occurredAtMs);
    const outcome = this.model.applyEvent(state, occurredAtMs, who);
    if (outcome === 'stale') {
      this.stale += 1;
    }
    return outcome;
  }
}

export interface RealtimeHarness {
  realtime: RealtimeUpdates;
  log: CapturedLog;
  /** Where the listener answers, as its own log line gives it. */
  url: string;
}

/** A RealtimeUpdates on 127.0.0.1 (a free port unless the config names one), its listener started: polls then expect webhooks. */
export async function startRealtime(options: {
  config?: Partial<WebhookConfig>;
  findDoor: (event: WebhookEvent) => RealtimeDoor | undefined;
  now: () => number;
  /** Bounds the log lines kept (counts go on), for long runs. */
  keepLines?: number;
  /** The poll paces and the at-risk callback, as the platform gives them. */
  polling?: Pick<RealtimeDeps, 'pollIntervals' | 'onWebhooksAtRisk'>;
}): Promise<RealtimeHarness> {
  const log = captureLog({ keep: options.keepLines });
  const realtime = new RealtimeUpdates({
    log,
    config: {
      port: 0,
      host: '127.0.0.1',
      apiKey: 'a'.repeat(96),
      headerName: 'X-Service-API-Key',
      reconcileInterval: 300,
      ...options.config,
    },
    findDoor: options.findDoor,
    now: options.now,
    ...options.polling,
  });
  await realtime.start();
  if (log.counts.error > 0) {
    throw new Error(`the listener did not start: ${log.texts('error').join('; ')}`);
  }
  const url = /^Webhook listener on (http:\/\/[^\s;]+)/.exec(log.texts('info').join('\n'))?.[1];
  if (url === undefined) {
    throw new Error(`the listener logged no address: ${log.texts('info').join('; ')}`);
  }
  return { realtime, log, url };
}

/**
 * Sizes of every Array, Map and Set reachable through object properties (private ones included) from `roots`,
 * by path. Collections are not entered: their own size is what would grow.
 */
export function collectionSizes(roots: Record<string, unknown>): Map<string, number> {
  const sizes = new Map<string, number>();
  const seen = new Set<unknown>();
  const visit = (value: unknown, path: string, depth: number): void => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 5) {
      return;
    }
    seen.add(value);
    if (Array.isArray(value)) {
      sizes.set(path, value.length);
      return;
    }
    if (value instanceof Map || value instanceof Set) {
      sizes.set(path, value.size);
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      visit(child, `${path}.${key}`, depth + 1);
    }
  };
  for (const [name, root] of Object.entries(roots)) {
    visit(root, name, 0);
  }
  return sizes;
}

/** A parsed webhook event: an OPEN door-state event with nothing else known, with `fields` on top. */
export function webhookEvent(fields: Partial<WebhookEvent> = {}): WebhookEvent {
  return {
    id: undefined,
    eventType: 'door_state_change',
    kind: 'door-state',
    doorId: undefined,
    deviceId: undefined,
    doorNumber: undefined,
    doorState: 'OPEN',
    occurredAtMs: undefined,
    channel: undefined,
    toggleId: undefined,
    ownerUserId: undefined,
    user: undefined,
    summary: '',
    ...fields,
  };
}

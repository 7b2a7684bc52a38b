// Starts the webhook side, loaded only by a setup that turned webhooks on, wired to the doors, the person sensors and
// the pace of polling.
import type { Logging } from 'homebridge';

import type { PluginConfig, WebhookConfig } from '../config/index.js';
import type { People } from '../people/sensors.js';
import type { DoorRegistry } from '../registry/door-registry.js';
import type { BugLog } from '../util/bug-log.js';
import type { Clock } from '../util/clock.js';
import type { RealtimeDeps, RealtimeUpdates } from './realtime.js';

export interface RealtimeStartDeps {
  webhook: WebhookConfig;
  /** The safety-net pace, in seconds: polling's while webhooks arrive. */
  reconcileIntervalS: number;
  config: PluginConfig;
  log: Logging;
  bugs: BugLog;
  clock: Clock;
  registry: DoorRegistry;
  /** The person sensors (`people`): who came through, for automations. */
  people: People;
  /** The ports Homebridge listens on, read from its config.json. */
  reservedPorts: RealtimeDeps['reservedPorts'];
  /** Settles once Homebridge's bridge has surely taken its port (after the first sync). */
  bridgeUp: Promise<void>;
  /** Brings the next sync forward to within this many milliseconds. */
  hurry: (withinMs: number) => void;
  /** Read through a call: Homebridge may begin shutting down while the webhook side loads. */
  stopped: () => boolean;
  /** The webhook side, once made and before its listener starts: the pace of polling and each sync read it from then on. */
  made: (realtime: RealtimeUpdates) => void;
}

/**
 * The webhook side (listener, event matching, the missed-webhook watch), loaded only by a setup that turned webhooks
 * on: every other bridge is spared its code at start-up (BENCHMARKS.md, section 9). Until it has loaded (a few
 * milliseconds) polling runs at the normal pace, as it does until the first webhook arrives anyway.
 */
export async function startRealtime(deps: RealtimeStartDeps): Promise<void> {
  const { config, clock } = deps;
  let Realtime: typeof RealtimeUpdates;
  try {
    ({ RealtimeUpdates: Realtime } = await import('./realtime.js'));
  } catch (error) {
    deps.bugs.report('loading the webhook listener', error);
    return;
  }
  if (deps.stopped()) {
    return;
  }
  const realtime = new Realtime({
    log: deps.log,
    config: deps.webhook,
    secrets: [config.accessToken],
    findDoor: (event) => deps.registry.find(event),
    alertDoors: (event) => deps.registry.alertDoors(event),
    now: () => clock.now(),
    clock,
    reservedPorts: deps.reservedPorts,
    bridgeUp: deps.bridgeUp,
    pollIntervals: { normalS: config.pollInterval, safetyNetS: deps.reconcileIntervalS },
    // A sync due at the safety-net pace is brought forward to the normal one.
    onWebhooksAtRisk: () => deps.hurry(config.pollInterval * 1000),
    doorEvent: (door, event) => {
      const doorId = door.doorId ?? event.doorId;
      if (doorId === undefined) return;
      const atMs = event.occurredAtMs ?? clock.now();
      deps.people.moved({ doorId, state: event.doorState, atMs, user: event.user, toggleId: event.toggleId, byWebhook: true }, door.name);
    },
  });
  deps.made(realtime);
  await realtime.start();
}

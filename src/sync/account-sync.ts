// The account kept in step from launch: the client and the service's wait, the sync loop at its pace (the safety net's
// while webhooks arrive), each sync's step, who moved a door, and the webhook side where webhooks are on.
import type { Logging } from 'homebridge';

import type { Timeouts } from '../client/http.js';
import { AccessControlClient } from '../client/service-client.js';
import type { DoorState, ToggleEvent } from '../client/types.js';
import type { PluginConfig } from '../config/index.js';
import type { ProtectionCache } from '../config/protection-cache.js';
import type { EveHistories } from '../eve/eve-histories.js';
import { PeopleDoorCheck } from '../people/door-check.js';
import type { People } from '../people/sensors.js';
import type { DoorRegistry } from '../registry/door-registry.js';
import { EVE_BACKFILL_DAYS } from '../settings.js';
import type { BugLog } from '../util/bug-log.js';
import type { Clock } from '../util/clock.js';
import { SyncHealth } from './health.js';
import { SyncLoop } from './loop.js';
import type { RealtimeUpdates } from './realtime.js';
import { startRealtime } from './realtime-start.js';
import type { RealtimeStartDeps } from './realtime-start.js';
import { nextSyncDelayMs } from './schedule.js';
import { ServiceWait } from './service-wait.js';
import { SyncStep } from './sync-step.js';
import { WhoMovedIt } from './who-moved-it.js';

export interface AccountSyncDeps {
  config: PluginConfig;
  /** Homebridge's runs use the defaults; tests pass short timeouts. */
  runtime: { clientTimeouts?: Timeouts; toggleTimeoutMs?: number; readTimeoutMs?: number };
  log: Logging;
  bugs: BugLog;
  clock: Clock;
  registry: DoorRegistry;
  /** The person sensors (`people`): who came through, for automations. */
  people: People;
  protection: ProtectionCache;
  /** Whether any door keeps an Eve history: the toggle history is then read back for its backfill. */
  eveWanted: boolean;
  /** The doors' Eve histories, when kept: made at launch, or in memory once a door asks for its own. */
  eve: () => EveHistories | undefined;
  /** A sync's doors for Matter (src/matter/matter-follower.ts); `complete` when it read the whole account. */
  followOnMatter: (complete: boolean) => void;
  /** The ports Homebridge listens on, read from its config.json, for the webhook listener. */
  reservedPorts: RealtimeStartDeps['reservedPorts'];
  /** Read through a call: Homebridge may begin shutting down while a sync awaits. */
  stopped: () => boolean;
}

export class AccountSync {
  readonly client: AccessControlClient;
  /** Says who moved a door a sync found moved, from the door's toggle history. */
  readonly whoMovedIt: WhoMovedIt;
  private readonly loop: SyncLoop;
  /** The webhook side, once it has loaded (only where webhooks are on). */
  private webhooks: RealtimeUpdates | undefined;
  /** Resolved when the first sync has ended, however it ended: by then Homebridge's bridge holds its own port. */
  private firstSyncEnded: () => void = () => undefined;
  private readonly firstSync = new Promise<void>((resolve) => {
    this.firstSyncEnded = resolve;
  });
  /** The safety-net pace, in seconds: polling's while webhooks arrive. */
  private readonly reconcileIntervalS: number;

  constructor(private readonly deps: AccountSyncDeps) {
    const { config, runtime, log, clock, registry, people } = deps;
    const client = new AccessControlClient({
      baseUrl: config.baseUrl,
      accessToken: config.accessToken,
      timeouts: runtime.clientTimeouts,
      toggleTimeoutMs: runtime.toggleTimeoutMs,
      readTimeoutMs: runtime.readTimeoutMs,
      secrets: config.webhook ? [config.webhook.apiKey] : [],
    });
    this.client = client;
    // The wait the service asked for with Retry-After: no sync or history request before it has passed.
    const serviceWait = new ServiceWait({ clock, log });
    this.whoMovedIt = new WhoMovedIt({
      historyDays: deps.eveWanted ? EVE_BACKFILL_DAYS : undefined,
      read: (doorId, entries) => deps.eve()?.read(doorId, entries),
      history: (query) => serviceWait.send(() => client.history(query)),
      log,
      clock,
      found: (doorId, doorName, state, event) => this.historyNamed(doorId, doorName, state, event),
      told: (doorId) => people.toldMoves(doorId),
      learn: (events) => {
        for (const event of events) people.learn(event.user);
      },
      bug: (what, error) => deps.bugs.report(what, error),
      tracksSyncs: true,
    });
    const health = new SyncHealth({
      log,
      accountUnreadable: () => {
        registry.setAccountReadable(false);
        people.setAccountReadable(false);
      },
    });
    const step = new SyncStep({
      ...deps,
      client,
      serviceWait,
      health,
      peopleDoors: new PeopleDoorCheck(config.people, (sentence) => log.warn(sentence)),
      whoMovedIt: this.whoMovedIt,
      realtime: () => this.webhooks,
      ended: () => this.firstSyncEnded(),
    });
    // The safety-net pace never polls more often than the user's own poll interval.
    const reconcileIntervalS = Math.max(config.webhook?.reconcileInterval ?? config.pollInterval, config.pollInterval);
    this.reconcileIntervalS = reconcileIntervalS;
    this.loop = new SyncLoop(
      () => step.run(),
      () =>
        nextSyncDelayMs({
          // While webhooks arrive, polling is only the safety net.
          pollIntervalMs: (this.webhooks?.flowing ? reconcileIntervalS : config.pollInterval) * 1000,
          failedSyncs: health.failedSyncs,
          retryAfterMs: health.retryAfterMs,
          doorMoving: registry.anyMoving,
          autoCloseInMs: this.nextAutoCloseInMs(),
        }),
      clock,
      () => serviceWait.until(),
    );
  }

  /** The webhook side, once it has loaded (only where webhooks are on). */
  get realtime(): RealtimeUpdates | undefined {
    return this.webhooks;
  }

  /** Starts the webhook side (where webhooks are on) and the sync loop, and says the pace. */
  start(): void {
    const { config, log } = this.deps;
    const reconcileIntervalS = this.reconcileIntervalS;
    if (config.webhook) {
      void startRealtime({
        ...this.deps,
        webhook: config.webhook,
        reconcileIntervalS,
        bridgeUp: this.firstSync,
        hurry: (withinMs) => this.loop.hurry(withinMs),
        made: (realtime) => (this.webhooks = realtime),
      });
    }
    this.loop.start();
    if (!config.webhook && (config.accessAlert || config.doors.some((door) => door.accessAlert === true))) {
      // The service tells of unauthorized users and vehicles only by webhook: without the listener the alert never goes off.
      log.warn(
        'The access alert is on, but webhooks are off, so it can never detect: the service reports unauthorized users and vehicles only by webhook. Turn on "Receive webhooks".',
      );
    }
    const slower = config.webhook ? `, and every ${reconcileIntervalS} s while webhooks arrive` : '';
    log.info(`Syncing the account every ${config.pollInterval} s${slower}.`);
  }

  /** Settles when the sync under way (if any) has ended. */
  settled(): Promise<void> {
    return this.loop.settled();
  }

  /** Brings the next sync forward to within this many milliseconds (a command was accepted: the door moves). */
  hurry(withinMs: number): void {
    this.loop.hurry(withinMs);
  }

  /** At shutdown: no sync and no history request starts again. */
  stop(): void {
    this.loop.stop();
    this.whoMovedIt.stop();
    // A listener start still waiting for the first sync must end too (it sees the stop and opens nothing).
    this.firstSyncEnded();
  }

  /** The toggle history named who made a move a sync just found (src/people/attribution.ts): the person sensors take it. */
  private historyNamed(doorId: string, doorName: string, state: DoorState, event: ToggleEvent): void {
    if (this.deps.stopped()) return;
    this.deps.people.moved({ doorId, state, atMs: this.deps.clock.now(), user: event.user }, doorName);
  }

  /** Milliseconds until the next door is expected to close by itself (negative once overdue), if any. */
  private nextAutoCloseInMs(): number | undefined {
    const at = this.deps.registry.nextAutoCloseAtMs;
    return at === undefined ? undefined : at - this.deps.clock.now();
  }
}

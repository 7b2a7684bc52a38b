// The platform: Homebridge's lifecycle (cache, launch, shutdown) and the wiring of the client, door registry, sync loop and health, and webhooks.
import type { API, DynamicPlatformPlugin, Logging, PlatformAccessory, PlatformConfig } from 'homebridge';

import type { DoorContext } from './door/model/context.js';
import { DoorAccessory } from './door/door-accessory.js';
import { BugLog } from './util/bug-log.js';
import { redactingLog } from './util/redacting-log.js';
import { secretsOf } from './config/secret-values.js';
import type { Timeouts } from './client/http.js';
import { AccessControlClient } from './client/service-client.js';
import { SYSTEM_CLOCK } from './util/clock.js';
import type { Clock } from './util/clock.js';
import { parseConfig } from './config/index.js';
import type { PluginConfig } from './config/index.js';
import { doorOptions, exclusionReason } from './config/door-options.js';
import { handOver, instanceOf, sameAccountRefusal, takeCacheFor } from './config/same-account.js';
import { readFileSync } from 'node:fs';
import { MatterFollower } from './matter/matter-follower.js';
import { readReservedPorts } from './util/homebridge-ports.js';
import type { RealtimeUpdates } from './sync/realtime.js';
import { startRealtime } from './sync/realtime-start.js';
import { nextSyncDelayMs } from './sync/schedule.js';
import { WhoMovedIt } from './sync/who-moved-it.js';
import { ACTIVE_POLL_INTERVAL_MS, EVE_BACKFILL_DAYS, READ_TIMEOUT_MS, STATE_STALE_AFTER_SYNC_INTERVALS } from './settings.js';
import { EveHistories } from './eve/eve-histories.js';
import type { EveDoor } from './eve/eve-door.js';
import { historyFilePath } from './eve/history-file.js';
import { SyncLoop } from './sync/loop.js';
import { SyncStep } from './sync/sync-step.js';
import { ServiceWait } from './sync/service-wait.js';
import { SyncHealth } from './sync/health.js';
import { DoorRegistry } from './registry/door-registry.js';
import { People } from './people/sensors.js';
import { PeopleDoorCheck } from './people/door-check.js';
import { ProtectionCache } from './config/protection-cache.js';
import type { DoorState, ToggleEvent } from './client/types.js';
import { OPTION_DEFAULTS } from './option-values.js';
import { listForLog } from './util/log-text.js';

export interface PlatformRuntime {
  clock?: Clock;
  clientTimeouts?: Timeouts;
  toggleTimeoutMs?: number;
  readTimeoutMs?: number;
}

export class AccessControlPlatform implements DynamicPlatformPlugin {
  private readonly registry: DoorRegistry;
  /** The person sensors (`people`): who came through, for automations. */
  private readonly people: People;
  /** Names a `people[].doors` id that counts for nobody, once. */
  private readonly peopleDoors: PeopleDoorCheck;
  /** What the settings protect in the doors known now, and the doors the gate knows (src/config/protection-cache.ts). */
  private readonly protection: ProtectionCache;
  private readonly health: SyncHealth;
  private readonly bugs: BugLog;
  private readonly config: PluginConfig | undefined;
  private client: AccessControlClient | undefined;
  private loop: SyncLoop | undefined;
  private realtime: RealtimeUpdates | undefined;
  private whoMovedIt: WhoMovedIt | undefined;
  /** The doors' Eve histories (src/eve/), in their file; made at launch with a readable config. */
  private eve: EveHistories | undefined;
  /** The doors and person sensors on Matter (Homebridge 2.x), loaded at launch where wanted (src/matter/matter-follower.ts). */
  private readonly matter: MatterFollower;
  /** Resolved when the first sync has ended, however it ended: by then Homebridge's bridge holds its own port. */
  private firstSyncEnded: () => void = () => undefined;
  private readonly firstSync = new Promise<void>((resolve) => {
    this.firstSyncEnded = resolve;
  });
  /**
   * Set at Homebridge's shutdown. A request then in flight still gets its answer (closing the client does not cut it),
   * and that late answer must register no door, start no timer, write no cache and log nothing.
   */
  private stopped = false;
  /** Set when an earlier platform block reads the same account: this one does not start (src/config/same-account.ts). */
  private readonly refusedAsSecond: boolean = false;
  /** Ends what this instance holds of the process's record of blocks (same-account.ts), at shutdown. */
  private released: () => void = () => undefined;
  /** Homebridge's log, each line cleaned of the access token and the webhook key as it leaves (src/util/redacting-log.ts). */
  private readonly log: Logging;

  constructor(
    log: Logging,
    private readonly rawConfig: PlatformConfig | undefined,
    private readonly api: API,
    /** Homebridge passes three arguments; tests pass a simulated clock and short timeouts. */
    private readonly runtime: PlatformRuntime = {},
  ) {
    // Every line, from here on, leaves through the one wrapper that knows the block's secrets.
    this.log = log = redactingLog(log, secretsOf(rawConfig ?? {}));
    const parsed = parseConfig(rawConfig);
    this.config = parsed.ok ? parsed.config : undefined;
    this.bugs = new BugLog(log);
    this.protection = new ProtectionCache({
      log,
      bugs: this.bugs,
      config: this.config,
      shown: () => this.registry.all().map(({ accessory }) => ({ id: accessory.context.doorId, deviceId: accessory.context.deviceId })),
      stopped: () => this.stoppedMeanwhile(),
    });
    this.people = new People({
      api,
      log,
      entries: this.config?.people,
      keepUnlisted: this.config?.keptAsCached.people,
      // The catalog's personSensorDuration is in seconds.
      durationMs: (this.config ?? OPTION_DEFAULTS).personSensorDuration * 1000,
      clock: this.clock,
    });
    this.peopleDoors = new PeopleDoorCheck(this.config?.people ?? [], (sentence) => log.warn(sentence));
    this.registry = new DoorRegistry({
      api,
      log,
      bugs: this.bugs,
      config: this.config,
      protection: () => this.protection.current,
      createDoor: (accessory) => this.createDoor(accessory),
      notePolled: (door, outcome) => this.realtime?.notePolled(door, outcome),
      doorMoved: (doorId, name, state, lastToggled) => this.whoMovedIt?.explain(doorId, name, state, lastToggled),
      doorSeen: (doorId, state, lastToggled) => {
        this.whoMovedIt?.seen(doorId, lastToggled);
        this.people.seen(doorId, state);
      },
      takeOther: (accessory) => this.people.fromCache(accessory),
      otherAccessories: () => this.people.all().length,
    });
    this.matter = new MatterFollower({
      api,
      log,
      bugs: this.bugs,
      config: this.config,
      now: () => this.clock.now(),
      protection: () => this.protection.current,
      shownDoors: () => this.registry.all().map((door) => ({ uuid: door.accessory.UUID, door, deviceId: door.accessory.context.deviceId })),
      shownPeople: () => this.people.all().map((sensor) => ({ uuid: sensor.accessory.UUID, person: sensor })),
      stopped: () => this.stoppedMeanwhile(),
    });
    this.health = new SyncHealth({
      log,
      accountUnreadable: () => {
        this.registry.setAccountReadable(false);
        this.people.setAccountReadable(false);
      },
    });
    if (!parsed.ok) {
      // Cached doors stay (automations survive a typo) and answer "No Response" until the config is fixed.
      log.error(`The configuration is not valid, so no door is synced until it is fixed: ${parsed.problems.join('; ')}.`);
      api.on('didFinishLaunching', () => this.registry.adoptCached(false));
      return;
    }
    // A mistake in an optional setting costs only that setting: one line each, and the doors still sync.
    for (const sentence of parsed.ignored) {
      log.error(`In the configuration, ${sentence}.`);
    }
    // A second block of one account does not start: its cached doors go to the first block in this process, or else
    // answer No Response and refuse every command.
    const instance = instanceOf(rawConfig);
    const second = sameAccountRefusal(this.homebridgeConfig(), rawConfig, instance.ordinal);
    if (second !== undefined) {
      log.error(second);
      this.refusedAsSecond = true;
      api.on('didFinishLaunching', () => this.registry.adoptCached(false));
      api.on('shutdown', () => void this.shutdown());
      this.released = instance.release;
      return;
    }
    const endTaking = takeCacheFor(rawConfig, (accessory: PlatformAccessory) => this.registry.fromCache(accessory));
    this.released = () => {
      instance.release();
      endTaking();
    };
    // A near miss read as what it nearly is, or a key the plugin does not know: said once, the doors still sync.
    for (const sentence of parsed.warnings) {
      log.warn(`In the configuration, ${sentence}.`);
    }
    if (parsed.notes !== undefined) {
      log.debug(
        `In the configuration, ${listForLog(parsed.notes)} ${parsed.notes.length > 1 ? 'are notes: they name no door and change nothing' : 'is a note: it names no door and changes nothing'}.`,
      );
    }
    api.on('didFinishLaunching', () => {
      // Homebridge ends when a listener throws: an exception of ours at start is a logged bug, and the doors keep working.
      try {
        this.start();
      } catch (error) {
        this.bugs.report('starting the plugin', error);
      }
    });
    api.on('shutdown', () => void this.shutdown());
  }

  private get clock(): Clock {
    return this.runtime.clock ?? SYSTEM_CLOCK;
  }

  /** Tests wait on this after moving the simulated clock: the sync, and the history read at start it set off. */
  async syncSettled(): Promise<void> {
    await Promise.all([this.matter.loaded, this.loop?.settled()]);
    await this.whoMovedIt?.settled();
  }

  /** Homebridge hands over each cached accessory before didFinishLaunching. */
  configureAccessory(accessory: PlatformAccessory): void {
    if (this.refusedAsSecond && handOver(this.rawConfig, accessory)) return;
    this.registry.fromCache(accessory);
  }

  /** Homebridge 2.x hands over each cached Matter device before didFinishLaunching; it comes back without handlers. */
  configureMatterAccessory(accessory: unknown): void {
    this.matter.fromCache(accessory);
  }

  private start(): void {
    const config = this.config;
    if (!config) {
      return;
    }
    const client = new AccessControlClient({
      baseUrl: config.baseUrl,
      accessToken: config.accessToken,
      timeouts: this.runtime.clientTimeouts,
      toggleTimeoutMs: this.runtime.toggleTimeoutMs,
      readTimeoutMs: this.runtime.readTimeoutMs,
      secrets: config.webhook ? [config.webhook.apiKey] : [],
    });
    this.client = client;
    const serviceWait = new ServiceWait({ clock: this.clock, log: this.log });
    const eveWanted = config.eveHistory || config.doors.some((door) => door.eveHistory === true);
    if (eveWanted) {
      try {
        const bridge = (this.rawConfig as { _bridge?: { username?: unknown } } | undefined)?._bridge?.username;
        const path = historyFilePath(this.api.user.storagePath(), typeof bridge === 'string' ? bridge : 'main');
        this.eve = new EveHistories({ path, log: this.log, clock: this.clock });
      } catch (error) {
        // Without its file the Eve history is kept in memory (eveOf): the doors never go for it.
        this.bugs.report('opening the Eve history file', error);
      }
    }
    this.whoMovedIt = new WhoMovedIt({
      historyDays: eveWanted ? EVE_BACKFILL_DAYS : undefined,
      read: (doorId, entries) => this.eve?.read(doorId, entries),
      history: (query) => serviceWait.send(() => client.history(query)),
      log: this.log,
      clock: this.clock,
      found: (doorId, doorName, state, event) => this.historyNamed(doorId, doorName, state, event),
      told: (doorId) => this.people.toldMoves(doorId),
      learn: (events) => {
        for (const event of events) this.people.learn(event.user);
      },
      bug: (what, error) => this.bugs.report(what, error),
      tracksSyncs: true,
    });
    this.registry.adoptCached(true);
    // The cached doors, until the first sync: a door a misspelt setting could mean is not openable meanwhile.
    const cached = this.protection.knownDoors(undefined);
    this.protection.remember(cached.doors);
    // A cached door the settings leave out leaves Home now, from its cached id alone: a sync that never comes good (429,
    // an outage, a partial answer) must not keep it there. Again once the look-alike letters have loaded, if they must.
    const leaveOut = (): void =>
      this.registry.leaveOut((accessory) =>
        exclusionReason(
          config,
          { id: accessory.context.doorId, relationship: undefined },
          accessory.context.deviceId,
          this.protection.current,
        ),
      );
    void this.protection.protect(cached).then(() => {
      if (!this.stoppedMeanwhile()) leaveOut();
    });
    leaveOut();
    // The bridge's room is planned before the person sensors are added: cached doors past it leave first.
    this.registry.fitCached(this.people.planned());
    try {
      this.people.start();
    } catch (error) {
      this.bugs.report('adding the person sensors', error);
    }
    this.matter.start(config);
    // The safety-net pace never polls more often than the user's own poll interval.
    const reconcileIntervalS = Math.max(config.webhook?.reconcileInterval ?? config.pollInterval, config.pollInterval);
    if (config.webhook) {
      void startRealtime({
        webhook: config.webhook,
        reconcileIntervalS,
        config,
        log: this.log,
        bugs: this.bugs,
        clock: this.clock,
        registry: this.registry,
        people: this.people,
        reservedPorts: () => readReservedPorts(this.homebridgeConfigPath(), this.rawConfig),
        bridgeUp: this.firstSync,
        hurry: (withinMs) => this.loop?.hurry(withinMs),
        stopped: () => this.stoppedMeanwhile(),
        made: (realtime) => (this.realtime = realtime),
      });
    }
    const step = new SyncStep({
      client,
      serviceWait,
      config,
      log: this.log,
      bugs: this.bugs,
      clock: this.clock,
      health: this.health,
      registry: this.registry,
      people: this.people,
      peopleDoors: this.peopleDoors,
      protection: this.protection,
      eve: () => this.eve,
      whoMovedIt: this.whoMovedIt,
      realtime: () => this.realtime,
      followOnMatter: (complete) => this.matter.follow(complete),
      stopped: () => this.stoppedMeanwhile(),
      ended: () => this.firstSyncEnded(),
    });
    this.loop = new SyncLoop(
      () => step.run(),
      () =>
        nextSyncDelayMs({
          // While webhooks arrive, polling is only the safety net.
          pollIntervalMs: (this.realtime?.flowing ? reconcileIntervalS : config.pollInterval) * 1000,
          failedSyncs: this.health.failedSyncs,
          retryAfterMs: this.health.retryAfterMs,
          doorMoving: this.registry.anyMoving,
          autoCloseInMs: this.nextAutoCloseInMs(),
        }),
      this.clock,
      () => serviceWait.until(),
    );
    this.loop.start();
    if (!config.webhook && (config.accessAlert || config.doors.some((door) => door.accessAlert === true))) {
      // The service tells of unauthorized users and vehicles only by webhook: without the listener the alert never goes off.
      this.log.warn(
        'The access alert is on, but webhooks are off, so it can never detect: the service reports unauthorized users and vehicles only by webhook. Turn on "Receive webhooks".',
      );
    }
    const slower = config.webhook ? `, and every ${reconcileIntervalS} s while webhooks arrive` : '';
    this.log.info(`Syncing the account every ${config.pollInterval} s${slower}.`);
  }

  /** The toggle history named who made a move a sync just found (src/people/attribution.ts): the person sensors take it. */
  private historyNamed(doorId: string, doorName: string, state: DoorState, event: ToggleEvent): void {
    if (this.stopped) return;
    this.people.moved({ doorId, state, atMs: this.clock.now(), user: event.user }, doorName);
  }

  /** One door's HomeKit side, wired to the client, the clock and the sync schedule. */
  private createDoor(accessory: PlatformAccessory<DoorContext>): DoorAccessory {
    const config = this.config;
    return new DoorAccessory(
      {
        api: this.api,
        log: this.log,
        toggle: (doorId, state) => {
          if (!this.client) {
            return Promise.reject(new Error('the configuration is not valid'));
          }
          return this.client.toggle(doorId, state);
        },
        // The catalog's defaults while the config cannot be read; transitionTimeout is in seconds.
        transitionTimeoutMs: (config ?? OPTION_DEFAULTS).transitionTimeout * 1000,
        lowBatteryThresholdPct: (config ?? OPTION_DEFAULTS).lowBatteryThreshold,
        onCommandAccepted: () => this.loop?.hurry(ACTIVE_POLL_INTERVAL_MS),
        staleAfterMs: () => this.staleAfterMs(),
        now: () => this.clock.now(),
        clock: this.clock,
        // Without a readable config, a cached door keeps the services it has: a typo must not break automations.
        options: config ? doorOptions(config, accessory.context.doorId, accessory.context.deviceId) : undefined,
        gate: () => this.protection.refusalFor(accessory.context.doorId),
        eve: (doorId) => this.eveOf(doorId),
      },
      accessory,
    );
  }

  /** A door's Eve history in the bridge's file; one in memory when the file is not kept (no door wanted it at launch). */
  private eveOf(doorId: string): EveDoor {
    this.eve ??= new EveHistories({ path: undefined, log: this.log, clock: this.clock });
    return this.eve.door(doorId);
  }

  /**
   * How old a door's state may grow before Home shows No Response (docs/limits.md): two intervals of the pace the account
   * is synced at (the webhook safety net's while webhooks arrive), and the longest a sync may take to answer.
   */
  private staleAfterMs(): number | undefined {
    const config = this.config;
    if (!config) return undefined;
    const paceS = this.realtime?.flowing ? Math.max(config.webhook?.reconcileInterval ?? 0, config.pollInterval) : config.pollInterval;
    return STATE_STALE_AFTER_SYNC_INTERVALS * paceS * 1000 + (this.runtime.readTimeoutMs ?? READ_TIMEOUT_MS);
  }

  /** Read through a call: shutdown() may run while a sync awaits, which the type checker's narrowing of the field cannot see. */
  private stoppedMeanwhile(): boolean {
    return this.stopped;
  }

  /** Homebridge's config.json as read now (every platform block); undefined where it cannot be read. */
  private homebridgeConfig(): unknown {
    const path = this.homebridgeConfigPath();
    try {
      return path === undefined ? undefined : (JSON.parse(readFileSync(path, 'utf8')) as unknown);
    } catch {
      return undefined;
    }
  }

  /** Homebridge's config.json, which holds the bridge's port; undefined where the API does not give it. */
  private homebridgeConfigPath(): string | undefined {
    try {
      return this.api.user.configPath();
    } catch {
      return undefined;
    }
  }

  /** Milliseconds until the next door is expected to close by itself (negative once overdue), if any. */
  private nextAutoCloseInMs(): number | undefined {
    const at = this.registry.nextAutoCloseAtMs;
    return at === undefined ? undefined : at - this.clock.now();
  }

  /** Stops every timer and socket so Homebridge exits at once and a restart never finds anything in use. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    this.released();
    this.loop?.stop();
    this.whoMovedIt?.stop();
    this.eve?.stop();
    // A listener start still waiting for the first sync must end too (it sees the stop and opens nothing).
    this.firstSyncEnded();
    this.registry.dispose();
    this.people.dispose();
    this.matter.dispose();
    await Promise.all([this.client?.close(), this.realtime?.stop()]);
  }
}

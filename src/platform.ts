// The platform: reads the config, syncs the account on a schedule, and keeps one cached HomeKit accessory per door.
import type { API, DynamicPlatformPlugin, Logging, PlatformAccessory, PlatformConfig } from 'homebridge';

import type { DoorContext } from './door/context.js';
import { isDoorContext } from './door/context.js';
import { GarageDoorAccessory } from './door/garage-door.js';
import { BugLog } from './util/bug-log.js';
import type { ServiceError } from './client/errors.js';
import type { Timeouts } from './client/http.js';
import { fallbackDoorName } from './door/model/naming.js';
import { AccessControlClient } from './client/service-client.js';
import type { Account, Device, Door } from './client/types.js';
import { SYSTEM_CLOCK } from './util/clock.js';
import type { Clock } from './util/clock.js';
import { parseConfig } from './config.js';
import type { PluginConfig } from './config.js';
import { doorOptions, exclusionReason } from './door/options.js';
import { keepFirstOfEachDoor } from './door/duplicates.js';
import type { DoorOfDevice, DuplicateDoor } from './door/duplicates.js';
import { readReservedPorts } from './util/homebridge-ports.js';
import { homeKitName } from './door/homekit-name.js';
import { shownName } from './door/model/naming.js';
import { soundAlikePairs } from './door/spoken-names.js';
import { IncidentLog } from './util/incident-log.js';
import { listForLog, oneLine } from './util/log-text.js';
import { RealtimeUpdates } from './sync/realtime.js';
import { describeWait, nextSyncDelayMs } from './sync/schedule.js';
import type { WebhookEvent } from './webhook/event.js';
import { WhoMovedIt } from './sync/who-moved-it.js';
import {
  ACTIVE_POLL_INTERVAL_MS,
  FAILED_SYNCS_BEFORE_NO_RESPONSE,
  MAX_ACCESSORIES_PER_BRIDGE,
  MAX_RETRY_AFTER_MS,
  PLATFORM_NAME,
  PLUGIN_NAME,
  SYNCS_MISSING_BEFORE_REMOVAL,
} from './settings.js';
import { SyncLoop } from './sync/loop.js';
import { asServiceError, syncFailureLogLine } from './sync/failure.js';

/** A door the options keep out of HomeKit, and why. */
interface ExcludedDoor {
  door: Door;
  reason: string;
}

export interface PlatformRuntime {
  clock?: Clock;
  clientTimeouts?: Timeouts;
  toggleTimeoutMs?: number;
  readTimeoutMs?: number;
}

export class AccessControlPlatform implements DynamicPlatformPlugin {
  /** Accessories restored from Homebridge's cache, by UUID, until the platform takes them over. */
  private readonly cached = new Map<string, PlatformAccessory<DoorContext>>();
  private readonly doors = new Map<string, GarageDoorAccessory>();
  private readonly missingCounts = new Map<string, number>();
  private readonly incidents: IncidentLog;
  private readonly bugs: BugLog;
  private readonly config: PluginConfig | undefined;
  private client: AccessControlClient | undefined;
  private loop: SyncLoop | undefined;
  private realtime: RealtimeUpdates | undefined;
  private whoMovedIt: WhoMovedIt | undefined;
  private failedSyncs = 0;
  private lastFailure: ServiceError | undefined;
  private overLimitWarned = false;
  /** Whether this incident's over-long Retry-After was already logged. */
  private retryAfterCapLogged = false;
  /** The unreadable parts last reported ('' for none): the same problem is logged once, not at every poll. */
  private unreadableReported = '';
  /** Pairs of doors Siri cannot tell apart that were warned about, so each is said once while it lasts. */
  private soundAlikeWarned = new Set<string>();
  /** The duplicate door ids last reported, likewise. */
  private duplicatesReported = '[]';
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

  constructor(
    private readonly log: Logging,
    private readonly rawConfig: PlatformConfig | undefined,
    private readonly api: API,
    /** Homebridge passes three arguments; tests pass a simulated clock and short timeouts. */
    private readonly runtime: PlatformRuntime = {},
  ) {
    this.incidents = new IncidentLog(log);
    const parsed = parseConfig(rawConfig);
    this.bugs = new BugLog(log, parsed.ok ? parsed.config.accessToken : undefined);
    if (!parsed.ok) {
      // Cached doors stay (automations survive a typo) and answer "No Response" until the config is fixed.
      log.error(`The configuration is not valid, so no door is synced until it is fixed: ${parsed.problems.join('; ')}.`);
      api.on('didFinishLaunching', () => this.adoptCachedDoors(false));
      return;
    }
    // A mistake in an optional setting costs only that setting: one line each, and the doors still sync.
    for (const sentence of parsed.ignored) {
      log.error(`In the configuration, ${sentence}.`);
    }
    this.config = parsed.config;
    api.on('didFinishLaunching', () => this.start());
    api.on('shutdown', () => void this.shutdown());
  }

  private get clock(): Clock {
    return this.runtime.clock ?? SYSTEM_CLOCK;
  }

  /** Tests wait on this after moving the simulated clock. */
  syncSettled(): Promise<void> {
    return this.loop?.settled() ?? Promise.resolve();
  }

  /** Homebridge hands over each cached accessory before didFinishLaunching. */
  configureAccessory(accessory: PlatformAccessory): void {
    if (isDoorContext(accessory.context)) {
      this.cached.set(accessory.UUID, accessory as PlatformAccessory<DoorContext>);
    } else {
      this.log.warn(`Removing cached accessory "${accessory.displayName}": it does not hold a door.`);
      this.api.unregisterPlatformAccessories(PLUGIN_NAME, PLATFORM_NAME, [accessory]);
    }
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
    });
    this.client = client;
    this.whoMovedIt = new WhoMovedIt((query) => client.history(query), this.log, () => this.clock.now());
    this.adoptCachedDoors(true);
    // The safety-net pace never polls more often than the user's own poll interval.
    const reconcileIntervalS = Math.max(config.webhook?.reconcileInterval ?? config.pollInterval, config.pollInterval);
    if (config.webhook) {
      this.realtime = new RealtimeUpdates({
        log: this.log,
        config: config.webhook,
        findDoor: (event) => this.findDoor(event),
        alertDoors: (event) => this.alertDoors(event),
        now: () => this.clock.now(),
        clock: this.clock,
        reservedPorts: () => readReservedPorts(this.homebridgeConfigPath(), this.rawConfig),
        bridgeUp: this.firstSync,
        pollIntervals: { normalS: config.pollInterval, safetyNetS: reconcileIntervalS },
        // A sync due at the safety-net pace is brought forward to the normal one.
        onWebhooksAtRisk: () => this.loop?.hurry(config.pollInterval * 1000),
      });
      void this.realtime.start();
    }
    this.loop = new SyncLoop(
      () => this.syncOnce(),
      () =>
        nextSyncDelayMs({
          // While webhooks arrive, polling is only the safety net.
          pollIntervalMs: (this.realtime?.flowing ? reconcileIntervalS : config.pollInterval) * 1000,
          failedSyncs: this.failedSyncs,
          retryAfterMs: this.lastFailure?.retryAfterMs,
          doorMoving: [...this.doors.values()].some((door) => door.isMoving),
          autoCloseInMs: this.nextAutoCloseInMs(),
        }),
      this.clock,
    );
    this.loop.start();
    if (!config.webhook && (config.accessAlert || config.doors.some((door) => door.accessAlert === true))) {
      // The service tells of unauthorized users and vehicles only by webhook: without the listener the alert never goes off.
      this.log.warn('The access alert is on, but webhooks are off, so it can never detect: the service reports unauthorized users and vehicles only by webhook. Turn on "Receive webhooks".');
    }
    const slower = config.webhook ? `, and every ${reconcileIntervalS} s while webhooks arrive` : '';
    this.log.info(`Syncing the account every ${config.pollInterval} s${slower}.`);
  }

  private adoptCachedDoors(readable: boolean): void {
    const renamed: PlatformAccessory[] = [];
    for (const accessory of this.cached.values()) {
      const cachedBefore = JSON.stringify(accessory.context);
      const door = this.createDoor(accessory);
      door.setAccountReadable(readable);
      // A name changed in the plugin settings, or a cached name cleaned, is kept in the cache at once, not at the door's next change.
      if (JSON.stringify(accessory.context) !== cachedBefore) {
        renamed.push(accessory);
      }
    }
    if (renamed.length > 0) {
      this.api.updatePlatformAccessories(renamed);
    }
  }

  private createDoor(accessory: PlatformAccessory<DoorContext>): GarageDoorAccessory {
    const config = this.config;
    const door = new GarageDoorAccessory(
      {
        api: this.api,
        log: this.log,
        toggle: (doorId, state) => {
          if (!this.client) {
            return Promise.reject(new Error('the configuration is not valid'));
          }
          return this.client.toggle(doorId, state);
        },
        transitionTimeoutMs: (config?.transitionTimeout ?? 0) * 1000,
        lowBatteryThresholdPct: config?.lowBatteryThreshold ?? 0,
        onCommandAccepted: () => this.loop?.hurry(ACTIVE_POLL_INTERVAL_MS),
        now: () => this.clock.now(),
        clock: this.clock,
        // Without a readable config, a cached door keeps the services it has: a typo must not break automations.
        options: config ? doorOptions(config, accessory.context.doorId, accessory.context.deviceId) : undefined,
      },
      accessory,
    );
    this.doors.set(accessory.UUID, door);
    return door;
  }

  /**
   * One sync. Only the service's answer can fail it (back-off, No Response); an exception of our own while applying a
   * good answer is a bug, logged as one, and the doors stay readable.
   */
  private async syncOnce(): Promise<void> {
    const client = this.client;
    if (!client) {
      return;
    }
    const sentMs = this.clock.now();
    try {
      let account: Account;
      try {
        account = await client.sync();
      } catch (error) {
        if (!this.stoppedMeanwhile()) {
          this.recordFailure(error);
        }
        return;
      }
      if (this.stoppedMeanwhile()) {
        this.log.debug('A sync answered after Homebridge began shutting down; not applied.');
        return;
      }
      this.failedSyncs = 0;
      this.lastFailure = undefined;
      this.retryAfterCapLogged = false;
      this.incidents.resolve('The account can be read again; door states are current.');
      try {
        this.reconcile(account, sentMs);
        this.realtime?.checkMissed();
      } catch (error) {
        this.bugs.report('applying a sync', error);
      }
    } finally {
      if (!this.stoppedMeanwhile()) {
        this.tickDoors();
      }
      this.firstSyncEnded();
    }
  }

  /** Read through a call: shutdown() may run while a sync awaits, which the type checker's narrowing of the field cannot see. */
  private stoppedMeanwhile(): boolean {
    return this.stopped;
  }

  /** Ends movements that took too long, also when syncs fail; one door's bug must not stop the others' ticks. */
  private tickDoors(): void {
    const changed: PlatformAccessory[] = [];
    for (const door of this.doors.values()) {
      try {
        const cachedBefore = JSON.stringify(door.accessory.context);
        door.tick();
        // A movement that timed out leaves an obstruction, which the cache keeps across a restart.
        if (JSON.stringify(door.accessory.context) !== cachedBefore) {
          changed.push(door.accessory);
        }
      } catch (error) {
        this.bugs.report('ending a door movement', error);
      }
    }
    if (changed.length > 0) {
      this.api.updatePlatformAccessories(changed);
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

  private recordFailure(error: unknown): void {
    const failure = asServiceError(error);
    this.failedSyncs += 1;
    this.lastFailure = failure;
    this.incidents.report(failure.kind, syncFailureLogLine(failure));
    const asked = failure.retryAfterMs;
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS && !this.retryAfterCapLogged) {
      // The schedule caps the wait; say so once, or a user would wonder why the plugin ignores the service.
      this.retryAfterCapLogged = true;
      this.log.warn(
        `The service asked to wait ${describeWait(asked)} before the next request; waiting ${describeWait(MAX_RETRY_AFTER_MS)} instead, the longest the plugin waits, then asking again.`,
      );
    }
    if (this.failedSyncs >= FAILED_SYNCS_BEFORE_NO_RESPONSE) {
      for (const door of this.doors.values()) {
        door.setAccountReadable(false);
      }
    }
  }

  /** Brings HomeKit in line with a successful sync: new doors appear, known ones update, gone ones leave. */
  private reconcile(account: Account, sentMs: number): void {
    this.reportUnreadable(account.unreadable);
    const config = this.config;
    if (!config) {
      return;
    }
    const { shown, excluded } = this.publishableDoors(account, config);
    // Doors the options keep out leave at once: that is the user's choice, not a glitch of the service.
    for (const { door, reason } of excluded) {
      const handler = this.doors.get(this.doorUuid(door.id));
      if (handler) {
        this.removeDoors([handler], reason);
      }
    }
    const seen = new Set<string>();
    const changed: PlatformAccessory[] = [];
    for (const { door, device } of shown) {
      const uuid = this.doorUuid(door.id);
      seen.add(uuid);
      this.missingCounts.delete(uuid);
      const handler = this.doors.get(uuid) ?? this.addDoor(uuid, door, device);
      handler.setAccountReadable(true);
      // A name that keeps changing in the account is left out of the comparison until it holds (see cacheSnapshot).
      const cachedBefore = handler.cacheSnapshot();
      const outcome = handler.update(door, device, sentMs);
      if (handler.cacheSnapshot() !== cachedBefore) {
        changed.push(handler.accessory);
      }
      this.realtime?.notePolled(handler, outcome);
      if (outcome === 'changed' && door.state !== null) {
        this.whoMovedIt?.explain(door.id, handler.name, door.state);
      }
    }
    // Homebridge writes the cache to disk on each update: only for doors whose cached state changed (SD cards wear).
    if (changed.length > 0) {
      this.api.updatePlatformAccessories(changed);
    }
    // A partial answer says nothing about doors it could not read; only a complete one may remove doors.
    if (account.unreadable.length === 0) {
      this.removeMissing(seen);
    }
    this.warnSoundAlike();
  }

  /** One warning per pair of shown doors Siri cannot tell apart, when the pair first appears (at start, or after a change). */
  private warnSoundAlike(): void {
    const doors = [...this.doors.values()].map((door) => ({ id: door.accessory.context.doorId, name: door.name }));
    const pairs = new Set<string>();
    for (const [first, second] of soundAlikePairs(doors)) {
      const key = JSON.stringify([first, second]);
      pairs.add(key);
      if (!this.soundAlikeWarned.has(key)) {
        this.log.warn(
          `Siri cannot tell ${first.name} (door ${oneLine(first.id)}) from ${second.name} (door ${oneLine(second.id)}) apart: their names differ only in case, spaces or punctuation. Give one of them its own "Name in Home" in the plugin settings.`,
        );
      }
    }
    this.soundAlikeWarned = pairs;
  }

  /** Derived from the door id alone, so a door keeps its HomeKit identity (and automations) across restarts. */
  private doorUuid(doorId: string): string {
    return this.api.hap.uuid.generate(`${PLUGIN_NAME}:${doorId}`);
  }

  /** The door a webhook names: by its id, or by its controller and number for door-numbered events. */
  private findDoor(event: WebhookEvent): GarageDoorAccessory | undefined {
    if (event.doorId !== undefined) {
      return this.doors.get(this.doorUuid(event.doorId));
    }
    return [...this.doors.values()].find(
      (door) => door.accessory.context.deviceId === event.deviceId && door.entityNumber === event.doorNumber,
    );
  }

  /** The doors an enforcer event is about: the door it names, else (naming no door) every door of the controller it names. */
  private alertDoors(event: WebhookEvent): GarageDoorAccessory[] {
    if (event.doorId !== undefined) {
      const door = this.doors.get(this.doorUuid(event.doorId));
      return door ? [door] : [];
    }
    return event.deviceId === undefined ? [] : [...this.doors.values()].filter((door) => door.accessory.context.deviceId === event.deviceId);
  }

  /** Every door of every device the options let in, capped at what one bridge can hold, in a stable order. */
  private publishableDoors(account: Account, config: PluginConfig): { shown: DoorOfDevice[]; excluded: ExcludedDoor[] } {
    const shown: DoorOfDevice[] = [];
    const excluded: ExcludedDoor[] = [];
    for (const device of account.devices) {
      for (const door of device.doors) {
        const reason = exclusionReason(config, door, device.id);
        if (reason === undefined) {
          shown.push({ door, device });
        } else {
          excluded.push({ door, reason });
        }
      }
    }
    const { kept, duplicates } = keepFirstOfEachDoor(shown);
    this.reportDuplicates(duplicates);
    // A door shown under one controller is not removed for being filtered out under another.
    const keptIds = new Set(kept.map(({ door }) => door.id));
    return this.capped(kept, excluded.filter(({ door }) => !keptIds.has(door.id)));
  }

  /** The shown doors, cut to what one bridge holds in a stable order (by door id), with one warning. */
  private capped(shown: DoorOfDevice[], excluded: ExcludedDoor[]): { shown: DoorOfDevice[]; excluded: ExcludedDoor[] } {
    if (shown.length <= MAX_ACCESSORIES_PER_BRIDGE) {
      return { shown, excluded };
    }
    if (!this.overLimitWarned) {
      this.overLimitWarned = true;
      this.log.warn(
        `The account has ${shown.length} doors but one bridge holds at most ${MAX_ACCESSORIES_PER_BRIDGE}; the first ${MAX_ACCESSORIES_PER_BRIDGE} by door id are shown (see "Limits" in the README).`,
      );
    }
    shown.sort((a, b) => a.door.id.localeCompare(b.door.id));
    return { shown: shown.slice(0, MAX_ACCESSORIES_PER_BRIDGE), excluded };
  }

  /** Logs the parts of a sync that could not be read when they differ from the last ones logged, and when none are left. */
  private reportUnreadable(unreadable: string[]): void {
    const key = unreadable.join('\n');
    if (key === this.unreadableReported) {
      return;
    }
    const hadProblem = this.unreadableReported !== '';
    this.unreadableReported = key;
    if (unreadable.length > 0) {
      this.log.warn(`Part of the account could not be read and is left as it was: ${listForLog(unreadable)}.`);
    } else if (hadProblem) {
      this.log.info('Every part of the account can be read again.');
    }
  }

  /** Names door ids listed under more than one controller, once for each set of them. */
  private reportDuplicates(duplicates: DuplicateDoor[]): void {
    const key = JSON.stringify(duplicates);
    if (key === this.duplicatesReported) {
      return;
    }
    this.duplicatesReported = key;
    if (duplicates.length > 0) {
      const named = duplicates.map(({ doorId, deviceIds }) => `door ${doorId} (controllers ${deviceIds.join(', ')})`);
      this.log.warn(
        `The account lists the same door under more than one controller; each is shown once, as the door of the first controller by id: ${listForLog(named)}.`,
      );
    }
  }

  private addDoor(uuid: string, door: Door, device: Device): GarageDoorAccessory {
    const accountName = homeKitName(door.name, fallbackDoorName(door.id));
    // A new door comes with the name it shows from the start: a Name in Home from the settings, else the account's.
    const context: DoorContext = { doorId: door.id, deviceId: device.id, name: accountName, accountName, state: door.state ?? 'CLOSED' };
    const { name } = shownName(context, this.config ? doorOptions(this.config, door.id).name : undefined);
    context.name = name;
    const accessory = new this.api.platformAccessory<DoorContext>(name, uuid);
    // A new door starts from its reported state; an unknown one is shown closed until the service says otherwise.
    accessory.context = context;
    const handler = this.createDoor(accessory);
    this.api.registerPlatformAccessories(PLUGIN_NAME, PLATFORM_NAME, [accessory]);
    // The ids are the service's text: cleaned, so a newline in one cannot forge a log line.
    this.log.info(`Added ${name} to HomeKit (door ${oneLine(door.id)}, controller ${oneLine(device.id)}).`);
    return handler;
  }

  private removeMissing(seen: Set<string>): void {
    const gone: GarageDoorAccessory[] = [];
    for (const [uuid, door] of this.doors) {
      if (seen.has(uuid)) {
        continue;
      }
      const misses = (this.missingCounts.get(uuid) ?? 0) + 1;
      if (misses < SYNCS_MISSING_BEFORE_REMOVAL) {
        this.missingCounts.set(uuid, misses);
        continue;
      }
      gone.push(door);
    }
    this.removeDoors(gone, 'the account no longer has it');
  }

  private removeDoors(doors: GarageDoorAccessory[], reason: string): void {
    for (const door of doors) {
      this.log.info(`Removed ${door.name} from HomeKit: ${reason}.`);
      door.dispose();
      this.missingCounts.delete(door.accessory.UUID);
      this.doors.delete(door.accessory.UUID);
      this.cached.delete(door.accessory.UUID);
    }
    if (doors.length > 0) {
      this.api.unregisterPlatformAccessories(
        PLUGIN_NAME,
        PLATFORM_NAME,
        doors.map((door) => door.accessory),
      );
    }
  }

  /** Milliseconds until the next door is expected to close by itself (negative once overdue), if any. */
  private nextAutoCloseInMs(): number | undefined {
    const times = [...this.doors.values()].map((door) => door.expectedAutoCloseAtMs).filter((t) => t !== undefined);
    return times.length > 0 ? Math.min(...times) - this.clock.now() : undefined;
  }

  /** Stops every timer and socket so Homebridge exits at once and a restart never finds anything in use. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    this.loop?.stop();
    this.whoMovedIt?.stop();
    // A listener start still waiting for the first sync must end too (it sees the stop and opens nothing).
    this.firstSyncEnded();
    for (const door of this.doors.values()) {
      door.dispose();
    }
    await Promise.all([this.client?.close(), this.realtime?.stop()]);
  }
}

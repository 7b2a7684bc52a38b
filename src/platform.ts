// The platform: Homebridge's lifecycle (cache, launch, shutdown) and the wiring of the door registry, person sensors, protection, Matter and the account sync.
import type { API, DynamicPlatformPlugin, Logging, PlatformAccessory, PlatformConfig } from 'homebridge';

import { BugLog } from './util/bug-log.js';
import { redactingLog } from './util/redacting-log.js';
import { secretsOf } from './config/secret-values.js';
import type { Timeouts } from './client/http.js';
import { SYSTEM_CLOCK } from './util/clock.js';
import type { Clock } from './util/clock.js';
import { parseConfig } from './config/index.js';
import type { PluginConfig } from './config/index.js';
import { logConfigAdvice, logConfigProblems } from './config/findings-log.js';
import { exclusionReason } from './config/door-options.js';
import { claimAccount, handOver } from './config/same-account.js';
import { MatterFollower } from './matter/matter-follower.js';
import { AccountSync } from './sync/account-sync.js';
import { homebridgeConfigPath, readHomebridgeConfig } from './util/homebridge-config.js';
import { readReservedPorts } from './util/homebridge-ports.js';
import { BridgeEve, eveWanted } from './eve/bridge-eve.js';
import { doorFactory } from './door-factory.js';
import { DoorRegistry } from './registry/door-registry.js';
import { People } from './people/sensors.js';
import { ProtectionCache } from './config/protection-cache.js';
import { OPTION_DEFAULTS } from './option-values.js';

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
  /** What the settings protect in the doors known now, and the doors the gate knows (src/config/protection-cache.ts). */
  private readonly protection: ProtectionCache;
  private readonly bugs: BugLog;
  private readonly config: PluginConfig | undefined;
  /** The account kept in step (src/sync/account-sync.ts): made at launch with a readable config. */
  private sync: AccountSync | undefined;
  /** The doors' Eve histories (src/eve/bridge-eve.ts): in their file when a door wants one at launch, else in memory. */
  private readonly eve: BridgeEve;
  /** The doors and person sensors on Matter (Homebridge 2.x), loaded at launch where wanted (src/matter/matter-follower.ts). */
  private readonly matter: MatterFollower;
  /** Set at shutdown: a request in flight still gets its answer, which must then register, start, write and log nothing. */
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
    this.log = log = redactingLog(log, secretsOf(rawConfig ?? {}));
    const parsed = parseConfig(rawConfig);
    this.config = parsed.ok ? parsed.config : undefined;
    this.bugs = new BugLog(log);
    this.eve = new BridgeEve({ log, bugs: this.bugs, clock: this.clock });
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
    this.registry = new DoorRegistry({
      api,
      log,
      bugs: this.bugs,
      config: this.config,
      protection: () => this.protection.current,
      createDoor: doorFactory({
        api,
        log,
        config: this.config,
        clock: this.clock,
        sync: () => this.sync,
        protection: this.protection,
        eve: (doorId) => this.eve.door(doorId),
        readTimeoutMs: runtime.readTimeoutMs,
      }),
      notePolled: (door, outcome) => this.sync?.realtime?.notePolled(door, outcome),
      doorMoved: (doorId, name, state, lastToggled) => this.sync?.whoMovedIt.explain(doorId, name, state, lastToggled),
      doorSeen: (doorId, state, lastToggled) => {
        this.sync?.whoMovedIt.seen(doorId, lastToggled);
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
    logConfigProblems(log, parsed);
    if (!parsed.ok) {
      api.on('didFinishLaunching', () => this.registry.adoptCached(false));
      return;
    }
    // A second block of one account does not start: its cached doors go to the first block in this process, or else
    // answer No Response and refuse every command.
    const claim = claimAccount(readHomebridgeConfig(api), rawConfig, (accessory) => this.registry.fromCache(accessory));
    this.released = claim.release;
    api.on('shutdown', () => void this.shutdown());
    if (claim.refusal !== undefined) {
      log.error(claim.refusal);
      this.refusedAsSecond = true;
      api.on('didFinishLaunching', () => this.registry.adoptCached(false));
      return;
    }
    logConfigAdvice(log, parsed);
    api.on('didFinishLaunching', () => {
      // Homebridge ends when a listener throws: an exception of ours at start is a logged bug, and the doors keep working.
      try {
        this.start();
      } catch (error) {
        this.bugs.report('starting the plugin', error);
      }
    });
  }

  private get clock(): Clock {
    return this.runtime.clock ?? SYSTEM_CLOCK;
  }

  /** Tests wait on this after moving the simulated clock: the sync, and the history read at start it set off. */
  async syncSettled(): Promise<void> {
    await Promise.all([this.matter.loaded, this.sync?.settled()]);
    await this.sync?.whoMovedIt.settled();
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
    const historyWanted = eveWanted(config);
    if (historyWanted) this.eve.open(this.api.user.storagePath(), this.rawConfig);
    const sync = new AccountSync({
      config,
      runtime: this.runtime,
      log: this.log,
      bugs: this.bugs,
      clock: this.clock,
      registry: this.registry,
      people: this.people,
      protection: this.protection,
      eveWanted: historyWanted,
      eve: () => this.eve.current,
      followOnMatter: (complete) => this.matter.follow(complete),
      reservedPorts: () => readReservedPorts(homebridgeConfigPath(this.api), this.rawConfig),
      stopped: () => this.stoppedMeanwhile(),
    });
    this.sync = sync;
    this.registry.adoptCached(true);
    // A cached door the settings leave out leaves Home now, from its cached id alone: a sync that never comes good (429,
    // an outage, a partial answer) must not keep it there. Again once the look-alike letters have loaded, if they must.
    this.protection.startWithCached((protection) =>
      this.registry.leaveOut((accessory) =>
        exclusionReason(config, { id: accessory.context.doorId, relationship: undefined }, accessory.context.deviceId, protection),
      ),
    );
    // The bridge's room is planned before the person sensors are added: cached doors past it leave first.
    this.registry.fitCached(this.people.planned());
    try {
      this.people.start();
    } catch (error) {
      this.bugs.report('adding the person sensors', error);
    }
    this.matter.start(config);
    sync.start();
  }

  /** Read through a call: shutdown() may run while a sync awaits, which the type checker's narrowing of the field cannot see. */
  private stoppedMeanwhile(): boolean {
    return this.stopped;
  }

  /** Stops every timer and socket so Homebridge exits at once and a restart never finds anything in use. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    this.released();
    this.sync?.stop();
    this.eve.stop();
    this.registry.dispose();
    this.people.dispose();
    this.matter.dispose();
    await Promise.all([this.sync?.client.close(), this.sync?.realtime?.stop()]);
  }
}

// One sync of the account and what its answer changes: protection and the gate's doors, the doors in HomeKit, their Eve
// histories, who moved them, the ids of the settings that name nothing, Matter and the missed-webhook watch.
import type { Logging } from 'homebridge';

import type { AccessControlClient } from '../client/service-client.js';
import type { Account } from '../client/types.js';
import { exclusionReason } from '../config/door-options.js';
import type { PluginConfig } from '../config/index.js';
import type { ProtectionCache } from '../config/protection-cache.js';
import type { EveHistories } from '../eve/eve-histories.js';
import type { PeopleDoorCheck } from '../people/door-check.js';
import type { People } from '../people/sensors.js';
import type { DoorRegistry } from '../registry/door-registry.js';
import type { BugLog } from '../util/bug-log.js';
import type { Clock } from '../util/clock.js';
import type { SyncHealth } from './health.js';
import type { RealtimeUpdates } from './realtime.js';
import type { ServiceWait } from './service-wait.js';
import type { WhoMovedIt } from './who-moved-it.js';

export interface SyncStepDeps {
  client: AccessControlClient;
  /** The wait the service asked for with Retry-After: no sync before it has passed. */
  serviceWait: ServiceWait;
  config: PluginConfig;
  log: Logging;
  bugs: BugLog;
  clock: Clock;
  health: SyncHealth;
  registry: DoorRegistry;
  /** The person sensors (`people`): who came through, for automations. */
  people: People;
  /** Names a `people[].doors` id that counts for nobody, once. */
  peopleDoors: PeopleDoorCheck;
  protection: ProtectionCache;
  /** The doors' Eve histories, when kept: made at launch, or in memory once a door asks for its own. */
  eve: () => EveHistories | undefined;
  whoMovedIt: WhoMovedIt;
  /** The webhook side, once it has loaded (only where webhooks are on). */
  realtime: () => RealtimeUpdates | undefined;
  /** A sync's doors for Matter (src/matter/matter-follower.ts); `complete` when it read the whole account. */
  followOnMatter: (complete: boolean) => void;
  /** Read through a call: Homebridge may begin shutting down while a sync awaits. */
  stopped: () => boolean;
  /** Called when a sync has ended, however it ended. */
  ended: () => void;
}

export class SyncStep {
  constructor(private readonly deps: SyncStepDeps) {}

  /**
   * One sync. Only the service's answer can fail it (back-off, No Response); an exception of our own while applying a
   * good answer is a bug, logged as one, and the doors stay readable.
   */
  async run(): Promise<void> {
    const { client, health, registry, people, protection } = this.deps;
    const sentMs = this.deps.clock.now();
    try {
      let account: Account;
      try {
        account = await this.deps.serviceWait.send(() => client.sync());
      } catch (error) {
        if (!this.deps.stopped()) {
          health.failed(error);
          this.deps.realtime()?.syncFailed();
        }
        return;
      }
      if (this.deps.stopped()) {
        this.deps.log.debug('A sync answered after Homebridge began shutting down; not applied.');
        return;
      }
      health.succeeded();
      people.setAccountReadable(true);
      try {
        health.noteUnreadable(account.unreadable);
        const complete = account.unreadable.length === 0;
        const known = protection.knownDoors(account);
        await protection.protect(known);
        if (this.deps.stopped()) return;
        protection.remember(known.doors);
        registry.reconcile(account, sentMs);
        // A door that left HomeKit takes its Eve history along.
        this.deps.eve()?.retain(registry.all().map((door) => door.accessory.context.doorId));
        // The history as it stands, for each door shown that was never looked at: its first move is told from it.
        this.deps.whoMovedIt.track(
          registry
            .all()
            .map((door) => ({ doorId: door.accessory.context.doorId, deviceId: door.accessory.context.deviceId, name: door.name })),
        );
        if (complete) this.checkNamedIds(account);
        // A partial answer says nothing of the doors it could not read: only a complete one removes cached Matter devices.
        this.deps.followOnMatter(complete);
        this.deps.realtime()?.checkMissed();
      } catch (error) {
        this.deps.bugs.report('applying a sync', error);
      }
    } finally {
      if (!this.deps.stopped()) {
        registry.tick();
        this.deps.eve()?.tick();
      }
      this.deps.ended();
    }
  }

  /**
   * After a sync that read the whole account: a `people[].doors` id of no door HomeKit shows is named, and so is an id of
   * a door entry or a filter that names nothing in the account (it protects nothing), each once.
   */
  private checkNamedIds(account: Account): void {
    const { config, protection } = this.deps;
    protection.sayFindings();
    const shown = new Set(this.deps.registry.all().map((door) => door.accessory.context.doorId));
    const doors = account.devices.flatMap((device) =>
      device.doors.map((door) => ({
        id: door.id,
        name: door.name,
        keptOutBecause: exclusionReason(config, door, device.id, protection.current),
      })),
    );
    this.deps.peopleDoors.check(doors, shown);
  }
}

// The doors in HomeKit, one cached accessory each: cached ones taken over, the account's doors added, updated and removed
// after each sync, found by id for webhooks, and ticked.
import type { API, Logging, PlatformAccessory } from 'homebridge';

import type { Account, Device, Door } from '../client/types.js';
import type { PluginConfig } from '../config/index.js';
import type { Protection } from '../config/protection.js';
import type { DoorContext } from '../door/model/context.js';
import { isDoorContext } from '../door/model/context.js';
import type { DoorAccessory } from '../door/door-accessory.js';
import { doorOptions } from '../config/door-options.js';
import { PLATFORM_NAME, PLUGIN_NAME } from '../settings.js';
import type { BugLog } from '../util/bug-log.js';
import { oneLine } from '../util/log-text.js';
import type { WebhookEvent } from '../webhook/event.js';
import { doorRoom, shownDoors } from './shown-doors.js';
import { fitOnBridge, pastRoom } from './bridge-room.js';
import { DoorFinder } from './door-finder.js';
import { tickDoors } from './door-ticks.js';
import { applyReport } from './door-report.js';
import type { DoorReportFollowers } from './door-report.js';
import { MissedSyncs } from './missed-syncs.js';
import { newDoorContext } from './new-door.js';
import { RegistryNotices } from './registry-notices.js';

/** `notePolled`, `doorMoved` and `doorSeen` (DoorReportFollowers) are told what each sync found of each door. */
export interface DoorRegistryDeps extends DoorReportFollowers {
  api: API;
  log: Logging;
  bugs: BugLog;
  /** Undefined when the config cannot be read: cached doors then keep what they have, and no sync comes. */
  config: PluginConfig | undefined;
  /** What settings that name no door exactly could mean, as of now (src/config/protection.ts). */
  protection?: () => Protection;
  /** The HomeKit side of one door around its accessory (the platform wires in the client, the clock and the schedule). */
  createDoor: (accessory: PlatformAccessory<DoorContext>) => DoorAccessory;
  /** Takes a cached accessory that holds no door but is the plugin's all the same (a person sensor); false: not one. */
  takeOther?: (accessory: PlatformAccessory) => boolean;
  /** The plugin's accessories on the bridge that are not doors (person sensors); the config's people by default. */
  otherAccessories?: () => number;
}

export class DoorRegistry {
  /** Accessories restored from Homebridge's cache, by UUID, until the registry takes them over. */
  private readonly cached = new Map<string, PlatformAccessory<DoorContext>>();
  private readonly doors = new Map<string, DoorAccessory>();
  /** Complete syncs in a row that did not list each door. */
  private readonly missed = new MissedSyncs();
  /** What is said of the doors shown: those the cap leaves out, duplicates, names Siri cannot tell apart. */
  private readonly notices: RegistryNotices;
  /** The doors a webhook event is about. */
  private readonly finder: DoorFinder<DoorAccessory>;

  constructor(private readonly deps: DoorRegistryDeps) {
    this.notices = new RegistryNotices(deps.log, () => this.others());
    this.finder = new DoorFinder(this.doors, (doorId) => this.uuid(doorId));
  }

  /** Homebridge hands over each cached accessory before didFinishLaunching. */
  fromCache(accessory: PlatformAccessory): void {
    if (isDoorContext(accessory.context)) {
      this.cached.set(accessory.UUID, accessory as PlatformAccessory<DoorContext>);
    } else if (this.deps.takeOther?.(accessory) !== true) {
      this.deps.log.warn(`Removing cached accessory "${accessory.displayName}": it does not hold a door.`);
      this.deps.api.unregisterPlatformAccessories(PLUGIN_NAME, PLATFORM_NAME, [accessory]);
    }
  }

  /** Makes a door of each cached accessory; `readable` is false when no sync will come (the config is not valid). */
  adoptCached(readable: boolean): void {
    const renamed: PlatformAccessory[] = [];
    for (const accessory of this.cached.values()) {
      const cachedBefore = JSON.stringify(accessory.context);
      const door = this.take(accessory);
      door.setAccountReadable(readable);
      // A name changed in the plugin settings, a cached name cleaned, or the door shown as another kind (its main service
      // replaced) is kept in the cache at once, not at the door's next change.
      if (JSON.stringify(accessory.context) !== cachedBefore || door.kindChanged) {
        renamed.push(accessory);
      }
    }
    if (renamed.length > 0) {
      this.deps.api.updatePlatformAccessories(renamed);
    }
  }

  /**
   * Takes out of Home, at start, each cached door `reasonOf` says the settings leave out (from its cached id alone, not
   * waiting for a sync). Its automations are the user's: removing them is what leaving a door out means, and the line says so.
   */
  leaveOut(reasonOf: (accessory: PlatformAccessory<DoorContext>) => string | undefined): void {
    for (const door of [...this.doors.values()]) {
      const reason = reasonOf(door.accessory);
      if (reason !== undefined) {
        this.remove([door], `${reason} (its automations in Home go with it; set them up again if you show it again)`);
      }
    }
  }

  /**
   * At start, before the plugin adds anything: cached doors past the bridge's room (`others` accessories of the plugin
   * that are not doors take theirs first) leave, the last by door id, so what is added next fits. Homebridge would throw
   * at the 150th accessory and stop.
   */
  fitCached(others: number): void {
    this.remove(pastRoom(this.doors.values(), doorRoom(others)), this.notices.noRoom(others));
  }

  /** Brings HomeKit in line with a successful sync: new doors appear, known ones update, gone ones leave. */
  reconcile(account: Account, sentMs: number): void {
    const config = this.deps.config;
    if (!config) {
      return;
    }
    // Every door the options let in, before the cap: a door the cap leaves out is still the account's, never "missing".
    const listed = shownDoors(account, config, this.deps.protection?.(), { room: Number.POSITIVE_INFINITY });
    this.notices.reportDuplicates(listed.duplicates);
    // Doors the options keep out leave at once: that is the user's choice, not a glitch of the service.
    for (const { door, reason } of listed.excluded) {
      const handler = this.doors.get(this.uuid(door.id));
      if (handler) {
        this.remove([handler], reason);
      }
    }
    const seen = new Set(listed.shown.map(({ door }) => this.uuid(door.id)));
    // A partial answer says nothing about doors it could not read; only a complete one may remove doors. Removed before
    // any door is added, so the bridge never holds both.
    if (account.unreadable.length === 0) {
      this.remove(this.missed.gone(this.doors, seen), 'the account no longer has it');
    }
    const fit = fitOnBridge(listed.shown, this.doors, seen, doorRoom(this.others()), (doorId) => this.uuid(doorId));
    this.notices.reportLeftOut(fit.leftOut, fit.overLimit);
    this.remove(fit.cut, this.notices.noRoom());
    const changed: PlatformAccessory[] = [];
    for (const { door, device } of fit.shown) {
      const uuid = this.uuid(door.id);
      this.missed.forget(uuid);
      const handler = this.doors.get(uuid) ?? this.add(uuid, door, device);
      if (handler && applyReport(handler, door, device, sentMs, this.deps)) {
        changed.push(handler.accessory);
      }
    }
    // Homebridge writes the cache to disk on each update: only for doors whose cached state changed (SD cards wear).
    if (changed.length > 0) {
      this.deps.api.updatePlatformAccessories(changed);
    }
    this.notices.warnSoundAlike([...this.doors.values()].map((door) => ({ id: door.accessory.context.doorId, name: door.name })));
  }

  /** The door a webhook names (door-finder.ts). */
  find(event: WebhookEvent): DoorAccessory | undefined {
    return this.finder.find(event);
  }

  /** The doors an enforcer event is about (door-finder.ts). */
  alertDoors(event: WebhookEvent): DoorAccessory[] {
    return this.finder.alertDoors(event);
  }

  /** Ends movements that took too long, also when syncs fail; one door's bug must not stop the others' ticks. */
  tick(): void {
    const changed = tickDoors(this.doors.values(), this.deps.bugs);
    if (changed.length > 0) {
      this.deps.api.updatePlatformAccessories(changed);
    }
  }

  /** Whether every door may be trusted (false: "No Response" until a sync reads the account again). */
  setAccountReadable(readable: boolean): void {
    for (const door of this.doors.values()) {
      door.setAccountReadable(readable);
    }
  }

  /** Every door HomeKit shows now (the Matter side shows the same). */
  all(): DoorAccessory[] {
    return [...this.doors.values()];
  }

  /** Whether a door is moving (the schedule then follows it closely). */
  get anyMoving(): boolean {
    return [...this.doors.values()].some((door) => door.facts.isMoving);
  }

  /** When the next door is expected to close by itself, if any. */
  get nextAutoCloseAtMs(): number | undefined {
    const times = [...this.doors.values()].map((door) => door.facts.expectedAutoCloseAtMs).filter((t) => t !== undefined);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** Stops every door's timers (at Homebridge's shutdown). */
  dispose(): void {
    for (const door of this.doors.values()) {
      door.dispose();
    }
  }

  /** Derived from the door id alone, so a door keeps its HomeKit identity (and automations) across restarts. */
  private uuid(doorId: string): string {
    return this.deps.api.hap.uuid.generate(`${PLUGIN_NAME}:${doorId}`);
  }

  private take(accessory: PlatformAccessory<DoorContext>): DoorAccessory {
    // The settings page lists a cached door under the entry that shows it, never under another one of the same account.
    if (this.deps.config !== undefined) accessory.context.entry = this.deps.config.name;
    const door = this.deps.createDoor(accessory);
    this.doors.set(accessory.UUID, door);
    return door;
  }

  private add(uuid: string, door: Door, device: Device): DoorAccessory | undefined {
    const config = this.deps.config;
    const context = newDoorContext(door, device, config ? doorOptions(config, door.id).name : undefined);
    const { name } = context;
    const accessory = new this.deps.api.platformAccessory<DoorContext>(name, uuid);
    // A new door starts from its reported state.
    accessory.context = context;
    const handler = this.take(accessory);
    try {
      this.deps.api.registerPlatformAccessories(PLUGIN_NAME, PLATFORM_NAME, [accessory]);
    } catch (error) {
      // The room was planned (reconcile), so this is a bug of ours or Homebridge's: the other doors keep working.
      handler.dispose();
      this.doors.delete(uuid);
      this.deps.bugs.report(`adding door ${oneLine(door.id)} to HomeKit`, error);
      return undefined;
    }
    // The ids are the service's text: cleaned, so a newline in one cannot forge a log line.
    this.deps.log.info(`Added ${name} to HomeKit (door ${oneLine(door.id)}, controller ${oneLine(device.id)}).`);
    return handler;
  }

  private remove(doors: DoorAccessory[], reason: string): void {
    for (const door of doors) {
      this.deps.log.info(`Removed ${door.name} from HomeKit: ${reason}.`);
      door.dispose();
      this.missed.forget(door.accessory.UUID);
      this.doors.delete(door.accessory.UUID);
      this.cached.delete(door.accessory.UUID);
    }
    if (doors.length > 0) {
      this.deps.api.unregisterPlatformAccessories(
        PLUGIN_NAME,
        PLATFORM_NAME,
        doors.map((door) => door.accessory),
      );
    }
  }

  private others(): number {
    return this.deps.otherAccessories?.() ?? this.deps.config?.people.length ?? 0;
  }
}

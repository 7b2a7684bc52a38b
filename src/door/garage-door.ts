// One door as a HomeKit garage door: shows what the door is really doing and turns Home's target changes into toggles.
import type { API, Characteristic, CharacteristicValue, Logging, PlatformAccessory, Service } from 'homebridge';

import { ServiceError, ToggleRejectedError } from '../client/errors.js';
import type { Device, Door, DoorState } from '../client/types.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { DoorStateMachine } from './state-machine.js';
import type { ReportOutcome, ShownState } from './state-machine.js';
import type { DoorOptions } from './options.js';
import { homeKitName, homeKitSerial, homeKitVersion } from './homekit-name.js';
import { oneLine } from '../util/log-text.js';
import {
  ACCESSORY_MANUFACTURER,
  ACCESSORY_MODEL,
  ACCOUNT_RENAME_QUIET_WINDOW_MS,
  ACCOUNT_RENAMES_BEFORE_QUIET,
  COMMAND_START_DEADLINE_MS,
  DEFAULT_LEFT_OPEN_AFTER_S,
  HAP_WRITE_ANSWER_MS,
} from '../settings.js';
import { EventOrder } from '../webhook/event-order.js';
import { DoorBattery } from './battery.js';
import { DoorExtras } from './extras.js';
import type { DoorContext } from './context.js';
import { configuredNameOf, describeSource, renameDerivedServices, shownName } from './door-name.js';
import { fallbackDoorName } from '../client/schemas.js';
import { RenameRate } from './rename-rate.js';

export interface DoorAccessoryDeps {
  api: API;
  log: Logging;
  toggle: (doorId: string, state: DoorState) => Promise<void>;
  transitionTimeoutMs: number;
  lowBatteryThresholdPct: number;
  /** The door's options; undefined when the config could not be read (the door then keeps the services it has). */
  options: DoorOptions | undefined;
  /** A command was accepted: the platform should sync soon and often until the door arrives. */
  onCommandAccepted: () => void;
  now: () => number;
  /** Sets the door's timers (the left-open sensor); the real clock by default. */
  clock?: Clock;
}

/** A wish from Home waiting for the command before it to finish. */
interface WaitingCommand {
  wanted: DoorState;
  /** When Home sent it: HAP answers it as failed HAP_WRITE_ANSWER_MS later, whatever the plugin does. */
  arrivedMs: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GarageDoorAccessory {
  private readonly service: Service;
  private readonly machine: DoorStateMachine;
  private battery: DoorBattery | undefined;
  /** Commands to one door run one after another, never overlapping; only the latest wish waits its turn. */
  private commandRunning = false;
  private waiting: WaitingCommand | undefined;
  private accountReadable = true;
  private deviceActive = true;
  private doorActive = true;
  private unknownStateLogged = false;
  /** Which webhook events and syncs are too old to apply. */
  private readonly eventOrder = new EventOrder();
  /** The door's number on its controller, for webhooks that name doors by number (door1_open). */
  entityNumber: number | undefined;
  /** Since when the door is known to be open (local time); counted from the plugin's start for a door open then. */
  private openSinceMs: number | undefined;
  /** The controller's own "door open" alert time, seconds. */
  private deviceAlertS: number | undefined;
  private autoCloseDelayS: number | undefined;
  private readonly extras: DoorExtras;
  /** The GarageDoorOpener's ConfiguredName: the Home app writes it when the user renames the door there. */
  private readonly configuredName: Characteristic;
  /** How often the account renames the door: a name that keeps changing is followed quietly. */
  private readonly accountRenames = new RenameRate(ACCOUNT_RENAMES_BEFORE_QUIET, ACCOUNT_RENAME_QUIET_WINDOW_MS);

  constructor(
    private readonly deps: DoorAccessoryDeps,
    readonly accessory: PlatformAccessory<DoorContext>,
  ) {
    const { Service: S, Characteristic: C } = deps.api.hap;
    const context = accessory.context;
    // An older cache, or a value in it that is bad or already reached, holds no obstruction: off rather than on forever.
    const cachedMissed = context.missedTarget;
    const missed = (cachedMissed === 'OPEN' || cachedMissed === 'CLOSED') && cachedMissed !== context.state ? cachedMissed : undefined;
    this.machine = new DoorStateMachine(context.state, missed);
    this.rememberMissed();
    this.openSinceMs = context.state === 'OPEN' ? deps.now() : undefined;
    const cachedName = context.name;
    cleanCachedNames(context);

    accessory
      .getService(S.AccessoryInformation)
      ?.setCharacteristic(C.Manufacturer, ACCESSORY_MANUFACTURER)
      .setCharacteristic(C.Model, ACCESSORY_MODEL)
      .setCharacteristic(C.SerialNumber, homeKitSerial(context.doorId));

    this.service = accessory.getService(S.GarageDoorOpener) ?? accessory.addService(S.GarageDoorOpener, context.name);
    this.service.setCharacteristic(C.Name, context.name);
    this.configuredName = configuredNameOf(deps.api.hap, this.service, context.name);
    this.configuredName.onSet((value) => {
      this.renamedInHome(value);
    });
    this.service.getCharacteristic(C.CurrentDoorState).onGet(() => this.answer(this.currentDoorState()));
    this.service.getCharacteristic(C.TargetDoorState).onGet(() => this.answer(this.targetDoorState()));
    this.service
      .getCharacteristic(C.TargetDoorState)
      .onSet((value) => this.enqueueCommand(value === C.TargetDoorState.OPEN ? 'OPEN' : 'CLOSED'));
    // The service reports no obstruction; the plugin shows one while a commanded move has not arrived (see the state machine).
    this.service.getCharacteristic(C.ObstructionDetected).onGet(() => this.answer(this.obstructionDetected()));
    if (deps.options?.hideBattery === true) {
      DoorBattery.remove(deps.api, accessory);
    }
    this.extras = new DoorExtras(deps.api, accessory, context.name, deps.options, {
      target: () => this.machine.target,
      reported: () => this.machine.reported,
      isLeftOpen: () => this.leftOpenDueInMs() === 0,
      leftOpenDueInMs: () => {
        const dueInMs = this.leftOpenDueInMs();
        // 0 means due already: nothing left to wait for.
        return dueInMs === 0 ? undefined : dueInMs;
      },
      command: (wanted) => this.enqueueCommand(wanted),
      answer: (value) => this.answer(value),
      available: () => this.available,
      log: deps.log,
      clock: deps.clock ?? SYSTEM_CLOCK,
      name: () => this.name,
    });
    // A cached name the rules of this version cut or cleaned: HomeKit gets the clean one too, extras included.
    if (context.name !== cachedName) {
      this.applyName(cachedName, context.name);
    }
    // A name set, changed or removed in the plugin settings since the last start.
    const before = this.showName();
    if (before !== undefined) {
      deps.log.info(`${before} is now named ${context.name}, from ${describeSource(shownName(context, deps.options?.name).source)}.`);
    }
    this.push();
  }

  /** When the door, still open, is expected to close by itself (auto-close), in local time. */
  get expectedAutoCloseAtMs(): number | undefined {
    return this.autoCloseDelayS && this.openSinceMs !== undefined ? this.openSinceMs + this.autoCloseDelayS * 1000 : undefined;
  }

  /** Stops the door's timers (Homebridge is shutting down or the door leaves HomeKit). */
  dispose(): void {
    this.extras.dispose();
  }

  /** An enforcer event named this door or its controller: its access alert, if on, detects. Never moves the door. */
  alertAccess(): boolean {
    return this.extras.alertAccess();
  }

  /** 0 once the door has stood open past its alert time, the time left before that while open, undefined when closed. */
  private leftOpenDueInMs(): number | undefined {
    if (this.machine.reported !== 'OPEN' || this.openSinceMs === undefined) {
      return undefined;
    }
    const alertS = this.deps.options?.leftOpenAfterS ?? (this.deviceAlertS && this.deviceAlertS > 0 ? this.deviceAlertS : DEFAULT_LEFT_OPEN_AFTER_S);
    return Math.max(0, this.openSinceMs + alertS * 1000 - this.deps.now());
  }

  get doorId(): string {
    return this.accessory.context.doorId;
  }

  get name(): string {
    return this.accessory.context.name;
  }

  get isMoving(): boolean {
    return this.machine.isMoving;
  }

  /** Home shows "No Response" while this is false, rather than a state that may be stale. */
  get available(): boolean {
    return this.accountReadable && this.deviceActive && this.doorActive;
  }

  setAccountReadable(readable: boolean): void {
    this.accountReadable = readable;
  }

  /**
   * Applies one door of a successful sync sent at `syncSentMs`. Returns what the sync meant for the door's state,
   * `undefined` when the state was not used (unknown, or older than a webhook that arrived meanwhile).
   */
  update(door: Door, device: Device, syncSentMs: number = this.deps.now()): ReportOutcome | undefined {
    const { Characteristic: C } = this.deps.api.hap;
    this.accessory.context.deviceId = device.id;
    this.followAccountName(door);
    this.setActive(device.active, door.active);
    this.entityNumber = door.entityNumber;
    this.deviceAlertS = device.timeBeforeDoorOpenAlert;
    this.autoCloseDelayS = door.autoCloseEnabled && door.autoCloseDelay > 0 ? door.autoCloseDelay : undefined;
    const version = homeKitVersion(device.softwareVersion);
    if (version) {
      this.accessory.getService(this.deps.api.hap.Service.AccessoryInformation)?.updateCharacteristic(C.FirmwareRevision, version);
    }
    this.updateBattery(door);

    if (door.state === null) {
      if (!this.unknownStateLogged) {
        this.unknownStateLogged = true;
        this.deps.log.warn(`${this.name}: the service reported an unknown state "${oneLine(door.rawState ?? '')}"; keeping the last known state (${this.machine.reported}).`);
      }
      return undefined;
    }
    this.unknownStateLogged = false;
    if (this.eventOrder.outdates(syncSentMs)) {
      return undefined;
    }
    return this.applyState(door.state, 'changed outside HomeKit');
  }

  /**
   * Applies a door state pushed by webhook. `who` says who or what moved it, for the log.
   * Returns 'stale' when the event is older than one already applied (webhooks can arrive out of order).
   */
  applyEvent(state: DoorState, occurredAtMs: number | undefined, who: string): ReportOutcome | 'stale' {
    if (!this.eventOrder.admit(occurredAtMs, this.deps.now())) {
      return 'stale';
    }
    return this.applyState(state, who);
  }

  private applyState(state: DoorState, cause: string): ReportOutcome {
    const before = this.machine.target;
    const wasReported = this.machine.reported;
    const outcome = this.machine.report(state, this.deps.now());
    this.accessory.context.state = this.machine.reported;
    this.rememberMissed();
    if (state !== wasReported) {
      this.openSinceMs = state === 'OPEN' ? this.deps.now() : undefined;
    }
    switch (outcome) {
      case 'changed':
        this.deps.log.info(`${this.name} is now ${describe(state)} (${cause}).`);
        break;
      case 'arrived':
        this.deps.log.info(`${this.name} is ${describe(state)}.`);
        break;
      case 'timed-out':
        this.warnTimedOut(before);
        break;
      case 'moving':
      case 'unchanged':
        // The door may have moved under a movement Home still shows; the sensors follow what it reports.
        this.extras.update();
        return outcome;
    }
    this.push();
    return outcome;
  }

  private setActive(deviceActive: boolean, doorActive: boolean): void {
    const wasActive = this.deviceActive && this.doorActive;
    this.deviceActive = deviceActive;
    this.doorActive = doorActive;
    const active = deviceActive && doorActive;
    if (wasActive && !active) {
      const what = deviceActive ? 'the door' : 'its controller';
      this.deps.log.warn(`${this.name} shows No Response: the service reports ${what} as inactive.`);
    } else if (!wasActive && active) {
      this.deps.log.info(`${this.name} is active again.`);
    }
  }

  /**
   * Takes the door's name in the account from a sync. A rename there renames the door in HomeKit unless the user named
   * it in the plugin settings or the Home app; either way one line says so, once per rename in the account.
   */
  private followAccountName(door: Door): void {
    const context = this.accessory.context;
    const accountName = homeKitName(door.name, fallbackDoorName(door.id));
    const previous = context.accountName;
    const nowMs = this.deps.now();
    this.accountRenames.settle(nowMs);
    if (previous === accountName) {
      return;
    }
    context.accountName = accountName;
    const before = this.showName();
    if (previous === undefined) {
      // A cache of an older version learns the account's name; a settings name removed meanwhile gives way to it now.
      if (before !== undefined) {
        this.deps.log.info(`${before} is now named ${context.name}, from ${describeSource(shownName(context, this.deps.options?.name).source)}.`);
      }
      return;
    }
    const verdict = this.accountRenames.record(nowMs);
    const say = (line: string) => (verdict === 'say' ? this.deps.log.info(line) : this.deps.log.debug(line));
    if (before !== undefined) {
      say(`${before} was renamed ${context.name} in the account; renamed in Home.`);
    } else {
      const { source } = shownName(context, this.deps.options?.name);
      say(`${context.name} was renamed ${accountName} in the account; it keeps the name given in ${describeSource(source)}.`);
    }
    if (verdict === 'goes-quiet') {
      this.deps.log.info(`${context.name}'s name keeps changing in the account; further renames are logged at debug level.`);
    }
  }

  /**
   * The cached context as text, for the platform to tell whether the accessory cache needs writing. While the door's
   * name keeps changing in the account, its names are left out (HomeKit follows them, the SD card is spared): they reach
   * the cache with the next write for another reason, or once the name has held (the text then differs again).
   */
  cacheSnapshot(): string {
    const context = this.accessory.context;
    if (!this.accountRenames.quiet) {
      return JSON.stringify(context);
    }
    return JSON.stringify({ ...context, name: undefined, accountName: undefined, homeName: undefined });
  }

  /**
   * A controller wrote the GarageDoorOpener's ConfiguredName: the user renamed the door in the Home app. The name is the
   * user's from now on, kept across renames in the account and restarts; renaming it back to the account's name in Home
   * makes it follow the account again. The plugin's own updates never come here (updateValue runs no set handler).
   */
  private renamedInHome(value: CharacteristicValue): void {
    if (typeof value !== 'string') {
      return;
    }
    const context = this.accessory.context;
    const name = homeKitName(value, '');
    const accountName = context.accountName ?? context.name;
    if (name === '' || name === context.homeName || (context.homeName === undefined && name === context.name)) {
      return; // Nothing new: Home wrote back the name it was shown.
    }
    const before = context.name;
    if (name === accountName) {
      delete context.homeName;
      this.deps.log.info(`${before} was renamed ${name} in the Home app, its name in the account: it follows the account's name again.`);
    } else {
      context.homeName = name;
      this.deps.log.info(`${before} was renamed ${name} in the Home app; the plugin keeps that name.`);
    }
    this.showName();
    this.deps.api.updatePlatformAccessories([this.accessory]);
  }

  /**
   * Shows the name the door should have now (see shownName) everywhere HomeKit and the log see it, when it differs from
   * the one shown; returns the name it had then, undefined when nothing changed. Without a readable config the names stay.
   */
  private showName(): string | undefined {
    const options = this.deps.options;
    const context = this.accessory.context;
    if (!options) {
      return undefined;
    }
    const before = context.name;
    const { name } = shownName(context, options.name);
    if (name === before) {
      return undefined;
    }
    this.applyName(before, name);
    return before;
  }

  /** Shows `name` instead of `before` wherever HomeKit reads the door's name, its extras' names included. */
  private applyName(before: string, name: string): void {
    const { Characteristic: C, Service: S } = this.deps.api.hap;
    const context = this.accessory.context;
    context.name = name;
    // Homebridge keeps displayName in its cache; AccessoryInformation's Name is what a controller reads when it adds the door.
    this.accessory.updateDisplayName(name);
    this.accessory.getService(S.AccessoryInformation)?.updateCharacteristic(C.Name, name);
    this.service.displayName = name;
    this.service.updateCharacteristic(C.Name, name);
    if (this.configuredName.value !== name) {
      this.configuredName.updateValue(name);
    }
    renameDerivedServices(this.deps.api.hap, this.accessory, before, name, [this.service]);
  }

  /** Ends a movement that took too long, also when syncs fail. */
  tick(): void {
    const before = this.machine.target;
    if (this.machine.expire(this.deps.now())) {
      this.rememberMissed();
      this.warnTimedOut(before);
      this.push();
    }
  }

  private warnTimedOut(target: DoorState): void {
    const seconds = Math.round(this.deps.transitionTimeoutMs / 1000);
    this.deps.log.warn(
      `${this.name} did not report ${describe(target)} within ${seconds} s; showing its last reported state (${describe(this.machine.reported)}) ` +
        `and an obstruction until it reports ${describe(target)} or gets a new command.`,
    );
  }

  /** The accessory cache keeps the obstruction, so a restart brings it back as it was and the first sync decides as any sync. */
  private rememberMissed(): void {
    const missed = this.machine.missedTarget;
    if (missed === undefined) {
      delete this.accessory.context.missedTarget;
    } else {
      this.accessory.context.missedTarget = missed;
    }
  }

  private updateBattery(door: Door): void {
    // Hidden by the user: a cached Battery service goes too, so Home drops the level and any low-battery alarm at once.
    if (door.hasBluetoothSensor && this.deps.options?.hideBattery !== true) {
      // No reading is no news: the last known level stays (a cached service keeps it too), and a sensor that never
      // reported one gets no Battery service yet, which HAP would show at 0 % and, below the threshold, as an alarm.
      if (door.batteryLevel === undefined) {
        return;
      }
      this.battery ??= new DoorBattery(this.deps.api, this.accessory, this.deps.lowBatteryThresholdPct);
      this.battery.update(door.batteryLevel);
    } else if (this.battery || this.accessory.getService(this.deps.api.hap.Service.Battery)) {
      DoorBattery.remove(this.deps.api, this.accessory);
      this.battery = undefined;
    }
  }

  /**
   * Runs Home's wishes for this door one at a time. Only the latest wish waits: a wish that arrives while another
   * waits replaces it (as a later write to a characteristic does), so three controllers writing at once cause at most
   * two toggles in a row, and the second only if it can still start while Home waits for its answer.
   */
  private enqueueCommand(wanted: DoorState): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const replaced = this.waiting;
      if (replaced) {
        if (replaced.wanted !== wanted) {
          this.deps.log.info(`${this.name}: the command to ${verb(replaced.wanted)} it was replaced by a later one to ${verb(wanted)} before it was sent.`);
        }
        replaced.resolve();
      }
      this.waiting = { wanted, arrivedMs: this.deps.now(), resolve, reject };
      void this.runCommands();
    });
  }

  private async runCommands(): Promise<void> {
    if (this.commandRunning) {
      return;
    }
    this.commandRunning = true;
    try {
      for (let wish = this.waiting; wish; wish = this.waiting) {
        this.waiting = undefined;
        try {
          await this.command(wish.wanted, wish.arrivedMs);
          wish.resolve();
        } catch (error) {
          wish.reject(error);
        }
      }
    } finally {
      this.commandRunning = false;
    }
  }

  private async command(wanted: DoorState, arrivedMs: number): Promise<void> {
    const { HapStatusError, HAPStatus } = this.deps.api.hap;
    // Any command ends an obstruction: every path below pushes the new state.
    this.machine.clearMissed();
    this.rememberMissed();
    if (this.deps.options?.readOnly) {
      this.deps.log.warn(`${this.name} is read-only in the plugin settings; the command to ${verb(wanted)} it was not sent.`);
      setImmediate(() => this.push());
      throw new HapStatusError(HAPStatus.INSUFFICIENT_PRIVILEGES);
    }
    if (this.machine.isAlready(wanted)) {
      const where = this.machine.isMoving ? (wanted === 'OPEN' ? 'opening' : 'closing') : describe(wanted);
      this.deps.log.info(`${this.name} is already ${where}; nothing sent.`);
      // Home set the target already; make sure the shown state agrees.
      this.push();
      return;
    }
    this.refuseWhileUnconfirmed(wanted);
    const waitedMs = this.deps.now() - arrivedMs;
    if (waitedMs > COMMAND_START_DEADLINE_MS) {
      this.deps.log.warn(
        `${this.name}: the command to ${verb(wanted)} it was not sent: it waited ${formatSeconds(waitedMs)} behind the previous one, ` +
          `and Home reports a command as failed after ${formatSeconds(HAP_WRITE_ANSWER_MS)}. Try again.`,
      );
      setImmediate(() => this.push());
      throw new HapStatusError(HAPStatus.OPERATION_TIMED_OUT);
    }
    try {
      this.deps.log.info(`${wanted === 'OPEN' ? 'Opening' : 'Closing'} ${this.name}.`);
      await this.deps.toggle(this.doorId, wanted);
    } catch (error) {
      if (error instanceof ServiceError && error.mayHaveArrived) {
        this.holdUnconfirmed(wanted, error);
      } else {
        this.deps.log.error(`${this.name} could not be ${wanted === 'OPEN' ? 'opened' : 'closed'}: ${explain(error)}`);
        // Put Home's target back to the real state: the door is not moving.
        setImmediate(() => this.push());
      }
      throw new HapStatusError(HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    }
    this.machine.startMovement(wanted, this.deps.now(), this.deps.transitionTimeoutMs);
    this.push();
    this.deps.onCommandAccepted();
  }

  /** A toggle got no answer but may have reached the service: the door may move, so it is shown moving and held. */
  private holdUnconfirmed(wanted: DoorState, error: ServiceError): void {
    const seconds = formatSeconds(this.deps.transitionTimeoutMs);
    this.deps.log.warn(
      `${this.name} may still ${verb(wanted)}: ${error.message}, and it may act on the command yet. It is shown ${wanted === 'OPEN' ? 'opening' : 'closing'}, ` +
        `and no other command is sent to it until it reports where it is (at most ${seconds}).`,
    );
    this.machine.startMovement(wanted, this.deps.now(), this.deps.transitionTimeoutMs, true);
    this.push();
    // Sync soon and often: the quickest way to learn whether the door moves.
    this.deps.onCommandAccepted();
  }

  /** A second toggle behind one with no answer could be the pulse that stops or reverses the door: refuse it. */
  private refuseWhileUnconfirmed(wanted: DoorState): void {
    const held = this.machine.unconfirmedMovement(this.deps.now());
    if (!held) {
      return;
    }
    const { HapStatusError, HAPStatus } = this.deps.api.hap;
    this.deps.log.warn(
      `${this.name}: the command to ${verb(wanted)} it was not sent: the service never answered the command to ${verb(held.target)} it, ` +
        `which may still move it. Try again once it reports where it is (at most ${formatSeconds(held.endsInMs)}).`,
    );
    setImmediate(() => this.push());
    throw new HapStatusError(HAPStatus.RESOURCE_BUSY);
  }

  private answer<T extends CharacteristicValue>(value: T): T {
    if (!this.available) {
      const { HapStatusError, HAPStatus } = this.deps.api.hap;
      throw new HapStatusError(HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    }
    return value;
  }

  private currentDoorState(): number {
    const { CurrentDoorState } = this.deps.api.hap.Characteristic;
    const byState: Record<ShownState, number> = {
      OPEN: CurrentDoorState.OPEN,
      CLOSED: CurrentDoorState.CLOSED,
      OPENING: CurrentDoorState.OPENING,
      CLOSING: CurrentDoorState.CLOSING,
    };
    return byState[this.machine.shown];
  }

  private obstructionDetected(): boolean {
    return this.machine.missedTarget !== undefined;
  }

  private targetDoorState(): number {
    const { TargetDoorState } = this.deps.api.hap.Characteristic;
    return this.machine.target === 'OPEN' ? TargetDoorState.OPEN : TargetDoorState.CLOSED;
  }

  /** Target first: Home shows "Opening..." forever when it sees the current state change before the target. */
  private push(): void {
    const { Characteristic: C } = this.deps.api.hap;
    this.service.updateCharacteristic(C.TargetDoorState, this.targetDoorState());
    this.service.updateCharacteristic(C.CurrentDoorState, this.currentDoorState());
    this.service.updateCharacteristic(C.ObstructionDetected, this.obstructionDetected());
    this.extras.update();
  }
}

function describe(state: DoorState): string {
  return state === 'OPEN' ? 'open' : 'closed';
}

function verb(state: DoorState): string {
  return state === 'OPEN' ? 'open' : 'close';
}

function formatSeconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}

/** The user-facing reason of a failed command; the service's own text when it gave one (428: pair a door sensor). */
function explain(error: unknown): string {
  if (error instanceof ToggleRejectedError) {
    const status = `(${error.status})`;
    const text = error.serviceMessage === undefined ? undefined : oneLine(error.serviceMessage);
    return text ? `${text}${text.includes(status) ? '' : ` ${status}`}` : oneLine(error.message);
  }
  if (error instanceof ServiceError) {
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Cached names pass the rule of names from the account and the Home app: an older version or an edited cache may hold a
 * name of any length or text, which HAP-NodeJS would quote whole into the log. One that leaves nothing is dropped.
 */
function cleanCachedNames(context: DoorContext): void {
  const accountName = typeof context.accountName === 'string' ? homeKitName(context.accountName, '') : '';
  if (accountName === '') {
    delete context.accountName;
  } else {
    context.accountName = accountName;
  }
  const homeName = typeof context.homeName === 'string' ? homeKitName(context.homeName, '') : '';
  if (homeName === '') {
    delete context.homeName;
  } else {
    context.homeName = homeName;
  }
  context.name = homeKitName(context.name, context.accountName ?? fallbackDoorName(context.doorId));
}

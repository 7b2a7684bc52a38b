// One door's HomeKit face: shows what the door model (model/door.ts) decides as a garage door, and turns Home's target
// changes into toggles, one at a time.
import type { API, Characteristic, CharacteristicValue, Logging, PlatformAccessory, Service } from 'homebridge';

import { ServiceError, ToggleRejectedError } from '../client/errors.js';
import type { Device, Door, DoorState } from '../client/types.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { DoorModel, whatToShow } from './model/door.js';
import type { ReportOutcome, ShownState } from './model/state-machine.js';
import type { DoorOptions } from './options.js';
import { homeKitSerial, homeKitVersion } from './homekit-name.js';
import { oneLine } from '../util/log-text.js';
import { ACCESSORY_MANUFACTURER, ACCESSORY_MODEL, COMMAND_START_DEADLINE_MS, HAP_WRITE_ANSWER_MS } from '../settings.js';
import { DoorBattery } from './battery.js';
import { DoorExtras } from './extras.js';
import type { DoorContext } from './context.js';
import { configuredNameOf, renameDerivedServices } from './door-name.js';

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
  /** What the door does and is called, decided apart from HomeKit; this class only shows it. */
  private readonly model: DoorModel;
  private battery: DoorBattery | undefined;
  /** Commands to one door run one after another, never overlapping; only the latest wish waits its turn. */
  private commandRunning = false;
  private waiting: WaitingCommand | undefined;
  private readonly extras: DoorExtras;
  /** The GarageDoorOpener's ConfiguredName: the Home app writes it when the user renames the door there. */
  private readonly configuredName: Characteristic;

  constructor(
    private readonly deps: DoorAccessoryDeps,
    readonly accessory: PlatformAccessory<DoorContext>,
  ) {
    const { Service: S, Characteristic: C } = deps.api.hap;
    const context = accessory.context;
    // First: the model cleans the cached names, which the services below are created with.
    this.model = new DoorModel(context, {
      log: deps.log,
      now: deps.now,
      transitionTimeoutMs: deps.transitionTimeoutMs,
      options: deps.options,
      onRename: (before, name) => this.applyName(before, name),
    });

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
      target: () => this.model.target,
      reported: () => this.model.reported,
      leftOpen: () => this.model.leftOpenSignal(),
      command: (wanted) => this.enqueueCommand(wanted),
      answer: (value) => this.answer(value),
      available: () => this.available,
      log: deps.log,
      clock: deps.clock ?? SYSTEM_CLOCK,
      name: () => this.name,
    });
    // Names the cache or the settings changed since the last start reach HomeKit, extras included.
    this.model.start();
    this.push();
  }

  /** When the door, still open, is expected to close by itself (auto-close), in local time. */
  get expectedAutoCloseAtMs(): number | undefined {
    return this.model.expectedAutoCloseAtMs;
  }

  /** Stops the door's timers (Homebridge is shutting down or the door leaves HomeKit). */
  dispose(): void {
    this.extras.dispose();
  }

  /** An enforcer event named this door or its controller: its access alert, if on, detects. Never moves the door. */
  alertAccess(): boolean {
    return this.extras.alertAccess();
  }

  get doorId(): string {
    return this.accessory.context.doorId;
  }

  get name(): string {
    return this.accessory.context.name;
  }

  /** The door's number on its controller, for webhooks that name doors by number (door1_open). */
  get entityNumber(): number | undefined {
    return this.model.entityNumber;
  }

  get isMoving(): boolean {
    return this.model.isMoving;
  }

  /** Home shows "No Response" while this is false, rather than a state that may be stale. */
  get available(): boolean {
    return this.model.available;
  }

  setAccountReadable(readable: boolean): void {
    this.model.setAccountReadable(readable);
  }

  /**
   * Applies one door of a successful sync sent at `syncSentMs`. Returns what the sync meant for the door's state,
   * `undefined` when the state was not used (unknown, or older than a webhook that arrived meanwhile).
   */
  update(door: Door, device: Device, syncSentMs: number = this.deps.now()): ReportOutcome | undefined {
    const { Characteristic: C } = this.deps.api.hap;
    this.model.learn(door, device);
    const version = homeKitVersion(device.softwareVersion);
    if (version) {
      this.accessory.getService(this.deps.api.hap.Service.AccessoryInformation)?.updateCharacteristic(C.FirmwareRevision, version);
    }
    this.updateBattery(door);
    return this.show(this.model.reportPolled(door, syncSentMs));
  }

  /**
   * Applies a door state pushed by webhook. `who` says who or what moved it, for the log.
   * Returns 'stale' when the event is older than one already applied (webhooks can arrive out of order).
   */
  applyEvent(state: DoorState, occurredAtMs: number | undefined, who: string): ReportOutcome | 'stale' {
    return this.show(this.model.applyEvent(state, occurredAtMs, who));
  }

  /** Shows what a reported state meant: Home's state when it changed; the sensors, which follow the reported state, always. */
  private show<T extends ReportOutcome | 'stale' | undefined>(outcome: T): T {
    if (outcome === undefined || outcome === 'stale') {
      return outcome;
    }
    if (whatToShow(outcome) === 'all') {
      this.push();
    } else {
      // The door may have moved under a movement Home still shows; the sensors follow what it reports.
      this.extras.update();
    }
    return outcome;
  }

  /** See DoorModel.cacheSnapshot: the cached context as text, without the names while they keep changing in the account. */
  cacheSnapshot(): string {
    return this.model.cacheSnapshot();
  }

  /**
   * A controller wrote the GarageDoorOpener's ConfiguredName: the user renamed the door in the Home app (the model
   * decides what that means). The plugin's own updates never come here (updateValue runs no set handler).
   */
  private renamedInHome(value: CharacteristicValue): void {
    if (typeof value === 'string' && this.model.renamedInHome(value)) {
      this.deps.api.updatePlatformAccessories([this.accessory]);
    }
  }

  /** Shows `name` instead of `before` wherever HomeKit reads the door's name, its extras' names included. */
  private applyName(before: string, name: string): void {
    const { Characteristic: C, Service: S } = this.deps.api.hap;
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
    if (this.model.tick()) {
      this.push();
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
          this.deps.log.info(
            `${this.name}: the command to ${verb(replaced.wanted)} it was replaced by a later one to ${verb(wanted)} before it was sent.`,
          );
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
    this.model.commandArrived();
    if (this.deps.options?.readOnly) {
      this.deps.log.warn(`${this.name} is read-only in the plugin settings; the command to ${verb(wanted)} it was not sent.`);
      setImmediate(() => this.push());
      throw new HapStatusError(HAPStatus.INSUFFICIENT_PRIVILEGES);
    }
    if (this.model.isAlready(wanted)) {
      const where = this.model.isMoving ? (wanted === 'OPEN' ? 'opening' : 'closing') : describe(wanted);
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
    this.model.startMovement(wanted);
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
    this.model.startMovement(wanted, true);
    this.push();
    // Sync soon and often: the quickest way to learn whether the door moves.
    this.deps.onCommandAccepted();
  }

  /** A second toggle behind one with no answer could be the pulse that stops or reverses the door: refuse it. */
  private refuseWhileUnconfirmed(wanted: DoorState): void {
    const held = this.model.unconfirmedMovement();
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
    return byState[this.model.shown];
  }

  private obstructionDetected(): boolean {
    return this.model.missedTarget !== undefined;
  }

  private targetDoorState(): number {
    const { TargetDoorState } = this.deps.api.hap.Characteristic;
    return this.model.target === 'OPEN' ? TargetDoorState.OPEN : TargetDoorState.CLOSED;
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

// One door in HomeKit: shows what the door model (model/door.ts) decides through its main service, of the kind the
// settings say (face.ts, FACES), with its battery, names and extras, and sends Home's commands through one path.
import type { API, Characteristic, CharacteristicValue, Logging, PlatformAccessory } from 'homebridge';

import type { Device, Door, DoorState } from '../client/types.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { DoorModel, whatToShow } from './model/door.js';
import type { ReportOutcome } from './model/state-machine.js';
import type { DoorOptions } from '../config/door-options.js';
import { describeDoorAccessory, showFirmware } from './accessory-information.js';
import type { ShowAs } from '../option-catalog.js';
import { DoorBatteryFollower } from './battery.js';
import { DoorCommands } from './door-commands.js';
import { READ_ONLY_REFUSAL } from '../config/gate.js';
import { DoorExtras, EXTRA_SUFFIXES } from './extras/door-extras.js';
import type { DoorContext } from './model/context.js';
import { configuredNameOf, showDoorName } from '../homekit/door-name.js';
import { FACES, kindService } from './face.js';
import { chooseKind } from './kind-choice.js';
import type { DoorFace, FaceDeps, FaceTable } from './face.js';
import type { EveDoor } from '../eve/eve-door.js';

export interface DoorAccessoryDeps {
  api: API;
  log: Logging;
  toggle: (doorId: string, state: DoorState) => Promise<void>;
  transitionTimeoutMs: number;
  lowBatteryThresholdPct: number;
  /** The door's options; undefined when the config could not be read (the door then keeps the services it has). */
  options: DoorOptions | undefined;
  /**
   * The gate (src/config/gate.ts), asked at each command: why the settings refuse it now, or undefined. Without one (a
   * test's door), only the door's own readOnly option refuses.
   */
  gate?: () => string | undefined;
  /** A command was accepted: the platform should sync soon and often until the door arrives. */
  onCommandAccepted: () => void;
  /** How old the door's state may grow before Home shows No Response (docs/limits.md); none by default. */
  staleAfterMs?: () => number | undefined;
  now: () => number;
  /** Sets the door's timers (the left-open sensor); the real clock by default. */
  clock?: Clock;
  /** The table of kinds: FACES, unless a test adds a scratch kind. */
  faces?: FaceTable;
  /** A door's Eve history in the bridge's file (src/eve/), asked for only while the door's Eve history is on. */
  eve?: (doorId: string) => EveDoor;
}

/**
 * What the rest of the plugin reads of a door (the registry, the sync schedule, the Matter side): what its model
 * decided, read-only. Only the door itself (this file, its face and its command path) moves the model.
 */
export type DoorFacts = Readonly<
  Pick<
    DoorModel,
    | 'doorId'
    | 'name'
    | 'reported'
    | 'target'
    | 'missedTarget'
    | 'isMoving'
    | 'available'
    | 'stateKnown'
    | 'entityNumber'
    | 'expectedAutoCloseAtMs'
  >
>;

export class DoorAccessory {
  /** The main service, of the door's kind (FACES). */
  private readonly face: DoorFace;
  /** Which kind the door shows in Home. */
  readonly kind: ShowAs;
  /**
   * True when this start replaced the cached main service by another kind, or removed a door-kind service of another
   * kind from the cache: the accessory cache must be written.
   */
  readonly kindChanged: boolean;
  /** What the door does and is called, decided apart from HomeKit; this class only shows it. */
  private readonly model: DoorModel;
  /** The model, read-only, for those who only read the door (see DoorFacts). */
  readonly facts: DoorFacts;
  private readonly battery: DoorBatteryFollower;
  private readonly commands: DoorCommands;
  private readonly extras: DoorExtras;
  /** The main service's ConfiguredName: the Home app writes it when the user renames the door there. */
  private readonly configuredName: Characteristic;
  /** Told whenever what the door shows may have changed: the door's Matter face (src/matter/) follows it. */
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly deps: DoorAccessoryDeps,
    readonly accessory: PlatformAccessory<DoorContext>,
  ) {
    const { Characteristic: C } = deps.api.hap;
    const context = accessory.context;
    // First: the model cleans the cached names, which the services below are created with.
    this.model = new DoorModel(context, {
      log: deps.log,
      now: deps.now,
      transitionTimeoutMs: deps.transitionTimeoutMs,
      options: deps.options,
      onRename: (before, name) => this.applyName(before, name),
      staleAfterMs: deps.staleAfterMs,
    });
    this.facts = this.model;
    this.commands = new DoorCommands({
      api: deps.api,
      log: deps.log,
      model: this.model,
      refusal: deps.gate ?? (() => (deps.options?.readOnly === true ? READ_ONLY_REFUSAL : undefined)),
      toggle: (state) => deps.toggle(context.doorId, state),
      transitionTimeoutMs: deps.transitionTimeoutMs,
      now: deps.now,
      push: () => this.push(),
      onCommandAccepted: deps.onCommandAccepted,
    });

    const hap = deps.api.hap;
    describeDoorAccessory(hap, accessory, context.doorId);
    const faces = deps.faces ?? FACES;
    ({ kind: this.kind, kindChanged: this.kindChanged } = chooseKind(hap, accessory, deps.options?.showAs, faces, deps.log, this.name));
    const spec = faces[this.kind];
    const faceDeps: FaceDeps = {
      hap: deps.api.hap,
      model: this.model,
      // A kind that can show "unknown" (a lock) shows it; another (a garage door) answers No Response until a state is known.
      answer: (value) => this.answer(value, spec.showsUnknown),
      command: (wanted) => this.commands.enqueue(wanted),
    };
    this.face = new spec.Face(faceDeps, kindService(hap, accessory, this.kind, context.name, faces));
    this.face.service.setCharacteristic(C.Name, context.name);
    this.configuredName = configuredNameOf(deps.api.hap, this.face.service, context.name);
    this.configuredName.onSet((value) => {
      this.renamedInHome(value);
    });
    this.battery = new DoorBatteryFollower(deps.api, accessory, deps.lowBatteryThresholdPct, deps.options?.hideBattery === true);
    const eve = deps.eve;
    this.extras = new DoorExtras(deps.api, accessory, context.name, deps.options, {
      target: () => this.model.target,
      reported: () => this.model.reported,
      leftOpen: () => this.model.leftOpenSignal(),
      command: (wanted) => this.commands.enqueue(wanted),
      answer: (value) => this.answer(value),
      available: () => this.model.available,
      log: deps.log,
      clock: deps.clock ?? SYSTEM_CLOCK,
      name: () => this.model.name,
      stateKnown: () => this.model.stateKnown,
      lastToggled: () => this.model.lastToggledText,
      main: { service: this.face.service, kind: this.kind },
      ...(eve ? { eve: () => eve(context.doorId) } : {}),
    });
    // Names the cache or the settings changed since the last start reach HomeKit, extras included.
    this.model.start();
    this.push();
  }

  /** Stops the door's timers (Homebridge is shutting down or the door leaves HomeKit). */
  dispose(): void {
    this.extras.dispose();
  }

  /** An enforcer event named this door or its controller: its access alert, if on, detects. Never moves the door. */
  alertAccess(): boolean {
    return this.extras.alertAccess();
  }

  /** The service's id of the door (real-time updates key the person sensors' moves by it). */
  get doorId(): string {
    return this.accessory.context.doorId;
  }

  /** The name the accessory shows, which every line about the door names it by (real-time updates read it too). */
  get name(): string {
    return this.accessory.context.name;
  }

  /** A wish from another face of the door (Matter): the same command path as Home's, one wish at most one pulse. */
  command(wanted: DoorState): Promise<void> {
    return this.commands.enqueue(wanted);
  }

  /** Calls `listener` whenever what the door shows may have changed (state, availability, name); returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) {
      listener();
    }
  }

  setAccountReadable(readable: boolean): void {
    this.model.setAccountReadable(readable);
    this.changed();
  }

  /**
   * Applies one door of a successful sync sent at `syncSentMs`. Returns what the sync meant for the door's state,
   * `undefined` when the state was not used (unknown, or older than a webhook that arrived meanwhile).
   */
  update(door: Door, device: Device, syncSentMs: number = this.deps.now()): ReportOutcome | undefined {
    this.model.learn(door, device);
    showFirmware(this.deps.api.hap, this.accessory, device.softwareVersion);
    this.battery.follow(door);
    const knownBefore = this.model.stateKnown;
    const outcome = this.show(this.model.reportPolled(door, syncSentMs), knownBefore);
    // The active flags may have made the door (un)available, whatever its state did.
    this.changed();
    return outcome;
  }

  /**
   * Applies a door state pushed by webhook. `who` says who or what moved it, for the log.
   * Returns 'stale' when the event is older than one already applied (webhooks can arrive out of order).
   */
  applyEvent(state: DoorState, occurredAtMs: number | undefined, who: string): ReportOutcome | 'stale' {
    const knownBefore = this.model.stateKnown;
    return this.show(this.model.applyEvent(state, occurredAtMs, who), knownBefore);
  }

  /**
   * Shows what a reported state meant: Home's state when it changed (or is known for the first time, `knownBefore`
   * false); the sensors, which follow the reported state, always.
   */
  private show<T extends ReportOutcome | 'stale' | undefined>(outcome: T, knownBefore: boolean): T {
    if (outcome === undefined || outcome === 'stale') {
      return outcome;
    }
    if (whatToShow(outcome) === 'all' || !knownBefore) {
      this.push();
    } else {
      // The door may have moved under a movement Home still shows; the sensors follow what it reports.
      this.extras.update();
      this.changed();
    }
    return outcome;
  }

  /** See DoorModel.cacheSnapshot: the cached context as text, without the names while they keep changing in the account. */
  cacheSnapshot(): string {
    return this.model.cacheSnapshot();
  }

  /**
   * A controller wrote the main service's ConfiguredName: the user renamed the door in the Home app (the model decides
   * what that means). The plugin's own updates never come here (updateValue runs no set handler).
   */
  private renamedInHome(value: CharacteristicValue): void {
    if (typeof value === 'string' && this.model.renamedInHome(value)) {
      this.deps.api.updatePlatformAccessories([this.accessory]);
    }
  }

  /** Shows `name` instead of `before` wherever HomeKit reads the door's name, its extras' names included. */
  private applyName(before: string, name: string): void {
    const main = { service: this.face.service, configuredName: this.configuredName };
    showDoorName(this.deps.api.hap, this.accessory, main, before, name, EXTRA_SUFFIXES);
    this.changed();
  }

  /** Ends a movement that took too long, also when syncs fail. */
  tick(): void {
    if (this.model.tick()) {
      this.push();
    }
  }

  /** A read answered from memory; No Response while the state may be stale, or is not known and `unknownShown` is false. */
  private answer<T>(value: T, unknownShown = false): T {
    if (!this.model.available || (!this.model.stateKnown && !unknownShown)) {
      const { HapStatusError, HAPStatus } = this.deps.api.hap;
      throw new HapStatusError(HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    }
    return value;
  }

  /** Everything Home shows of the door: its main service, then the extras. */
  private push(): void {
    this.face.push();
    this.extras.update();
    this.changed();
  }
}

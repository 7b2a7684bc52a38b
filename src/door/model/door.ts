// One door apart from HomeKit: what it does (state machine, event order), whether it can be trusted, its times and its
// name. The HomeKit face (door/garage-door.ts) shows what this decides; nothing here knows of Homebridge or HAP.
import type { Device, Door, DoorState } from '../../client/types.js';
import type { DoorContext } from './context.js';
import { OPTION_DEFAULTS } from '../../option-values.js';
import type { OptionValues } from '../../option-values.js';
import { DoorAvailability } from './availability.js';
import { cachedMissedTarget, keepMissedTarget, keepReported } from './cached-state.js';
import { CommandMemory } from './command-memory.js';
import { EventOrder } from './event-order.js';
import type { DoorLog } from './log.js';
import { DoorNames } from './naming.js';
import { ReportNotices } from './report-notices.js';
import { DoorStateMachine } from './state-machine.js';
import type { ReportOutcome, ShownState } from './state-machine.js';
import { DoorTimings } from './timings.js';
import type { LeftOpenSignal } from './timings.js';

/**
 * What of the door's settings the model decides with, under their catalog keys: `leftOpenAfter` in seconds (undefined:
 * the controller's own alert time), `leftOpenRepeat` in minutes between repeats of the left-open sensor (0: none).
 */
export interface DoorModelOptions extends Pick<OptionValues, 'leftOpenAfter' | 'leftOpenRepeat'> {
  /** The settings' "Name in Home", when the user set one. */
  name?: string | undefined;
}

export interface DoorModelDeps {
  log: DoorLog;
  now: () => number;
  /** How long a commanded movement may take before Home sees the real state again, with an obstruction. */
  transitionTimeoutMs: number;
  /** The door's settings; undefined when the config could not be read (the names then stay as they are). */
  options: DoorModelOptions | undefined;
  /** The shown name changed from `before` to `name`: the face shows it wherever HomeKit reads the door's name. */
  onRename: (before: string, name: string) => void;
  /** How old the door's state may grow before Home shows No Response (docs/limits.md); none by default. */
  staleAfterMs?: () => number | undefined;
}

/** What a reported state asks of the face: 'all' when Home's state changed, 'sensors' when only the reported state may have. */
export function whatToShow(outcome: ReportOutcome): 'all' | 'sensors' {
  return outcome === 'moving' || outcome === 'unchanged' ? 'sensors' : 'all';
}

export class DoorModel {
  private readonly machine: DoorStateMachine;
  /** Which webhook events and syncs are too old to apply. */
  private readonly eventOrder = new EventOrder();
  private readonly availability: DoorAvailability;
  private readonly timings: DoorTimings;
  /** Which name the door shows, and what each rename means. */
  private readonly names: DoorNames;
  /** What the door says in the log of each report: changes, timeouts, unreadable states and inactive flags. */
  private readonly notices: ReportNotices;
  /** Our last command and the service's last_toggled: was a move ours, did the door move and come back. */
  private readonly commands: CommandMemory;
  /** The door's number on its controller, for webhooks that name doors by number (door1_open). */
  entityNumber: number | undefined;

  /** `context` is the accessory cache's record of the door: the model keeps it current (state, obstruction, names). */
  constructor(
    readonly context: DoorContext,
    private readonly deps: DoorModelDeps,
  ) {
    this.machine = new DoorStateMachine(context.state, cachedMissedTarget(context));
    this.availability = new DoorAvailability({ now: deps.now, staleAfterMs: deps.staleAfterMs });
    keepMissedTarget(context, this.machine);
    this.timings = new DoorTimings(context.state === 'OPEN' ? deps.now() : undefined);
    this.names = new DoorNames(context, deps);
    this.commands = new CommandMemory({ machine: this.machine, timings: this.timings, now: deps.now });
    const { log, now, transitionTimeoutMs } = deps;
    this.notices = new ReportNotices({ log, now, name: () => this.name, transitionTimeoutMs, machine: this.machine });
  }

  /**
   * Once the face shows the door: a cached name the rules of this version cut or cleaned reaches HomeKit too, and a name
   * set, changed or removed in the plugin settings since the last start is shown, with one line.
   */
  start(): void {
    this.names.start();
  }

  get doorId(): string {
    return this.context.doorId;
  }

  get name(): string {
    return this.context.name;
  }

  /** HomeKit's CurrentDoorState. */
  get shown(): ShownState {
    return this.machine.shown;
  }

  /** HomeKit's TargetDoorState: where the door is going, or where it is. */
  get target(): DoorState {
    return this.machine.target;
  }

  /** The service's last_toggled at the last sync, as written: when the door last moved, by the service's clock. */
  get lastToggledText(): string | undefined {
    return this.commands.lastToggledText;
  }

  /** The last state the service reported (or the cached one after a restart). */
  get reported(): DoorState {
    return this.machine.reported;
  }

  /** The state a command asked for that the door did not reach in time (Home shows an obstruction). */
  get missedTarget(): DoorState | undefined {
    return this.machine.missedTarget;
  }

  get isMoving(): boolean {
    return this.machine.isMoving;
  }

  /** Home shows "No Response" while this is false, rather than a state that may be stale. */
  get available(): boolean {
    return this.availability.available;
  }

  /**
   * False until the service reports a state the plugin can read, for a door first seen without one: `reported` then
   * stands for nothing, and Home must not show it (a lock shows unknown, a garage door No Response).
   */
  get stateKnown(): boolean {
    // Read from the cached record, which keepReported clears at the first readable state: one flag, kept across restarts.
    return this.context.stateUnknown !== true;
  }

  setAccountReadable(readable: boolean): void {
    this.availability.setAccountReadable(readable);
  }

  /** When the door, still open, is expected to close by itself (auto-close), in local time. */
  get expectedAutoCloseAtMs(): number | undefined {
    return this.timings.expectedAutoCloseAtMs;
  }

  /** 0 once the door has stood open past its alert time, the time left before that while open, undefined when closed. */
  leftOpenDueInMs(): number | undefined {
    return this.timings.leftOpenDueInMs(this.machine.reported, this.deps.now(), this.leftOpenOptions.leftOpenAfter);
  }

  /**
   * What the left-open sensor shows now and when that changes (see DoorTimings.leftOpenSignal). The repeat runs only
   * while the door is available: a door that answers No Response shows its plain verdict and sets no further change.
   */
  leftOpenSignal(): LeftOpenSignal {
    const { leftOpenAfter, leftOpenRepeat } = this.leftOpenOptions;
    const repeatMin = this.available ? leftOpenRepeat : 0;
    return this.timings.leftOpenSignal(this.machine.reported, this.deps.now(), leftOpenAfter, repeatMin);
  }

  /** The left-open times set, or while the settings cannot be read the catalog's defaults (a kept sensor still works). */
  private get leftOpenOptions(): Pick<OptionValues, 'leftOpenAfter' | 'leftOpenRepeat'> {
    return this.deps.options ?? OPTION_DEFAULTS;
  }

  /** What a successful sync says of the door besides its state: its controller, name, active flags and times. */
  learn(door: Door, device: Device): void {
    this.context.deviceId = device.id;
    this.names.followAccount(door);
    this.availability.setActive(device.active, door.active);
    this.notices.active(device.active, door.active);
    this.commands.learnToggled(door.lastToggled);
    this.entityNumber = door.entityNumber;
    this.timings.learn(door, device);
  }

  /**
   * The door's state in a successful sync sent at `syncSentMs`: what it meant, `undefined` when the state was not used
   * (unknown, or older than a webhook that arrived meanwhile).
   */
  reportPolled(door: Door, syncSentMs: number): ReportOutcome | undefined {
    if (door.state === null) {
      this.notices.unknownState(door.rawState, this.stateKnown);
      return undefined;
    }
    this.availability.told(syncSentMs);
    this.notices.stateRead();
    if (this.eventOrder.outdates(syncSentMs)) {
      return undefined;
    }
    return this.applyState(door.state, this.commands.ownLateMove(door.state) ? OURS_LATE : 'changed outside HomeKit');
  }

  /**
   * A door state pushed by webhook. `who` says who or what moved it, for the log.
   * Returns 'stale' when the event is older than one already applied (webhooks can arrive out of order).
   */
  applyEvent(state: DoorState, occurredAtMs: number | undefined, who: string): ReportOutcome | 'stale' {
    if (!this.eventOrder.admit(occurredAtMs, this.deps.now())) {
      return 'stale';
    }
    this.availability.told(this.deps.now());
    return this.applyState(state, who);
  }

  private applyState(state: DoorState, cause: string): ReportOutcome {
    const before = this.machine.target;
    const wasReported = this.machine.reported;
    const outcome = this.machine.report(state, this.deps.now(), (target) => this.commands.movedAndBack(target));
    keepReported(this.context, this.machine);
    this.timings.reported(state, wasReported, this.deps.now());
    this.notices.reported(outcome, state, cause, before);
    return outcome;
  }

  /** Ends a movement that took too long, also when syncs fail; true when it did (Home must see the real state again). */
  tick(): boolean {
    const before = this.machine.target;
    if (!this.machine.expire(this.deps.now(), (target) => this.commands.movedAndBack(target))) {
      return false;
    }
    keepMissedTarget(this.context, this.machine);
    this.notices.timedOut(before);
    return true;
  }

  /** A command from Home arrived, whatever its fate: the user has seen the door and acted, so an obstruction ends. */
  commandArrived(): void {
    this.machine.clearMissed();
    keepMissedTarget(this.context, this.machine);
  }

  /** True when a command for `wanted` would change nothing: the door is there, or already on its way there. */
  isAlready(wanted: DoorState): boolean {
    return this.machine.isAlready(wanted);
  }

  /**
   * The service accepted a command, or got one it never answered (`unconfirmed`): the door shows moving until it
   * reports the target or the transition timeout passes.
   */
  startMovement(target: DoorState, unconfirmed = false): void {
    this.commands.commanded(target);
    this.machine.startMovement(target, this.deps.now(), this.deps.transitionTimeoutMs, unconfirmed);
  }

  /** While a toggle with no answer may still move the door: its target and how long the wait may last (see the state machine). */
  unconfirmedMovement(): { target: DoorState; endsInMs: number } | undefined {
    return this.machine.unconfirmedMovement(this.deps.now());
  }

  /** See DoorNames.cacheSnapshot: the cached record as text, without the names while they keep changing in the account. */
  cacheSnapshot(): string {
    return this.names.cacheSnapshot();
  }

  /** See DoorNames.renamedInHome: true when the accessory cache must be written. */
  renamedInHome(value: string): boolean {
    return this.names.renamedInHome(value);
  }
}

/** The cause said for a move that is our own command, reported after its movement ended. */
const OURS_LATE = 'from HomeKit, reported late';

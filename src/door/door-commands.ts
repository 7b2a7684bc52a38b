// Home's wishes for one door turned into toggles, one at a time, by the rules that keep a door from getting a second
// pulse; the same path for every HomeKit face of the door (garage door, lock, automation switch).
import type { API, Logging } from 'homebridge';

import { ServiceError, ToggleRejectedError } from '../client/errors.js';
import type { DoorState } from '../client/types.js';
import { oneLine } from '../util/log-text.js';
import { READ_ONLY_REFUSAL } from '../config/gate.js';
import { COMMAND_START_DEADLINE_MS, HAP_WRITE_ANSWER_MS } from '../settings.js';
import type { DoorModel } from './model/door.js';

export interface DoorCommandsDeps {
  api: API;
  log: Logging;
  model: DoorModel;
  /** Asked at each command (src/config/gate.ts): why the settings refuse it now, or undefined when they let it through. */
  refusal: () => string | undefined;
  toggle: (state: DoorState) => Promise<void>;
  transitionTimeoutMs: number;
  now: () => number;
  /** Shows the model's state in Home (every face and the extras). */
  push: () => void;
  /** A command was accepted: the platform should sync soon and often until the door arrives. */
  onCommandAccepted: () => void;
}

/** A wish from Home waiting for the command before it to finish. */
interface WaitingCommand {
  wanted: DoorState;
  /** When Home sent it: HAP answers it as failed HAP_WRITE_ANSWER_MS later, whatever the plugin does. */
  arrivedMs: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class DoorCommands {
  /** Commands to one door run one after another, never overlapping; only the latest wish waits its turn. */
  private running = false;
  private waiting: WaitingCommand | undefined;

  constructor(private readonly deps: DoorCommandsDeps) {}

  private get name(): string {
    return this.deps.model.name;
  }

  /**
   * Runs Home's wishes for this door one at a time. Only the latest wish waits: a wish that arrives while another
   * waits replaces it (as a later write to a characteristic does), so three controllers writing at once cause at most
   * two toggles in a row, and the second only if it can still start while Home waits for its answer.
   */
  enqueue(wanted: DoorState): Promise<void> {
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
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.running) {
      return;
    }
    this.running = true;
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
      this.running = false;
    }
  }

  private async command(wanted: DoorState, arrivedMs: number): Promise<void> {
    const { HapStatusError, HAPStatus } = this.deps.api.hap;
    const model = this.deps.model;
    // Any command ends an obstruction: every path below pushes the new state.
    model.commandArrived();
    const refused = this.deps.refusal();
    if (refused !== undefined) {
      this.deps.log.warn(
        refused === READ_ONLY_REFUSAL
          ? `${this.name} is read-only in the plugin settings; the command to ${verb(wanted)} it was not sent.`
          : `${this.name}: the command to ${verb(wanted)} it was not sent: ${refused}.`,
      );
      setImmediate(() => this.deps.push());
      throw new HapStatusError(HAPStatus.INSUFFICIENT_PRIVILEGES);
    }
    // A state that may be stale (No Response) or was never known cannot say "already closed": nothing is confirmed,
    // nothing sent, as the automation switch refuses too.
    if (!model.available || !model.stateKnown) {
      const why = model.available ? 'its state is not known yet' : 'it answers No Response (its state may be stale)';
      this.deps.log.warn(`${this.name}: the command to ${verb(wanted)} it was not sent: ${why}. Try again once it reports its state.`);
      setImmediate(() => this.deps.push());
      throw new HapStatusError(HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    }
    if (model.isAlready(wanted)) {
      const where = model.isMoving ? (wanted === 'OPEN' ? 'opening' : 'closing') : describe(wanted);
      this.deps.log.info(`${this.name} is already ${where}; nothing sent.`);
      // Home set the target already; make sure the shown state agrees.
      this.deps.push();
      return;
    }
    this.refuseWhileUnconfirmed(wanted);
    const waitedMs = this.deps.now() - arrivedMs;
    if (waitedMs > COMMAND_START_DEADLINE_MS) {
      this.deps.log.warn(
        `${this.name}: the command to ${verb(wanted)} it was not sent: it waited ${formatSeconds(waitedMs)} behind the previous one, ` +
          `and Home reports a command as failed after ${formatSeconds(HAP_WRITE_ANSWER_MS)}. Try again.`,
      );
      setImmediate(() => this.deps.push());
      throw new HapStatusError(HAPStatus.OPERATION_TIMED_OUT);
    }
    try {
      this.deps.log.info(`${wanted === 'OPEN' ? 'Opening' : 'Closing'} ${this.name}.`);
      await this.deps.toggle(wanted);
    } catch (error) {
      if (error instanceof ServiceError && error.mayHaveArrived) {
        this.holdUnconfirmed(wanted, error);
      } else {
        this.deps.log.error(`${this.name} could not be ${wanted === 'OPEN' ? 'opened' : 'closed'}: ${explain(error)}`);
        // Put Home's target back to the real state: the door is not moving.
        setImmediate(() => this.deps.push());
      }
      throw new HapStatusError(HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    }
    model.startMovement(wanted);
    this.deps.push();
    this.deps.onCommandAccepted();
  }

  /** A toggle got no answer but may have reached the service: the door may move, so it is shown moving and held. */
  private holdUnconfirmed(wanted: DoorState, error: ServiceError): void {
    const seconds = formatSeconds(this.deps.transitionTimeoutMs);
    this.deps.log.warn(
      `${this.name} may still ${verb(wanted)}: ${error.message}, and it may act on the command yet. It is shown ${wanted === 'OPEN' ? 'opening' : 'closing'}, ` +
        `and no other command is sent to it until it reports where it is (at most ${seconds}).`,
    );
    this.deps.model.startMovement(wanted, true);
    this.deps.push();
    // Sync soon and often: the quickest way to learn whether the door moves.
    this.deps.onCommandAccepted();
  }

  /** A second toggle behind one with no answer could be the pulse that stops or reverses the door: refuse it. */
  private refuseWhileUnconfirmed(wanted: DoorState): void {
    const held = this.deps.model.unconfirmedMovement();
    if (!held) {
      return;
    }
    const { HapStatusError, HAPStatus } = this.deps.api.hap;
    this.deps.log.warn(
      `${this.name}: the command to ${verb(wanted)} it was not sent: the service did not say whether it took the command to ${verb(held.target)} it (no answer, or an answer such as a 5xx or a redirect), ` +
        `which may still move it. Try again once it reports where it is (at most ${formatSeconds(held.endsInMs)}).`,
    );
    setImmediate(() => this.deps.push());
    throw new HapStatusError(HAPStatus.RESOURCE_BUSY);
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

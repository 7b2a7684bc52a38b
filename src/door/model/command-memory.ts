// What the plugin remembers of its own last command, to judge later reports: was this move ours, did it move and come back.
import type { DoorState } from '../../client/types.js';
import { OWN_COMMAND_LATE_MS } from '../../settings.js';
import type { DoorStateMachine } from './state-machine.js';
import type { DoorTimings } from './timings.js';

/**
 * What the judgements read as they are made: the door's state machine (moving, reported, answered) and its times (whether
 * it closes by itself); the live objects, not copies.
 */
export interface CommandMemoryDeps {
  machine: Pick<DoorStateMachine, 'isMoving' | 'reported' | 'confirmedMovement'>;
  timings: Pick<DoorTimings, 'closesByItself'>;
  now: () => number;
}

export class CommandMemory {
  /** The service's last_toggled at the last sync, and at the last command: a change between them proves a move. */
  private lastToggled: string | undefined;
  private lastToggledAtCommand: string | undefined;
  /** Our last command the service took (answered or not): a move to its state soon after is ours, however late it reports. */
  private lastCommand: { target: DoorState; atMs: number } | undefined;

  constructor(private readonly deps: CommandMemoryDeps) {}

  /** The service's last_toggled at the last sync, as written: when the door last moved, by the service's clock. */
  get lastToggledText(): string | undefined {
    return this.lastToggled;
  }

  /** A successful sync's last_toggled (undefined: the service did not say). */
  learnToggled(lastToggled: string | undefined): void {
    this.lastToggled = lastToggled;
  }

  /** The service took a command for `target` (answered or not). */
  commanded(target: DoorState): void {
    this.lastToggledAtCommand = this.lastToggled;
    this.lastCommand = { target, atMs: this.deps.now() };
  }

  /**
   * Whether a move to `state` is our last command arriving after its movement ended (timed out, or answered and then
   * reported late): within OWN_COMMAND_LATE_MS of it, to the state it asked for. Told once: a later move is someone's.
   */
  ownLateMove(state: DoorState): boolean {
    const command = this.lastCommand;
    if (command === undefined || this.deps.machine.isMoving || state === this.deps.machine.reported) return false;
    this.lastCommand = undefined;
    return command.target === state && this.deps.now() - command.atMs <= OWN_COMMAND_LATE_MS;
  }

  /**
   * A movement to open timed out with the door closed: did it open and close again by itself between two syncs? Yes when
   * the service's last_toggled changed since the command; without last_toggled, when the service accepted the command
   * and the door closes by itself (auto-close). An obstruction is shown only when the door may really not have moved; a
   * close that did not arrive is always shown (a door that reverses on an obstacle is what it is for).
   */
  movedAndBack(target: DoorState): boolean {
    if (target !== 'OPEN' || this.deps.machine.reported !== 'CLOSED') return false;
    const [before, after] = [this.lastToggledAtCommand, this.lastToggled];
    if (after !== undefined) return before !== undefined && after !== before;
    return this.deps.timings.closesByItself && this.deps.machine.confirmedMovement;
  }
}

// What Home should show for one door: the last reported state, and a movement the plugin asked for until it arrives or times out.
import type { DoorState } from '../../client/types.js';

/** The states HomeKit's CurrentDoorState can show; the accessory maps them to Characteristic constants. */
export type ShownState = 'OPEN' | 'CLOSED' | 'OPENING' | 'CLOSING';

/** What a report from the service meant for the door. */
export type ReportOutcome =
  /** Nothing Home needs to hear about. */
  | 'unchanged'
  /** The door moved without a command from HomeKit (keypad, remote, another app). */
  | 'changed'
  /** A movement asked for from HomeKit reached its target. */
  | 'arrived'
  /** A movement asked for did not reach its target in time: Home must see the real state again. */
  | 'timed-out'
  /** Still on its way. */
  | 'moving';

interface Movement {
  target: DoorState;
  deadlineMs: number;
  /** The service never answered the toggle: it may or may not act on it, so no other toggle may follow meanwhile. */
  unconfirmed: boolean;
}

export class DoorStateMachine {
  private movement: Movement | undefined;

  /**
   * `missed` is the target of a movement that timed out, while the door has not reported it since (HomeKit's
   * ObstructionDetected): restored from the accessory cache, so a restart neither hides nor repeats the alert.
   */
  constructor(
    private known: DoorState,
    private missed?: DoorState,
  ) {}

  /** The state a command asked for that the door did not reach in time; undefined once it reports it or a new command comes. */
  get missedTarget(): DoorState | undefined {
    return this.missed;
  }

  /** A new command from Home, whatever its fate: the user has seen the door and acted, so the old alert ends. */
  clearMissed(): void {
    this.missed = undefined;
  }

  /** The last state the service reported (or the cached one after a restart). */
  get reported(): DoorState {
    return this.known;
  }

  get isMoving(): boolean {
    return this.movement !== undefined;
  }

  /** HomeKit's TargetDoorState: where the door is going, or where it is. */
  get target(): DoorState {
    return this.movement?.target ?? this.known;
  }

  /** HomeKit's CurrentDoorState. */
  get shown(): ShownState {
    if (this.movement) {
      return this.movement.target === 'OPEN' ? 'OPENING' : 'CLOSING';
    }
    return this.known;
  }

  /** True when a command for `wanted` would change nothing: the door is there, or already on its way there. */
  isAlready(wanted: DoorState): boolean {
    return this.target === wanted;
  }

  /**
   * The service accepted a command, or got one it never answered (`unconfirmed`): show the door moving until it reports
   * the target or the deadline passes.
   */
  startMovement(target: DoorState, nowMs: number, timeoutMs: number, unconfirmed = false): void {
    this.movement = { target, deadlineMs: nowMs + timeoutMs, unconfirmed };
    this.missed = undefined;
  }

  /**
   * While a toggle with no answer may still move the door: its target and how long the wait may last. A second toggle
   * then could be a second pulse that stops or reverses the door, so none is sent until it reports the target or the
   * movement times out.
   */
  unconfirmedMovement(nowMs: number): { target: DoorState; endsInMs: number } | undefined {
    if (!this.movement?.unconfirmed) {
      return undefined;
    }
    return { target: this.movement.target, endsInMs: Math.max(0, this.movement.deadlineMs - nowMs) };
  }

  /**
   * A state the service reported. `movedAndBack`: asked when a movement times out, true when the door is known to have
   * moved and come back by itself (auto-close) since the command, so no obstruction is shown for it.
   */
  report(state: DoorState, nowMs: number, movedAndBack: (target: DoorState) => boolean = () => false): ReportOutcome {
    const previous = this.known;
    this.known = state;
    // Only the state asked for ends the alert: a report of the old state (every poll) confirms the door did not get there.
    if (state === this.missed) {
      this.missed = undefined;
    }
    if (this.movement) {
      if (state === this.movement.target) {
        this.movement = undefined;
        return 'arrived';
      }
      return this.expire(nowMs, movedAndBack) ? 'timed-out' : 'moving';
    }
    return state === previous ? 'unchanged' : 'changed';
  }

  /**
   * Ends a movement whose deadline has passed, even when no report arrives (an outage must not leave "Opening..."
   * forever): an obstruction, unless the door is known to have moved and come back by itself (`movedAndBack`).
   */
  expire(nowMs: number, movedAndBack: (target: DoorState) => boolean = () => false): boolean {
    if (this.movement && nowMs >= this.movement.deadlineMs) {
      const { target } = this.movement;
      this.missed = movedAndBack(target) ? undefined : target;
      this.movement = undefined;
      return true;
    }
    return false;
  }

  /** Whether the movement under way was answered by the service (a toggle with no answer is unconfirmed). */
  get confirmedMovement(): boolean {
    return this.movement !== undefined && !this.movement.unconfirmed;
  }
}

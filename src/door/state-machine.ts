// What Home should show for one door: the last reported state, and a movement the plugin asked for until it arrives or times out.
import type { DoorState } from '../client/types.js';

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
}

export class DoorStateMachine {
  private movement: Movement | undefined;

  constructor(private known: DoorState) {}

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

  /** The service accepted a command: show the door moving until it reports the target or the deadline passes. */
  startMovement(target: DoorState, nowMs: number, timeoutMs: number): void {
    this.movement = { target, deadlineMs: nowMs + timeoutMs };
  }

  /** A state the service reported. */
  report(state: DoorState, nowMs: number): ReportOutcome {
    const previous = this.known;
    this.known = state;
    if (this.movement) {
      if (state === this.movement.target) {
        this.movement = undefined;
        return 'arrived';
      }
      return this.expire(nowMs) ? 'timed-out' : 'moving';
    }
    return state === previous ? 'unchanged' : 'changed';
  }

  /** Ends a movement whose deadline has passed, even when no report arrives (an outage must not leave "Opening..." forever). */
  expire(nowMs: number): boolean {
    if (this.movement && nowMs >= this.movement.deadlineMs) {
      this.movement = undefined;
      return true;
    }
    return false;
  }
}

// A door's times: since when it stands open, when it counts as left open, and when it should close by itself (auto-close).
import type { Device, Door, DoorState } from '../../client/types.js';
import { DEFAULT_LEFT_OPEN_AFTER_S, LEFT_OPEN_REPEAT_CLEARED_MS } from '../../settings.js';

/** What the left-open sensor shows now, and in how many milliseconds that changes if nothing else does (undefined: never). */
export interface LeftOpenSignal {
  detected: boolean;
  changeInMs: number | undefined;
}

export class DoorTimings {
  /** The controller's own "door open" alert time, seconds. */
  private deviceAlertS: number | undefined;
  private autoCloseDelayS: number | undefined;

  /** `openSinceMs`: since when the door is known to be open (local time); the plugin's start for a door open then. */
  constructor(private openSinceMs: number | undefined) {}

  /** What a sync says of the door's times: the controller's alert time and the door's auto-close. */
  learn(door: Door, device: Device): void {
    this.deviceAlertS = device.timeBeforeDoorOpenAlert;
    this.autoCloseDelayS = door.autoCloseEnabled && door.autoCloseDelay > 0 ? door.autoCloseDelay : undefined;
  }

  /** The door reported `state` at `nowMs`, `previous` before: an opening starts the open time, a closing ends it. */
  reported(state: DoorState, previous: DoorState, nowMs: number): void {
    if (state !== previous) {
      this.openSinceMs = state === 'OPEN' ? nowMs : undefined;
    }
  }

  /** Whether the service says the door closes by itself after a delay (auto-close). */
  get closesByItself(): boolean {
    return this.autoCloseDelayS !== undefined;
  }

  /** When the door, still open, is expected to close by itself (auto-close), in local time. */
  get expectedAutoCloseAtMs(): number | undefined {
    return this.autoCloseDelayS && this.openSinceMs !== undefined ? this.openSinceMs + this.autoCloseDelayS * 1000 : undefined;
  }

  /**
   * 0 once a door reported `reported` has stood open past its alert time (the settings' `leftOpenAfter`, else the
   * controller's, else the default), the time left before that while open, undefined when closed.
   */
  leftOpenDueInMs(reported: DoorState, nowMs: number, leftOpenAfterS: number | undefined): number | undefined {
    const leftOpenAtMs = this.leftOpenAtMs(reported, leftOpenAfterS);
    return leftOpenAtMs === undefined ? undefined : Math.max(0, leftOpenAtMs - nowMs);
  }

  /** When a door reported `reported` counts as left open (see leftOpenDueInMs), in local time; undefined when closed. */
  private leftOpenAtMs(reported: DoorState, leftOpenAfterS: number | undefined): number | undefined {
    if (reported !== 'OPEN' || this.openSinceMs === undefined) {
      return undefined;
    }
    const alertS = leftOpenAfterS ?? (this.deviceAlertS && this.deviceAlertS > 0 ? this.deviceAlertS : DEFAULT_LEFT_OPEN_AFTER_S);
    return this.openSinceMs + alertS * 1000;
  }

  /**
   * The left-open sensor of a door reported `reported`: detected once it has stood open past its alert time, and with
   * a repeat (`repeatMin` > 0) clear for LEFT_OPEN_REPEAT_CLEARED_MS before each whole `repeatMin` since then, so Home,
   * which notifies on a change, sees detected again at each repeat. Counted from now each time, never from what was
   * shown: a timer that wakes late, or a clock that jumped, shows the present phase instead of catching up.
   */
  leftOpenSignal(reported: DoorState, nowMs: number, leftOpenAfterS: number | undefined, repeatMin: number): LeftOpenSignal {
    const leftOpenAtMs = this.leftOpenAtMs(reported, leftOpenAfterS);
    if (leftOpenAtMs === undefined || leftOpenAtMs > nowMs) {
      return { detected: false, changeInMs: leftOpenAtMs === undefined ? undefined : leftOpenAtMs - nowMs };
    }
    if (repeatMin <= 0) {
      return { detected: true, changeInMs: undefined };
    }
    const periodMs = repeatMin * 60_000;
    const intoPeriodMs = (nowMs - leftOpenAtMs) % periodMs;
    const clearsAtMs = periodMs - LEFT_OPEN_REPEAT_CLEARED_MS;
    return intoPeriodMs < clearsAtMs
      ? { detected: true, changeInMs: clearsAtMs - intoPeriodMs }
      : { detected: false, changeInMs: periodMs - intoPeriodMs };
  }
}

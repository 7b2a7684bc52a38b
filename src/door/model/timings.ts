// A door's times: since when it stands open, when it counts as left open, and when it should close by itself (auto-close).
import type { Device, Door, DoorState } from '../../client/types.js';
import { DEFAULT_LEFT_OPEN_AFTER_S } from '../../settings.js';

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

  /** When the door, still open, is expected to close by itself (auto-close), in local time. */
  get expectedAutoCloseAtMs(): number | undefined {
    return this.autoCloseDelayS && this.openSinceMs !== undefined ? this.openSinceMs + this.autoCloseDelayS * 1000 : undefined;
  }

  /**
   * 0 once a door reported `reported` has stood open past its alert time (`leftOpenAfterS` from the settings, else the
   * controller's, else the default), the time left before that while open, undefined when closed.
   */
  leftOpenDueInMs(reported: DoorState, nowMs: number, leftOpenAfterS: number | undefined): number | undefined {
    if (reported !== 'OPEN' || this.openSinceMs === undefined) {
      return undefined;
    }
    const alertS = leftOpenAfterS ?? (this.deviceAlertS && this.deviceAlertS > 0 ? this.deviceAlertS : DEFAULT_LEFT_OPEN_AFTER_S);
    return Math.max(0, this.openSinceMs + alertS * 1000 - nowMs);
  }
}

// What real-time updates need of a door: its name for the log, a way to apply a webhook's state, and its access alert.
import type { DoorState } from '../client/types.js';
import type { ReportOutcome } from '../door/model/state-machine.js';

/** What real-time updates need of a door: its name for the log, and a way to apply a webhook's state. */
export interface RealtimeDoor {
  readonly name: string;
  /** The service's id of the door (the person sensors key each move by it). */
  readonly doorId?: string;
  /** Applies a state pushed by webhook; 'stale' when the event is older than one already applied. */
  applyEvent(state: DoorState, occurredAtMs: number | undefined, who: string): ReportOutcome | 'stale';
  /** An enforcer event names the door: its access alert detects; false when it has none. Never moves the door. */
  alertAccess?(): boolean;
}

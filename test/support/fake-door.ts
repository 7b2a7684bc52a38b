// A stand-in for GarageDoorAccessory's webhook path (an event older than the newest applied is stale, else the real DoorStateMachine).
import type { GarageDoorAccessory } from '../../src/accessories/garage-door.js';
import type { DoorState } from '../../src/client/types.js';
import { DoorStateMachine } from '../../src/door-state.js';
import type { ReportOutcome } from '../../src/door-state.js';

export class FakeDoor {
  readonly machine: DoorStateMachine;
  /** Calls of applyEvent, stale ones included. */
  calls = 0;
  stale = 0;
  private lastEventOccurredMs = Number.NEGATIVE_INFINITY;

  constructor(
    readonly name: string,
    initial: DoorState,
    private readonly now: () => number,
    /** Told of every call with the event's time, to count applications per event without keeping them here. */
    private readonly onApply?: (occurredAtMs: number | undefined) => void,
  ) {
    this.machine = new DoorStateMachine(initial);
  }

  /** Same rule as GarageDoorAccessory.applyEvent: only an event older than the newest one applied is refused. */
  applyEvent(state: DoorState, occurredAtMs: number | undefined, _who: string): ReportOutcome | 'stale' {
    this.calls += 1;
    this.onApply?.(occurredAtMs);
    if (occurredAtMs !== undefined) {
      if (occurredAtMs < this.lastEventOccurredMs) {
        this.stale += 1;
        return 'stale';
      }
      this.lastEventOccurredMs = occurredAtMs;
    }
    return this.machine.report(state, this.now());
  }

  /** What RealtimeUpdates expects; it only calls `name` and `applyEvent`. */
  get accessory(): GarageDoorAccessory {
    return this as unknown as GarageDoorAccessory;
  }
}

// What a door says in the log of the service's reports: each change, a movement that timed out, and a state it cannot read
// or the door (or its controller) reported inactive, those two once per incident.
import type { DoorState } from '../../client/types.js';
import { FLAP_QUIET_MS } from '../../settings.js';
import { oneLine } from '../../util/log-text.js';
import { FlapNotice, timeOfDay } from './flap-notice.js';
import type { DoorLog } from './log.js';
import type { DoorStateMachine, ReportOutcome } from './state-machine.js';

export interface ReportNoticesDeps {
  log: DoorLog;
  now: () => number;
  /** The name the door shows now: a rename between two lines is said under the new name. */
  name: () => string;
  /** How long a commanded movement may take before Home sees the real state again, with an obstruction. */
  transitionTimeoutMs: number;
  /** The door's state machine, read as each line is said (the live object, not a copy). */
  machine: Pick<DoorStateMachine, 'reported' | 'missedTarget'>;
}

export class ReportNotices {
  /** The service reporting the door (or its controller) inactive, and a state the plugin cannot read: each said once per incident. */
  private readonly inactiveFlap = new FlapNotice(FLAP_QUIET_MS);
  private readonly unknownFlap = new FlapNotice(FLAP_QUIET_MS);

  constructor(private readonly deps: ReportNoticesDeps) {}

  private get name(): string {
    return this.deps.name();
  }

  /** A sync reported a state the plugin cannot read (`rawState`, as written); `stateKnown`: an earlier state is known. */
  unknownState(rawState: string | undefined, stateKnown: boolean): void {
    if (this.unknownFlap.holds(this.deps.now())?.kind === 'start') {
      const raw = oneLine(rawState ?? '');
      this.deps.log.warn(
        stateKnown
          ? `${this.name}: the service reported an unknown state "${raw}"; keeping the last known state (${this.deps.machine.reported}).`
          : `${this.name}: the service reported an unknown state "${raw}", and no earlier state is known; Home shows its state as unknown (a garage door: No Response) until the service reports open or closed.`,
      );
    }
  }

  /** A sync reported open or closed: unknown states that kept coming back are summed up once they have stayed away. */
  stateRead(): void {
    const unknownLine = this.unknownFlap.absent(this.deps.now());
    if (unknownLine?.kind === 'settled') {
      this.deps.log.info(
        `${this.name}: the service reported a state the plugin cannot read ${times(unknownLine.returns)} more after ${timeOfDay(unknownLine.sinceMs)}; it has reported open or closed for ${FLAP_QUIET_MS / 60_000} minutes now.`,
      );
    }
  }

  /** What a reported `state` meant (`before`: Home's target before it, `cause`: who or what moved the door). */
  reported(outcome: ReportOutcome, state: DoorState, cause: string, before: DoorState): void {
    switch (outcome) {
      case 'changed':
        this.deps.log.info(`${this.name} is now ${describe(state)} (${cause}).`);
        break;
      case 'arrived':
        this.deps.log.info(`${this.name} is ${describe(state)}.`);
        break;
      case 'timed-out':
        this.timedOut(before);
        break;
      case 'moving':
      case 'unchanged':
        break;
    }
  }

  /** A movement to `target` took too long: an obstruction, or a door that opened and closed again between two syncs. */
  timedOut(target: DoorState): void {
    const seconds = Math.round(this.deps.transitionTimeoutMs / 1000);
    if (this.deps.machine.missedTarget === undefined) {
      this.deps.log.info(
        `${this.name} did not report open within ${seconds} s, but it moved since the command and closes by itself: it opened and closed again between two syncs. Showing it closed.`,
      );
      return;
    }
    this.deps.log.warn(
      `${this.name} did not report ${describe(target)} within ${seconds} s; showing its last reported state (${describe(this.deps.machine.reported)}) ` +
        `and an obstruction until it reports ${describe(target)} or gets a new command.`,
    );
  }

  /** A flag that flips at every sync says its start, its first end, and then only a count once it has settled. */
  active(deviceActive: boolean, doorActive: boolean): void {
    const now = this.deps.now();
    const line = deviceActive && doorActive ? this.inactiveFlap.absent(now) : this.inactiveFlap.holds(now);
    if (line?.kind === 'start') {
      const what = deviceActive ? 'the door' : 'its controller';
      this.deps.log.warn(`${this.name} shows No Response: the service reports ${what} as inactive.`);
    } else if (line?.kind === 'end') {
      this.deps.log.info(`${this.name} is active again.`);
    } else if (line?.kind === 'settled') {
      this.deps.log.info(
        `${this.name} went inactive ${times(line.returns)} more after ${timeOfDay(line.sinceMs)} (No Response each time); it has been active for ${FLAP_QUIET_MS / 60_000} minutes now.`,
      );
    }
  }
}

/** "once", "twice", "3 times". */
function times(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
}

function describe(state: DoorState): string {
  return state === 'OPEN' ? 'open' : 'closed';
}

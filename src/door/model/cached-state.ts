// The door's state in the accessory cache: read back at a start and kept current at each change, so a restart shows what
// Home showed before it (the state, an obstruction) and the first sync decides as any sync.
import type { DoorState } from '../../client/types.js';
import type { DoorContext } from './context.js';
import type { DoorStateMachine } from './state-machine.js';

/** What the record is kept from: the door's state machine, read as it stands. */
type KeptFrom = Pick<DoorStateMachine, 'reported' | 'missedTarget'>;

/** The obstruction a cached record brings back. */
export function cachedMissedTarget(context: DoorContext): DoorState | undefined {
  // An older cache, or a value in it that is bad or already reached, holds no obstruction: off rather than on forever.
  const cachedMissed = context.missedTarget;
  return (cachedMissed === 'OPEN' || cachedMissed === 'CLOSED') && cachedMissed !== context.state ? cachedMissed : undefined;
}

/** The accessory cache keeps the obstruction, so a restart brings it back as it was and the first sync decides as any sync. */
export function keepMissedTarget(context: DoorContext, machine: KeptFrom): void {
  const missed = machine.missedTarget;
  if (missed === undefined) {
    delete context.missedTarget;
  } else {
    context.missedTarget = missed;
  }
}

/** The service reported a state the plugin can read: the record holds it, as known, with the obstruction as it stands now. */
export function keepReported(context: DoorContext, machine: KeptFrom): void {
  delete context.stateUnknown;
  context.state = machine.reported;
  keepMissedTarget(context, machine);
}

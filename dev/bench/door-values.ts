// The service's door states, the opposite of each, and the CurrentDoorState value HomeKit shows for each.
import { CURRENT_DOOR_STATE } from '../harness/hap-types.js';
import type { SimDoorState } from '../simulator/server.js';

export function opposite(state: SimDoorState): SimDoorState {
  return state === 'OPEN' ? 'CLOSED' : 'OPEN';
}

/** CurrentDoorState a controller sees for a door the service reports in `state`. */
export function homeKitCurrent(state: SimDoorState): number {
  return state === 'OPEN' ? CURRENT_DOOR_STATE.OPEN : CURRENT_DOOR_STATE.CLOSED;
}

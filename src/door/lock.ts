// The door as a HomeKit lock, for the doors a garage icon suits badly (office entrances, turnstiles, front doors):
// unlock opens the door and lock closes it, through the same command path as a garage door. Unlocked while the door
// is open, locked while it is closed; a commanded move that did not arrive shows as jammed until the door reports it.
import type { Service } from 'homebridge';

import type { DoorFace, FaceDeps } from './face.js';

export class LockFace implements DoorFace {
  constructor(
    private readonly deps: FaceDeps,
    /** The door's LockMechanism, found or added by face.ts (kindService). */
    readonly service: Service,
  ) {
    const { Characteristic: C } = deps.hap;
    this.service.getCharacteristic(C.LockCurrentState).onGet(() => deps.answer(this.currentState()));
    this.service.getCharacteristic(C.LockTargetState).onGet(() => deps.answer(this.targetState()));
    this.service
      .getCharacteristic(C.LockTargetState)
      .onSet((value) => deps.command(value === C.LockTargetState.UNSECURED ? 'OPEN' : 'CLOSED'));
  }

  /** Target first, as for a garage door: Home shows "Unlocking..." while the two differ. */
  push(): void {
    const { Characteristic: C } = this.deps.hap;
    this.service.updateCharacteristic(C.LockTargetState, this.targetState());
    this.service.updateCharacteristic(C.LockCurrentState, this.currentState());
  }

  /**
   * What the door last reported, not the movement: a lock has no "unlocking" state, and Home shows one by itself while
   * the target differs. A commanded move that did not arrive in time is jammed, as a garage door shows an obstruction.
   */
  private currentState(): number {
    const { LockCurrentState } = this.deps.hap.Characteristic;
    const model = this.deps.model;
    // Never "locked" for a door whose state the plugin does not know.
    if (!model.stateKnown) {
      return LockCurrentState.UNKNOWN;
    }
    if (model.missedTarget !== undefined) {
      return LockCurrentState.JAMMED;
    }
    return model.reported === 'OPEN' ? LockCurrentState.UNSECURED : LockCurrentState.SECURED;
  }

  private targetState(): number {
    const { LockTargetState } = this.deps.hap.Characteristic;
    return this.deps.model.target === 'OPEN' ? LockTargetState.UNSECURED : LockTargetState.SECURED;
  }
}

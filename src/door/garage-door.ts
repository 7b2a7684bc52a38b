// The door as a HomeKit garage door (the default kind): CurrentDoorState and TargetDoorState follow the door model,
// a target set in Home becomes a command, and a commanded move that did not arrive shows as an obstruction.
import type { Service } from 'homebridge';

import type { ShownState } from './model/state-machine.js';
import type { DoorFace, FaceDeps } from './face.js';

export class GarageDoorFace implements DoorFace {
  constructor(
    private readonly deps: FaceDeps,
    /** The door's GarageDoorOpener, found or added by face.ts (kindService). */
    readonly service: Service,
  ) {
    const { Characteristic: C } = deps.hap;
    this.service.getCharacteristic(C.CurrentDoorState).onGet(() => deps.answer(this.currentDoorState()));
    this.service.getCharacteristic(C.TargetDoorState).onGet(() => deps.answer(this.targetDoorState()));
    this.service.getCharacteristic(C.TargetDoorState).onSet((value) => deps.command(value === C.TargetDoorState.OPEN ? 'OPEN' : 'CLOSED'));
    // The service reports no obstruction; the plugin shows one while a commanded move has not arrived (see the state machine).
    this.service.getCharacteristic(C.ObstructionDetected).onGet(() => deps.answer(this.obstructionDetected()));
  }

  /** Target first: Home shows "Opening..." forever when it sees the current state change before the target. */
  push(): void {
    const { Characteristic: C } = this.deps.hap;
    this.service.updateCharacteristic(C.TargetDoorState, this.targetDoorState());
    this.service.updateCharacteristic(C.CurrentDoorState, this.currentDoorState());
    this.service.updateCharacteristic(C.ObstructionDetected, this.obstructionDetected());
  }

  private currentDoorState(): number {
    const { CurrentDoorState } = this.deps.hap.Characteristic;
    const byState: Record<ShownState, number> = {
      OPEN: CurrentDoorState.OPEN,
      CLOSED: CurrentDoorState.CLOSED,
      OPENING: CurrentDoorState.OPENING,
      CLOSING: CurrentDoorState.CLOSING,
    };
    return byState[this.deps.model.shown];
  }

  private obstructionDetected(): boolean {
    return this.deps.model.missedTarget !== undefined;
  }

  private targetDoorState(): number {
    const { TargetDoorState } = this.deps.hap.Characteristic;
    return this.deps.model.target === 'OPEN' ? TargetDoorState.OPEN : TargetDoorState.CLOSED;
  }
}

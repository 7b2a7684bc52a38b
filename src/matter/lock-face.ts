// The door as a Matter DoorLock (matter: "locks"): unlockDoor opens it and lockDoor closes it through the door's one
// command path; lockState follows the door, and a refusal answers the controller with a Matter status error.
import type { HAP } from 'homebridge';

import type { DoorState } from '../client/types.js';
import type { MatterApi } from './matter-api.js';
import type { ClusterState, MatterDoorFacts, MatterFace, MatterFaceDeps } from './matter-face.js';

export class MatterLockFace implements MatterFace {
  readonly handlers: MatterFace['handlers'];
  private readonly matter: MatterApi;
  private readonly hap: HAP;
  /** The door's model, read at each call. */
  private readonly door: MatterDoorFacts;
  /** Commands from controllers being handled now (HomeKit's wait in the same queue but are not counted here). */
  private inFlight = 0;

  /** `deps.settled`: Homebridge has set lockState by itself when a command resolved, so the truth is pushed after. */
  constructor(private readonly deps: MatterFaceDeps) {
    this.matter = deps.matter;
    this.hap = deps.hap;
    this.door = deps.door.facts;
    this.handlers = {
      [this.matter.clusterNames.DoorLock]: {
        lockDoor: () => this.command('CLOSED'),
        unlockDoor: () => this.command('OPEN'),
      },
    };
  }

  /**
   * Where the door is going, as Homebridge shows it once a command resolves (a lock has no "unlocking" state): closed
   * or closing is Locked, open or opening Unlocked; a commanded move that did not arrive is NotFullyLocked, as HomeKit
   * shows it jammed.
   */
  state(): ClusterState {
    const { LockState } = this.matter.types.DoorLock;
    // Never Locked for a door whose state the plugin does not know.
    const lockState =
      this.door.missedTarget !== undefined || !this.door.stateKnown
        ? LockState.NotFullyLocked
        : this.door.target === 'OPEN'
          ? LockState.Unlocked
          : LockState.Locked;
    return { cluster: this.matter.clusterNames.DoorLock, attributes: { lockState } };
  }

  /**
   * operatingMode is mandatory: without it the DoorLock fails conformance and Homebridge drops the whole batch. The lock
   * type is Other: the door is a gate, garage door or door moved by its controller, not a bolt of any listed kind.
   */
  fixed(): Record<string, unknown> {
    const { LockType, OperatingMode } = this.matter.types.DoorLock;
    return { lockType: LockType.Other, operatingMode: OperatingMode.Normal, actuatorEnabled: true };
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  private async command(wanted: DoorState): Promise<void> {
    if (!this.deps.shown()) {
      throw new this.matter.status.Failure(`${this.door.name} is no longer shown, so it takes no command`);
    }
    this.inFlight += 1;
    try {
      await this.deps.door.command(wanted);
    } catch (error) {
      throw this.matterError(error);
    } finally {
      this.inFlight -= 1;
      this.deps.settled();
    }
  }

  /** The command path's HomeKit refusal as the Matter status that says the same to a Matter controller. */
  private matterError(error: unknown): Error {
    const { status } = this.matter;
    if (!(error instanceof this.hap.HapStatusError)) {
      return new status.Failure(error instanceof Error ? error.message : String(error));
    }
    const { HAPStatus } = this.hap;
    switch (error.hapStatus) {
      case HAPStatus.INSUFFICIENT_PRIVILEGES:
        return new status.PermissionDenied(`${this.door.name} is read-only in the plugin settings`);
      case HAPStatus.RESOURCE_BUSY:
        return new status.Busy(`${this.door.name} may still move after a command whose outcome the service did not say`);
      case HAPStatus.OPERATION_TIMED_OUT:
        return new status.Timeout(`${this.door.name}: the command waited too long behind the previous one`);
      default:
        return new status.Failure(`${this.door.name} could not be reached`);
    }
  }
}

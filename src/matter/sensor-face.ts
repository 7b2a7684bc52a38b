// The door as a Matter ContactSensor (matter: "sensors"): its state only, no command.
import type { MatterApi } from './matter-api.js';
import type { ClusterState, MatterDoor, MatterFace, MatterFaceDeps } from './matter-face.js';

export class MatterSensorFace implements MatterFace {
  readonly handlers = undefined;
  readonly busy = false;
  private readonly matter: MatterApi;
  private readonly door: MatterDoor;

  constructor({ matter, door }: MatterFaceDeps) {
    this.matter = matter;
    this.door = door;
  }

  /** What the door last reported, as a contact sensor's: in Matter, true is contact, the door closed. */
  state(): ClusterState {
    return { cluster: this.matter.clusterNames.BooleanState, attributes: { stateValue: this.door.reported === 'CLOSED' } };
  }

  fixed(): Record<string, unknown> {
    return {};
  }
}

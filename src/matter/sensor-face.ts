// The door as a Matter ContactSensor (matter: "sensors"): its state only, no command.
import type { MatterApi } from './matter-api.js';
import type { ClusterState, MatterDoor, MatterFace } from './matter-face.js';

export class MatterSensorFace implements MatterFace {
  readonly deviceType: unknown;
  readonly handlers = undefined;
  readonly busy = false;

  constructor(
    private readonly matter: MatterApi,
    private readonly door: MatterDoor,
  ) {
    this.deviceType = matter.deviceTypes.ContactSensor;
  }

  /** What the door last reported, as a contact sensor's: in Matter, true is contact, the door closed. */
  state(): ClusterState {
    return { cluster: this.matter.clusterNames.BooleanState, attributes: { stateValue: this.door.reported === 'CLOSED' } };
  }

  fixed(): Record<string, unknown> {
    return {};
  }
}

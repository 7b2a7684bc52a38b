// The door as a Matter ContactSensor (matter: "sensors"): its state only, no command.
import type { MatterApi } from './matter-api.js';
import type { ClusterState, MatterDoorFacts, MatterFace, MatterFaceDeps } from './matter-face.js';

export class MatterSensorFace implements MatterFace {
  readonly handlers = undefined;
  readonly busy = false;
  private readonly matter: MatterApi;
  /** The door's model, read at each call. */
  private readonly door: MatterDoorFacts;

  constructor({ matter, door }: MatterFaceDeps) {
    this.matter = matter;
    this.door = door.facts;
  }

  /** What the door last reported, as a contact sensor's: in Matter, true is contact, the door closed. */
  state(): ClusterState {
    return { cluster: this.matter.clusterNames.BooleanState, attributes: { stateValue: this.door.reported === 'CLOSED' } };
  }

  fixed(): Record<string, unknown> {
    return {};
  }
}

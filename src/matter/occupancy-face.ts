// A person as a Matter OccupancySensor (people, when matter is on): occupied while their HomeKit sensor detects, no command.
import type { ClusterState, MatterFace } from './matter-face.js';

/** What the face reads of a person's sensor (PersonSensor): the one source of truth, HomeKit's MotionDetected. */
export interface DetectingSensor {
  readonly isDetecting: boolean;
}

/**
 * The detector type the device says it is: Homebridge's device type carries the PassiveInfrared feature, which matter.js
 * requires to match occupancySensorType and its bitmap (Pir, 0, in the OccupancySensorTypeEnum).
 */
const SENSOR_TYPE_PIR = 0;

export class MatterOccupancyFace implements MatterFace {
  readonly handlers = undefined;
  readonly busy = false;

  constructor(
    /** api.matter.clusterNames.OccupancySensing. */
    private readonly cluster: string,
    private readonly sensor: DetectingSensor,
  ) {}

  state(): ClusterState {
    return { cluster: this.cluster, attributes: { occupancy: { occupied: this.sensor.isDetecting } } };
  }

  fixed(): Record<string, unknown> {
    return { occupancySensorType: SENSOR_TYPE_PIR, occupancySensorTypeBitmap: { pir: true, ultrasonic: false, physicalContact: false } };
  }
}

// The left-open sensor: an OccupancySensor that detects while the door has stood open past its alert time.
import type { API, Service } from 'homebridge';

import type { Clock } from '../../util/clock.js';
import { ensureNamedService } from '../../homekit/door-name.js';
import type { LeftOpenSignal } from '../model/timings.js';
import type { ExtraDeps, ExtraSpec } from './extra.js';

/**
 * Occupied while the door has stood open longer than its alert time, so Home can notify. Home notifies on a change
 * only; with a repeat set, the door model clears it for a moment at each repeat while the door stays open, so Home
 * notifies again.
 */
export class LeftOpenSensor {
  private readonly service: Service;
  private readonly api: API;
  /** What the sensor shows now and when that changes by itself (the alert time passing, a repeat). */
  private readonly signal: () => LeftOpenSignal;
  private readonly clock: Clock;
  private timer: unknown;

  constructor({ api, accessory, doorName, door }: ExtraDeps) {
    this.api = api;
    this.signal = door.leftOpen;
    this.clock = door.clock;
    this.service = ensureNamedService(api.hap, accessory, leftOpenSensor.service(api.hap), doorName, leftOpenSensor);
    this.service
      .getCharacteristic(api.hap.Characteristic.OccupancyDetected)
      .onGet(() => door.answer(this.occupancy(this.signal().detected)));
  }

  /** Shows the current verdict, and wakes up again when it changes by itself: no timer once the door is closed. */
  update(): void {
    const { detected, changeInMs } = this.signal();
    this.service.updateCharacteristic(this.api.hap.Characteristic.OccupancyDetected, this.occupancy(detected));
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (changeInMs !== undefined && changeInMs > 0) {
      // The clock clamps a delay past what a timer holds (an alert time of weeks), so this may wake early:
      // update() then looks again and waits for the rest.
      this.timer = this.clock.setTimeout(() => this.update(), changeInMs);
    }
  }

  dispose(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private occupancy(detected: boolean): number {
    const { OccupancyDetected } = this.api.hap.Characteristic;
    return detected ? OccupancyDetected.OCCUPANCY_DETECTED : OccupancyDetected.OCCUPANCY_NOT_DETECTED;
  }
}

export const leftOpenSensor: ExtraSpec<boolean> = {
  service: (hap) => hap.Service.OccupancySensor,
  subtype: 'left-open',
  suffix: ' Left Open',
  off: false,
  kept: true,
  create: (deps) => new LeftOpenSensor(deps),
};

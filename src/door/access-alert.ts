// The access alert: a MotionSensor that detects for a while after an enforcer event (an unauthorized user or vehicle) names the door.
import type { API, PlatformAccessory } from 'homebridge';

import type { Clock } from '../util/clock.js';
import { ensureNamedService } from './door-name.js';
import { TimedMotion } from './timed-motion.js';

/** Keeps the service stable across restarts and apart from the door's other services. */
const SUBTYPE = 'access-alert';

/**
 * Home notifies on a motion sensor turning to detected (when the user turns its notifications on), so an enforcer
 * event reaches a phone instead of only the log. It detects for the configured time after the last event; another
 * event meanwhile extends it. It never touches the door. Reads answer from memory and never "No Response": its facts
 * come from webhooks, not from the syncs whose failure makes the door answer No Response, and an intruder at a door
 * whose syncs fail is still worth showing.
 */
export class AccessAlertSensor {
  private readonly motion: TimedMotion;

  constructor(api: API, accessory: PlatformAccessory, doorName: string, durationMs: number, clock: Clock) {
    const service = ensureNamedService(api.hap, accessory, api.hap.Service.MotionSensor, doorName, SUBTYPE);
    this.motion = new TimedMotion(api.hap, service, durationMs, clock);
  }

  static remove(api: API, accessory: PlatformAccessory): void {
    const service = accessory.getServiceById(api.hap.Service.MotionSensor, SUBTYPE);
    if (service) {
      accessory.removeService(service);
    }
  }

  /** Whether an accessory already has the sensor (a config that cannot be read keeps what is there). */
  static present(api: API, accessory: PlatformAccessory): boolean {
    return accessory.getServiceById(api.hap.Service.MotionSensor, SUBTYPE) !== undefined;
  }

  /** An enforcer event named the door: detect now, until the duration has passed since this event. */
  trigger(): void {
    this.motion.trigger();
  }

  dispose(): void {
    this.motion.dispose();
  }
}

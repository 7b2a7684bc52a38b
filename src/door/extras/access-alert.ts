// The access alert: a MotionSensor that detects for a while after an enforcer event (an unauthorized user or vehicle) names the door.
import { ensureNamedService } from '../../homekit/door-name.js';
import { TimedMotion } from '../../homekit/timed-motion.js';
import type { ExtraDeps, ExtraSpec } from './extra.js';

/**
 * Home notifies on a motion sensor turning to detected (when the user turns its notifications on), so an enforcer
 * event reaches a phone instead of only the log. It detects for the configured time after the last event; another
 * event meanwhile extends it. It never touches the door. Reads answer from memory and never "No Response": its facts
 * come from webhooks, not from the syncs whose failure makes the door answer No Response, and an intruder at a door
 * whose syncs fail is still worth showing.
 */
export class AccessAlertSensor {
  private readonly motion: TimedMotion;

  constructor({ api, accessory, doorName, door, options }: ExtraDeps) {
    const service = ensureNamedService(api.hap, accessory, accessAlert.service(api.hap), doorName, accessAlert);
    // The catalog's accessAlertDuration is in seconds.
    this.motion = new TimedMotion(api.hap, service, options.accessAlertDuration * 1000, door.clock);
  }

  /** An enforcer event named the door: detect now, until the duration has passed since this event. */
  alertAccess(): void {
    this.motion.trigger();
  }

  dispose(): void {
    this.motion.dispose();
  }
}

export const accessAlert: ExtraSpec<boolean> = {
  service: (hap) => hap.Service.MotionSensor,
  subtype: 'access-alert',
  suffix: ' Access Alert',
  off: false,
  kept: true,
  create: (deps) => new AccessAlertSensor(deps),
};

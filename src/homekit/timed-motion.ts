// A MotionSensor that detects for a set time after each trigger, a new trigger starting the time again: the access
// alert and the person sensors. Reads answer from memory; a restart forgets a detection in progress. Listeners hear each
// change (a person's Matter occupancy sensor follows it).
import type { HAP, Service } from 'homebridge';

import type { Clock } from '../util/clock.js';

export class TimedMotion {
  private detected = false;
  private timer: unknown;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly hap: HAP,
    private readonly service: Service,
    private readonly durationMs: number,
    private readonly clock: Clock,
    /** false: a read answers No Response (a person's sensor while the account cannot be read). */
    private readonly available: () => boolean = () => true,
  ) {
    const { MotionDetected } = hap.Characteristic;
    // The cached value must not say "detected" for ever after a restart.
    service.updateCharacteristic(MotionDetected, false);
    service.getCharacteristic(MotionDetected).onGet(() => {
      if (!this.available()) throw new hap.HapStatusError(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
      return this.detected;
    });
  }

  get isDetecting(): boolean {
    return this.detected;
  }

  /** Calls `listener` whenever detection starts or ends; returns the way to stop. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Detects now, until the time has passed since this trigger. */
  trigger(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = this.clock.setTimeout(() => this.clear(), this.durationMs);
    if (!this.detected) {
      this.detected = true;
      this.service.updateCharacteristic(this.hap.Characteristic.MotionDetected, true);
      this.changed();
    }
  }

  dispose(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private clear(): void {
    this.timer = undefined;
    this.detected = false;
    this.service.updateCharacteristic(this.hap.Characteristic.MotionDetected, false);
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

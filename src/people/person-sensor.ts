// One person's accessory: a MotionSensor named for them that detects for a while after they open or close one of their doors.
import type { API, PlatformAccessory, Service } from 'homebridge';

import { configuredNameOf } from '../homekit/door-name.js';
import { TimedMotion } from '../homekit/timed-motion.js';
import { ACCESSORY_MANUFACTURER } from '../settings.js';
import type { Clock } from '../util/clock.js';

/** What a person's accessory keeps in Homebridge's cache: who it is for (the key of `user`) and the name it shows. */
export interface PersonContext {
  personUser: string;
  name: string;
}

export function isPersonContext(value: unknown): value is PersonContext {
  const c = value as Partial<PersonContext> | undefined;
  return typeof c?.personUser === 'string' && typeof c.name === 'string';
}

/** Keeps the service stable across restarts and renames. */
const SUBTYPE = 'person';
const MODEL = 'Person Sensor';

/**
 * Home notifies and runs automations on a motion sensor turning to detected. It detects for the set time after the last
 * move; another move meanwhile starts the time again. Reads answer from memory; a restart forgets a detection in progress.
 */
export class PersonSensor {
  private readonly service: Service;
  private readonly motion: TimedMotion;
  private available = true;
  private readonly availabilityListeners = new Set<() => void>();

  constructor(
    private readonly api: API,
    readonly accessory: PlatformAccessory<PersonContext>,
    durationMs: number,
    clock: Clock,
  ) {
    const { Characteristic: C, Service: S } = api.hap;
    const name = accessory.context.name;
    accessory
      .getService(S.AccessoryInformation)
      ?.setCharacteristic(C.Manufacturer, ACCESSORY_MANUFACTURER)
      .setCharacteristic(C.Model, MODEL)
      .setCharacteristic(C.SerialNumber, accessory.UUID.slice(0, 8));
    this.service = accessory.getServiceById(S.MotionSensor, SUBTYPE) ?? accessory.addService(S.MotionSensor, name, SUBTYPE);
    configuredNameOf(api.hap, this.service, name);
    this.motion = new TimedMotion(api.hap, this.service, durationMs, clock, () => this.available);
    // StatusActive tells a controller, unasked, what a read's No Response tells when asked.
    this.service.updateCharacteristic(C.StatusActive, true);
    this.service.getCharacteristic(C.StatusActive).onGet(() => this.available);
  }

  get name(): string {
    return this.accessory.context.name;
  }

  /** Whose sensor it is: the key of the entry's `user`. */
  get user(): string {
    return this.accessory.context.personUser;
  }

  get isDetecting(): boolean {
    return this.motion.isDetecting;
  }

  /** Whether the sensor knows what it says: false while the account cannot be read, as the doors answer No Response. */
  get isAvailable(): boolean {
    return this.available;
  }

  /**
   * The account could (not) be read: the sensor answers as the doors do, No Response and StatusActive false while it
   * cannot (it could not hear of a move then), and itself again once a sync reads it.
   */
  setAvailable(available: boolean): void {
    if (available === this.available) return;
    this.available = available;
    this.service.updateCharacteristic(this.api.hap.Characteristic.StatusActive, available);
    for (const listener of this.availabilityListeners) listener();
  }

  /**
   * The entry's name changed in the settings: the accessory and its sensor follow, but a sensor the user renamed in the
   * Home app keeps that name. Returns whether the cache should be written.
   */
  rename(name: string): boolean {
    const old = this.accessory.context.name;
    if (old === name) return false;
    const { Characteristic: C, Service: S } = this.api.hap;
    this.accessory.context.name = name;
    this.accessory.updateDisplayName(name);
    this.accessory.getService(S.AccessoryInformation)?.updateCharacteristic(C.Name, name);
    this.service.displayName = name;
    this.service.updateCharacteristic(C.Name, name);
    const configured = configuredNameOf(this.api.hap, this.service, name);
    if (configured.value === old) configured.updateValue(name);
    return true;
  }

  /** Calls `listener` whenever the sensor starts or stops detecting, or becomes (un)available; returns the way to stop. */
  onChange(listener: () => void): () => void {
    const stop = this.motion.onChange(listener);
    this.availabilityListeners.add(listener);
    return () => {
      stop();
      this.availabilityListeners.delete(listener);
    };
  }

  /** The person moved one of their doors: detect now, until the time has passed since this move. */
  trigger(): void {
    this.motion.trigger();
  }

  dispose(): void {
    this.motion.dispose();
  }
}

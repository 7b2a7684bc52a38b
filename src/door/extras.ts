// The optional services around a door: an automation switch, a left-open occupancy sensor, a contact sensor and an access alert.
import type { API, CharacteristicValue, PlatformAccessory, Service, WithUUID } from 'homebridge';

import type { Logging } from 'homebridge';

import type { DoorState } from '../client/types.js';
import { AUTOMATION_SWITCH_RESET_MS, DEFAULT_ACCESS_ALERT_DURATION_S } from '../settings.js';
import type { Clock } from '../util/clock.js';
import type { LeftOpenSignal } from './model/timings.js';
import type { AutomationSwitchMode } from './options.js';
import { AccessAlertSensor } from './access-alert.js';
import { ensureNamedService } from './door-name.js';

/** Answers a read from memory, or throws "No Response" while the door is unavailable. */
export type Answer = <T extends CharacteristicValue>(value: T) => T;

/** Subtypes tell a door's services of one kind apart and keep them stable across restarts. */
const SUBTYPE = { automationSwitch: 'automation-switch', leftOpen: 'left-open', contact: 'contact' } as const;

function drop(accessory: PlatformAccessory, type: WithUUID<typeof Service>, subtype: string): void {
  const service = accessory.getServiceById(type, subtype);
  if (service) {
    accessory.removeService(service);
  }
}

/**
 * A Switch for automations. HomeKit asks for confirmation before an automation runs a garage door; it runs a switch
 * without asking, which is the point and the risk. In "open" mode (open only) turning it on opens the door and the
 * switch turns itself off again after AUTOMATION_SWITCH_RESET_MS; turning it off sends nothing, so a scene that turns
 * everything off can never close a gate onto a car. In "open-close" mode on opens, off closes, and it follows the door.
 * It refuses (the write fails, one log line) while its door answers No Response; a read-only door refuses the command.
 */
export class AutomationSwitch {
  private readonly service: Service;
  /** Open only: on from a write until the switch turns itself off again. */
  private momentarilyOn = false;
  private timer: unknown;
  /** Set at shutdown: a command answered later must not start the turn-off timer. */
  private disposed = false;

  constructor(
    private readonly api: API,
    accessory: PlatformAccessory,
    doorName: string,
    private readonly mode: 'open' | 'open-close',
    private readonly view: Pick<DoorView, 'answer' | 'target' | 'command' | 'available' | 'log' | 'clock'> & { name: () => string },
  ) {
    const { Characteristic: C, Service: S } = api.hap;
    this.service = ensureNamedService(api.hap, accessory, S.Switch, doorName, SUBTYPE.automationSwitch);
    this.service
      .getCharacteristic(C.On)
      .onGet(() => view.answer(this.mode === 'open' ? this.momentarilyOn : view.target() === 'OPEN'))
      .onSet((on) => this.set(on === true));
  }

  static remove(api: API, accessory: PlatformAccessory): void {
    drop(accessory, api.hap.Service.Switch, SUBTYPE.automationSwitch);
  }

  /** Open and close: on while the door is open or opening. Open only: the switch keeps its own short on. */
  update(target: DoorState): void {
    if (this.mode === 'open-close') {
      this.service.updateCharacteristic(this.api.hap.Characteristic.On, target === 'OPEN');
    }
  }

  dispose(): void {
    this.disposed = true;
    this.view.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async set(on: boolean): Promise<void> {
    if (this.mode === 'open' && !on) {
      return; // Open only: off never closes the door.
    }
    const wanted: DoorState = on ? 'OPEN' : 'CLOSED';
    if (!this.view.available()) {
      const { HapStatusError, HAPStatus } = this.api.hap;
      this.view.log.warn(`${this.view.name()} answers No Response, so its switch did not ${on ? 'open' : 'close'} it.`);
      this.turnOffSoon();
      throw new HapStatusError(HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    }
    try {
      await this.view.command(wanted);
    } finally {
      if (this.mode === 'open') {
        this.momentarilyOn = true;
        this.turnOffSoon();
      }
    }
  }

  /** Open only: back to off after a moment, whether the door opened or the write failed. */
  private turnOffSoon(): void {
    if (this.mode !== 'open' || this.disposed) return;
    this.view.clock.clearTimeout(this.timer);
    this.timer = this.view.clock.setTimeout(() => {
      this.timer = undefined;
      this.momentarilyOn = false;
      this.service.updateCharacteristic(this.api.hap.Characteristic.On, false);
    }, AUTOMATION_SWITCH_RESET_MS);
  }
}

/**
 * An OccupancySensor that is occupied while the door has stood open longer than its alert time, so Home can notify.
 * Home notifies on a change only; with a repeat set, the door model clears it for a moment at each repeat while the
 * door stays open, so Home notifies again.
 */
export class LeftOpenSensor {
  private readonly service: Service;
  private timer: unknown;

  constructor(
    private readonly api: API,
    accessory: PlatformAccessory,
    doorName: string,
    answer: Answer,
    /** What the sensor shows now and when that changes by itself (the alert time passing, a repeat). */
    private readonly signal: () => LeftOpenSignal,
    private readonly clock: Clock,
  ) {
    const { Characteristic: C, Service: S } = api.hap;
    this.service = ensureNamedService(api.hap, accessory, S.OccupancySensor, doorName, SUBTYPE.leftOpen);
    this.service.getCharacteristic(C.OccupancyDetected).onGet(() => answer(this.occupancy(this.signal().detected)));
  }

  static remove(api: API, accessory: PlatformAccessory): void {
    drop(accessory, api.hap.Service.OccupancySensor, SUBTYPE.leftOpen);
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

/** A ContactSensor: contact while the door is closed, for automations that trigger on open or close. */
export class DoorContactSensor {
  private readonly service: Service;

  constructor(
    private readonly api: API,
    accessory: PlatformAccessory,
    doorName: string,
    answer: Answer,
    private readonly reported: () => DoorState,
  ) {
    const { Characteristic: C, Service: S } = api.hap;
    this.service = ensureNamedService(api.hap, accessory, S.ContactSensor, doorName, SUBTYPE.contact);
    this.service.getCharacteristic(C.ContactSensorState).onGet(() => answer(this.state()));
  }

  static remove(api: API, accessory: PlatformAccessory): void {
    drop(accessory, api.hap.Service.ContactSensor, SUBTYPE.contact);
  }

  update(): void {
    this.service.updateCharacteristic(this.api.hap.Characteristic.ContactSensorState, this.state());
  }

  private state(): number {
    const { ContactSensorState } = this.api.hap.Characteristic;
    return this.reported() === 'CLOSED' ? ContactSensorState.CONTACT_DETECTED : ContactSensorState.CONTACT_NOT_DETECTED;
  }
}

/** What the extras need to know of their door. */
export interface DoorView {
  target: () => DoorState;
  reported: () => DoorState;
  /** What the left-open sensor shows now (open past the alert time, less a repeat's clear moment) and when that changes. */
  leftOpen: () => LeftOpenSignal;
  command: (wanted: DoorState) => Promise<void>;
  answer: Answer;
  /** False while the door answers No Response: the automation switch refuses then. */
  available: () => boolean;
  log: Logging;
  /** Sets the left-open sensor's and the automation switch's timers. */
  clock: Clock;
  /** The door's name now, for the log (it follows renames); the name at construction when absent. */
  name?: () => string;
}

export interface ExtrasOptions {
  automationSwitch: AutomationSwitchMode;
  leftOpenSensor: boolean;
  contactSensor: boolean;
  accessAlert: boolean;
  accessAlertDurationS: number;
}

/** Adds the extras a door's options ask for and removes the others, on the same accessory so its HomeKit identity stays. */
export class DoorExtras {
  private readonly automationSwitch: AutomationSwitch | undefined;
  private readonly leftOpen: LeftOpenSensor | undefined;
  private readonly contact: DoorContactSensor | undefined;
  private readonly accessAlert: AccessAlertSensor | undefined;
  /** Set when the door stops (shutdown, or it leaves HomeKit): a late answer or event must not start a timer again. */
  private disposed = false;

  constructor(
    api: API,
    accessory: PlatformAccessory,
    doorName: string,
    /** Undefined: keep whatever extras the accessory already has (the config could not be read). */
    wanted: ExtrasOptions | undefined,
    private readonly view: DoorView,
  ) {
    const { Service: S } = api.hap;
    const options = wanted ?? {
      // Kept in the safe mode: an unreadable config must not let "off" close the door.
      automationSwitch: accessory.getServiceById(S.Switch, SUBTYPE.automationSwitch) !== undefined ? ('open' as const) : ('off' as const),
      leftOpenSensor: accessory.getServiceById(S.OccupancySensor, SUBTYPE.leftOpen) !== undefined,
      contactSensor: accessory.getServiceById(S.ContactSensor, SUBTYPE.contact) !== undefined,
      accessAlert: AccessAlertSensor.present(api, accessory),
      accessAlertDurationS: DEFAULT_ACCESS_ALERT_DURATION_S,
    };
    if (options.automationSwitch !== 'off') {
      this.automationSwitch = new AutomationSwitch(api, accessory, doorName, options.automationSwitch, {
        ...view,
        name: view.name ?? (() => doorName),
      });
    } else {
      AutomationSwitch.remove(api, accessory);
    }
    if (options.leftOpenSensor) {
      this.leftOpen = new LeftOpenSensor(api, accessory, doorName, view.answer, view.leftOpen, view.clock);
    } else {
      LeftOpenSensor.remove(api, accessory);
    }
    if (options.contactSensor) {
      this.contact = new DoorContactSensor(api, accessory, doorName, view.answer, view.reported);
    } else {
      DoorContactSensor.remove(api, accessory);
    }
    if (options.accessAlert) {
      this.accessAlert = new AccessAlertSensor(api, accessory, doorName, options.accessAlertDurationS * 1000, view.clock);
    } else {
      AccessAlertSensor.remove(api, accessory);
    }
  }

  /** An enforcer event named the door: its access alert detects. False when the door has none. */
  alertAccess(): boolean {
    if (!this.disposed) {
      this.accessAlert?.trigger();
    }
    return this.accessAlert !== undefined;
  }

  update(): void {
    if (this.disposed) {
      return;
    }
    this.automationSwitch?.update(this.view.target());
    this.leftOpen?.update();
    this.contact?.update();
  }

  dispose(): void {
    this.disposed = true;
    this.automationSwitch?.dispose();
    this.leftOpen?.dispose();
    this.accessAlert?.dispose();
  }
}

// The contact sensor: a ContactSensor in contact while the door is closed, for automations that trigger on open or close.
import type { API, Service } from 'homebridge';

import type { DoorState } from '../../client/types.js';
import { ensureNamedService } from '../../homekit/door-name.js';
import type { ExtraDeps, ExtraSpec } from './extra.js';

export class DoorContactSensor {
  private readonly service: Service;
  private readonly api: API;
  private readonly reported: () => DoorState;

  constructor({ api, accessory, doorName, door }: ExtraDeps) {
    this.api = api;
    this.reported = door.reported;
    this.service = ensureNamedService(api.hap, accessory, contactSensor.service(api.hap), doorName, contactSensor);
    this.service.getCharacteristic(api.hap.Characteristic.ContactSensorState).onGet(() => door.answer(this.state()));
  }

  update(): void {
    this.service.updateCharacteristic(this.api.hap.Characteristic.ContactSensorState, this.state());
  }

  private state(): number {
    const { ContactSensorState } = this.api.hap.Characteristic;
    return this.reported() === 'CLOSED' ? ContactSensorState.CONTACT_DETECTED : ContactSensorState.CONTACT_NOT_DETECTED;
  }
}

export const contactSensor: ExtraSpec<boolean> = {
  service: (hap) => hap.Service.ContactSensor,
  subtype: 'contact',
  suffix: ' Contact',
  off: false,
  kept: true,
  create: (deps) => new DoorContactSensor(deps),
};

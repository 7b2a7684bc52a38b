// A tiny HomeKit client for Homebridge's insecure mode (-I): reads and writes characteristics with the PIN, no pairing.
import { request } from 'undici';

import { HAP_CHARACTERISTIC, HAP_SERVICE, hapUuid } from '../harness/hap-types.js';

interface HapAccessories {
  accessories: { aid: number; services: { type: string; characteristics: { iid: number; type: string; value?: unknown }[] }[] }[];
}

/** HAP sends types in short form (41) or long form; compare in long form. */
function longType(type: string): string {
  return type.length <= 8 ? hapUuid(type.toUpperCase()) : type.toUpperCase();
}

export class InsecureHapClient {
  constructor(
    private readonly port: number,
    private readonly pin: string,
  ) {}

  private async call(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<unknown> {
    const response = await request(`http://127.0.0.1:${this.port}${path}`, {
      method,
      headers: { authorization: this.pin, 'content-type': 'application/hap+json' },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await response.body.text();
    return text ? (JSON.parse(text) as unknown) : undefined;
  }

  /** aid and iid of a door's characteristic, found by the door id HomeKit shows as serial number. */
  async findDoorCharacteristic(doorId: string, characteristic: string): Promise<{ aid: number; iid: number }> {
    const { accessories } = (await this.call('GET', '/accessories')) as HapAccessories;
    for (const accessory of accessories) {
      const info = accessory.services.find((s) => longType(s.type) === HAP_SERVICE.AccessoryInformation);
      const serial = info?.characteristics.find((c) => longType(c.type) === HAP_CHARACTERISTIC.SerialNumber)?.value;
      const door = accessory.services.find((s) => longType(s.type) === HAP_SERVICE.GarageDoorOpener);
      const found = door?.characteristics.find((c) => longType(c.type) === characteristic);
      if (serial === doorId && found) {
        return { aid: accessory.aid, iid: found.iid };
      }
    }
    throw new Error(`no door ${doorId} on the bridge`);
  }

  /** aid and iid of a door's characteristic on another of its services (Eve's History), by their full UUIDs. */
  async findDoorServiceCharacteristic(doorId: string, service: string, characteristic: string): Promise<{ aid: number; iid: number }> {
    const { accessories } = (await this.call('GET', '/accessories')) as HapAccessories;
    for (const accessory of accessories) {
      const info = accessory.services.find((s) => longType(s.type) === HAP_SERVICE.AccessoryInformation);
      const serial = info?.characteristics.find((c) => longType(c.type) === HAP_CHARACTERISTIC.SerialNumber)?.value;
      const found = accessory.services
        .find((s) => longType(s.type) === service)
        ?.characteristics.find((c) => longType(c.type) === characteristic);
      if (serial === doorId && found) {
        return { aid: accessory.aid, iid: found.iid };
      }
    }
    throw new Error(`no door ${doorId} with that service on the bridge`);
  }

  /** aid and iid of a person sensor's MotionDetected, found by the name its accessory shows. */
  async findPersonSensor(name: string): Promise<{ aid: number; iid: number }> {
    const { accessories } = (await this.call('GET', '/accessories')) as HapAccessories;
    for (const accessory of accessories) {
      const info = accessory.services.find((s) => longType(s.type) === HAP_SERVICE.AccessoryInformation);
      const shown = info?.characteristics.find((c) => longType(c.type) === HAP_CHARACTERISTIC.Name)?.value;
      const sensor = accessory.services.find((s) => longType(s.type) === HAP_SERVICE.MotionSensor);
      const found = sensor?.characteristics.find((c) => longType(c.type) === HAP_CHARACTERISTIC.MotionDetected);
      if (shown === name && found) {
        return { aid: accessory.aid, iid: found.iid };
      }
    }
    throw new Error(`no person sensor named ${name} on the bridge`);
  }

  async write(ref: { aid: number; iid: number }, value: number): Promise<void> {
    await this.call('PUT', '/characteristics', { characteristics: [{ ...ref, value }] });
  }

  /** Whether Home gets No Response for the characteristic (HAP's status -70402, or any error status). */
  async noResponse(ref: { aid: number; iid: number }): Promise<boolean> {
    const answer = (await this.call('GET', `/characteristics?id=${ref.aid}.${ref.iid}`)) as {
      characteristics: { status?: unknown }[];
    };
    const status = answer.characteristics[0]?.status;
    return typeof status === 'number' && status !== 0;
  }

  async read(ref: { aid: number; iid: number }): Promise<unknown> {
    const answer = (await this.call('GET', `/characteristics?id=${ref.aid}.${ref.iid}`)) as {
      characteristics: { value?: unknown }[];
    };
    return answer.characteristics[0]?.value;
  }
}

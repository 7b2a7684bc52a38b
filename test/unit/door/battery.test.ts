// Following a door's battery (src/door/battery.ts, DoorBatteryFollower) on its own, without a door: a cached Battery
// service is adopted, never doubled, and goes when the sensor does or the user hides it; a level reads in whole percent
// within 0–100. The door's side (what a sync does) is in garage-door.test.ts.
import type { API, PlatformAccessory } from 'homebridge';
import { describe, expect, it } from 'vitest';

import { DoorBatteryFollower } from '../../../src/door/battery.js';
import { frontGateAccessory } from '../../support/door-fixtures.js';
import { HomebridgeDouble } from '../../support/homebridge-double.js';

const api = new HomebridgeDouble() as unknown as API;
const { Characteristic: C, Service: S } = api.hap;
const LOW_PCT = 20;

/** An accessory holding a Battery service at `levelPct`: what the cache hands back after a start that showed one. */
function cachedWithBattery(levelPct: number): PlatformAccessory {
  const accessory = frontGateAccessory();
  new DoorBatteryFollower(api, accessory, LOW_PCT, false).follow({ hasBluetoothSensor: true, batteryLevel: levelPct });
  return accessory;
}

const batteries = (accessory: PlatformAccessory) => accessory.services.filter((service) => service.UUID === S.Battery.UUID);
const levelOf = (accessory: PlatformAccessory) => accessory.getService(S.Battery)?.getCharacteristic(C.BatteryLevel).value;

describe("following a door's battery", () => {
  it('adopts the cached Battery service at the next start instead of adding a second one', () => {
    const accessory = cachedWithBattery(64);
    const follower = new DoorBatteryFollower(api, accessory, LOW_PCT, false);
    expect(batteries(accessory)).toHaveLength(1);
    follower.follow({ hasBluetoothSensor: true, batteryLevel: 12 });
    expect(batteries(accessory)).toHaveLength(1);
    expect(accessory.getService(S.Battery)?.getCharacteristic(C.StatusLowBattery).value).toBe(C.StatusLowBattery.BATTERY_LEVEL_LOW);
  });

  it('keeps a cached level until a reading comes, and removes the cached service once a sync says there is no sensor', () => {
    const accessory = cachedWithBattery(64);
    const follower = new DoorBatteryFollower(api, accessory, LOW_PCT, false);
    follower.follow({ hasBluetoothSensor: true, batteryLevel: undefined });
    expect(levelOf(accessory)).toBe(64);
    follower.follow({ hasBluetoothSensor: false, batteryLevel: undefined });
    expect(batteries(accessory)).toEqual([]);
  });

  it('removes a cached service as soon as it starts hidden, and adds none while hidden', () => {
    const accessory = cachedWithBattery(64);
    const follower = new DoorBatteryFollower(api, accessory, LOW_PCT, true);
    expect(batteries(accessory)).toEqual([]);
    follower.follow({ hasBluetoothSensor: true, batteryLevel: 5 });
    expect(batteries(accessory)).toEqual([]);
  });

  it('shows a level in whole percent within 0–100, whatever the sensor sends', () => {
    const accessory = frontGateAccessory();
    const follower = new DoorBatteryFollower(api, accessory, LOW_PCT, false);
    const shown = [-3, 20.4, 20.6, 140].map((batteryLevel) => {
      follower.follow({ hasBluetoothSensor: true, batteryLevel });
      return levelOf(accessory);
    });
    expect(shown).toEqual([0, 20, 21, 100]);
  });
});

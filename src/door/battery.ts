// The Battery service of a door with a bluetooth sensor: level, low-battery warning, never chargeable, and when it is
// there at all.
import type { API, PlatformAccessory, Service } from 'homebridge';

import type { Door } from '../client/types.js';

export class DoorBattery {
  private readonly service: Service;

  constructor(
    private readonly api: API,
    accessory: PlatformAccessory,
    private readonly lowThresholdPct: number,
  ) {
    const { Service: S, Characteristic: C } = api.hap;
    this.service = accessory.getService(S.Battery) ?? accessory.addService(S.Battery);
    this.service.updateCharacteristic(C.ChargingState, C.ChargingState.NOT_CHARGEABLE);
  }

  /** Removes the service from an accessory whose door lost its sensor (or never had one). */
  static remove(api: API, accessory: PlatformAccessory): void {
    const service = accessory.getService(api.hap.Service.Battery);
    if (service) {
      accessory.removeService(service);
    }
  }

  /** A level the sensor reported; the caller skips doors that reported none, so no reading never reads as empty. */
  update(levelPct: number): void {
    const { Characteristic: C } = this.api.hap;
    const level = Math.min(100, Math.max(0, Math.round(levelPct)));
    this.service.updateCharacteristic(C.BatteryLevel, level);
    this.service.updateCharacteristic(
      C.StatusLowBattery,
      level <= this.lowThresholdPct ? C.StatusLowBattery.BATTERY_LEVEL_LOW : C.StatusLowBattery.BATTERY_LEVEL_NORMAL,
    );
  }
}

/**
 * A door's Battery service as the sync reports its sensor: made at the first level read, kept at the last level while
 * no new one comes, and removed when the door has no sensor or the user hides it (`hideBattery`).
 */
export class DoorBatteryFollower {
  private battery: DoorBattery | undefined;

  constructor(
    private readonly api: API,
    private readonly accessory: PlatformAccessory,
    private readonly lowThresholdPct: number,
    private readonly hidden: boolean,
  ) {
    // Hidden by the user: a cached Battery service goes too, so Home drops the level and any low-battery alarm at once.
    if (hidden) {
      DoorBattery.remove(api, accessory);
    }
  }

  /** What a sync said of the door's sensor: whether it has one, and its level when it reported one. */
  follow(door: Pick<Door, 'hasBluetoothSensor' | 'batteryLevel'>): void {
    if (door.hasBluetoothSensor && !this.hidden) {
      // No reading is no news: the last known level stays (a cached service keeps it too), and a sensor that never
      // reported one gets no Battery service yet, which HAP would show at 0 % and, below the threshold, as an alarm.
      if (door.batteryLevel === undefined) {
        return;
      }
      this.battery ??= new DoorBattery(this.api, this.accessory, this.lowThresholdPct);
      this.battery.update(door.batteryLevel);
    } else if (this.battery || this.accessory.getService(this.api.hap.Service.Battery)) {
      DoorBattery.remove(this.api, this.accessory);
      this.battery = undefined;
    }
  }
}

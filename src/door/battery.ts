// The Battery service of a door with a bluetooth sensor: level, low-battery warning, never chargeable.
import type { API, PlatformAccessory, Service } from 'homebridge';

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

// Serializes the simulated account to the contract's snake_case JSON shapes (sync devices, history events).
import { formatIsoWithZone, formatServiceDateTime, formatServiceDay } from './dates.js';
import type { HistoryShape, SimDevice, SimDoor, SimHistoryEvent } from './types.js';

/** A door as the sync shows it; `offsetMin`: the service's clock zone (minutes east of UTC) for `last_toggled`. */
export function doorToContract(door: SimDoor, offsetMin = 0): Record<string, unknown> {
  return {
    id: door.id,
    name: door.name,
    entity_number: door.entityNumber,
    active: door.active,
    state: door.state,
    last_toggled: formatServiceDateTime(door.lastToggled, offsetMin),
    user_relationship: door.userRelationship,
    image: door.image,
    light: door.light,
    sensor: door.sensor,
    bluetooth_sensor: door.bluetoothSensor,
    bluetooth_sensor_mac_address: door.bluetoothSensorMac,
    bluetooth_sensor_battery_level: door.batteryLevel,
    door_auto_close_enabled: door.autoCloseEnabled,
    door_auto_close_delay: door.autoCloseDelayS,
  };
}

export function deviceToContract(device: SimDevice, offsetMin = 0): Record<string, unknown> {
  return {
    id: device.id,
    active: device.active,
    registered: device.registered,
    number_of_entities_controlled: device.doors.length,
    owner_first_name: device.ownerFirstName,
    owner_last_name: device.ownerLastName,
    last_contact: formatServiceDateTime(device.lastContact),
    bluetooth_onboard: device.bluetoothOnboard,
    bluetooth_mac_address: device.bluetoothMac,
    time_before_door_open_alert: device.timeBeforeDoorOpenAlertS,
    blackbox_code: device.blackboxCode,
    software_version: device.softwareVersion,
    doors: device.doors.map((door) => doorToContract(door, offsetMin)),
  };
}

/** The sync response body: `{ devices: [...] }`, its dates on the service's clock (`offsetMin` minutes east of UTC). */
export function syncBody(devices: readonly SimDevice[], offsetMin = 0): { devices: Record<string, unknown>[] } {
  return { devices: devices.map((device) => deviceToContract(device, offsetMin)) };
}

/** An entry's `toggle_date_time` as the history's shape writes it (or the entry's own text). */
function historyDate(event: SimHistoryEvent, shape: HistoryShape): string {
  const offset = shape.zoneOffsetMinutes ?? 0;
  if (event.dateText !== undefined) return event.dateText;
  if (shape.dates === 'date-only') return formatServiceDay(event.at, offset);
  return shape.dates === 'iso' ? formatIsoWithZone(event.at, offset) : formatServiceDateTime(event.at, offset);
}

export function historyEventToContract(event: SimHistoryEvent, shape: HistoryShape = {}): Record<string, unknown> {
  return {
    door_id: event.doorId,
    door_name: event.doorName,
    door_state: event.doorState,
    channel: event.channel,
    user: {
      id: event.user.id,
      first_name: event.user.firstName,
      last_name: event.user.lastName,
      email_address: event.user.emailAddress,
    },
    was_success: event.wasSuccess,
    toggle_date_time: historyDate(event, shape),
  };
}

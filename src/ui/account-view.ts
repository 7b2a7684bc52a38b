// What the settings page shows of an account: controllers and doors, without anything secret or internal.
import type { Account } from '../client/types.js';
import type { AccountView, ControllerView, DoorView } from './page/views.js';

export function accountView(account: Account): AccountView {
  const controllers: ControllerView[] = [];
  const doors: DoorView[] = [];
  for (const device of account.devices) {
    controllers.push({ id: device.id, owner: device.ownerName, active: device.active, softwareVersion: device.softwareVersion });
    for (const door of device.doors) {
      doors.push({
        id: door.id,
        name: door.name,
        controllerId: device.id,
        state: door.state,
        active: door.active && device.active,
        owned: door.relationship === undefined ? undefined : door.relationship.toLowerCase() === 'owner',
        relationship: door.relationship,
        sensor: door.hasBluetoothSensor,
        batteryPct: door.hasBluetoothSensor ? door.batteryLevel : undefined,
      });
    }
  }
  return { controllers, doors, unreadable: account.unreadable };
}

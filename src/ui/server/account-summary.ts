// What the settings page shows of an account: controllers and doors, without anything secret or internal, names without direction marks.
import type { Account } from '../../client/types.js';
import { withoutDirectionMarks } from '../../util/log-text.js';
import type { AccountSummary, ControllerSummary, DoorSummary } from '../shared/messages.js';

/** A name or word of the service, as the page shows it; ids stay exact (the settings write them back), the page isolates them. */
const shown = <T extends string | undefined>(text: T): T => (text === undefined ? text : (withoutDirectionMarks(text) as T));

export function accountSummary(account: Account): AccountSummary {
  const controllers: ControllerSummary[] = [];
  const doors: DoorSummary[] = [];
  for (const device of account.devices) {
    controllers.push({
      id: device.id,
      owner: shown(device.ownerName),
      active: device.active,
      softwareVersion: shown(device.softwareVersion),
    });
    for (const door of device.doors) {
      const relationship = shown(door.relationship);
      doors.push({
        id: door.id,
        name: shown(door.name),
        controllerId: device.id,
        state: door.state,
        active: door.active && device.active,
        owned: relationship === undefined ? undefined : relationship.toLowerCase() === 'owner',
        relationship,
        sensor: door.hasBluetoothSensor,
        batteryPct: door.hasBluetoothSensor ? door.batteryLevel : undefined,
      });
    }
  }
  return { controllers, doors, unreadable: account.unreadable };
}

// What a door the account lists, and Home does not show yet, caches from the start: its ids, name and reported state.
import { fallbackDoorName } from '../client/fallback-name.js';
import type { Device, Door } from '../client/types.js';
import type { DoorContext } from '../door/model/context.js';
import { shownName } from '../door/model/naming.js';
import { homeKitName } from '../util/homekit-name.js';

/** The cached context of a door first seen; `settingsName` is the Name in Home the plugin settings give it, if any. */
export function newDoorContext(
  door: Pick<Door, 'id' | 'name' | 'state'>,
  device: Pick<Device, 'id'>,
  settingsName: string | undefined,
): DoorContext {
  const accountName = homeKitName(door.name, fallbackDoorName(door.id));
  // A new door comes with the name it shows from the start: a Name in Home from the settings, else the account's.
  // A door first seen with a state the plugin cannot read has none yet: CLOSED stands for nothing, and Home shows it
  // unknown (model/door.ts, stateKnown) until the service reports one.
  const context: DoorContext = {
    doorId: door.id,
    deviceId: device.id,
    name: accountName,
    accountName,
    state: door.state ?? 'CLOSED',
    ...(door.state === null ? { stateUnknown: true as const } : {}),
  };
  context.name = shownName(context, settingsName).name;
  return context;
}

// What a user notices of a protective setting, asked of a rig's paired controller: whether Home can open a door (and the
// service got a toggle), and which doors Home shows.
import { expect } from 'vitest';

import { HAP_STATUS, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import type { HomebridgeRig } from './homebridge-rig.js';

/** Toggles the service got for the door so far. */
const toggled = (rig: HomebridgeRig, doorId: string): number =>
  rig.sim.requests.filter((r) => r.path.endsWith('/endpoint/toggle') && r.body.includes(doorId)).length;

/** The serial numbers (the door ids) of every accessory Home shows, sorted. */
export const serials = async (rig: HomebridgeRig): Promise<unknown[]> =>
  (await rig.controller.accessories())
    .flatMap((a) => a.services.flatMap((s) => s.characteristics.filter((c) => c.type.startsWith('00000030')).map((c) => c.value)))
    .sort();

/** Whether Home can open the door; a refusal must also leave the service without a toggle. An opened door is closed again, silently. */
export async function opens(rig: HomebridgeRig, doorId: string): Promise<boolean> {
  const before = toggled(rig, doorId);
  const status = await rig.controller.writeResult(
    await rig.controller.findCharacteristic(doorId, 'GarageDoorOpener', 'TargetDoorState'),
    TARGET_DOOR_STATE.OPEN,
  );
  const sent = toggled(rig, doorId) > before;
  expect({ status, sent }).toEqual(
    sent ? { status: HAP_STATUS.SUCCESS, sent: true } : { status: HAP_STATUS.INSUFFICIENT_PRIVILEGES, sent: false },
  );
  if (sent) rig.sim.setDoorState(doorId, 'CLOSED', { silent: true });
  return sent;
}

// Waits until the bridge shows a given number of doors, then finds the tracked doors' characteristics in that one attribute database.
import { HAP_CHARACTERISTIC, HAP_SERVICE } from '../harness/hap-types.js';
import type { CharRef, HapAccessory, HomeKitController } from '../harness/homekit-controller.js';
import { sleep } from './sleep.js';

/** Pause between two reads of the attribute database: with 149 doors each read is a sizeable answer to build. */
const DATABASE_POLL_MS = 500;

export interface DoorRefs {
  id: string;
  /** The door's CurrentDoorState. */
  current: CharRef;
  /** The door's TargetDoorState (what Home writes to open or close it). */
  target: CharRef;
}

function serialOf(accessory: HapAccessory): unknown {
  const info = accessory.services.find((s) => s.type === HAP_SERVICE.AccessoryInformation);
  return info?.characteristics.find((c) => c.type === HAP_CHARACTERISTIC.SerialNumber)?.value;
}

function refsOf(accessory: HapAccessory, id: string): DoorRefs | undefined {
  const service = accessory.services.find((s) => s.type === HAP_SERVICE.GarageDoorOpener);
  const iid = (type: string): number | undefined => service?.characteristics.find((c) => c.type === type)?.iid;
  const current = iid(HAP_CHARACTERISTIC.CurrentDoorState);
  const target = iid(HAP_CHARACTERISTIC.TargetDoorState);
  return current === undefined || target === undefined ? undefined : { id, current: { aid: accessory.aid, iid: current }, target: { aid: accessory.aid, iid: target } };
}

/** Resolves once `doorCount` garage doors are in HomeKit and every one of `trackIds` among them (serial number = door id). */
export async function waitForDoors(controller: HomeKitController, doorCount: number, trackIds: readonly string[], timeoutMs: number): Promise<DoorRefs[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const accessories = await controller.accessories();
    const doors = accessories.filter((a) => a.services.some((s) => s.type === HAP_SERVICE.GarageDoorOpener));
    const found = trackIds.map((id) => {
      const accessory = doors.find((a) => serialOf(a) === id);
      return accessory && refsOf(accessory, id);
    });
    if (doors.length >= doorCount && found.every((refs): refs is DoorRefs => refs !== undefined)) {
      return found;
    }
    if (Date.now() >= deadline) {
      throw new Error(`HomeKit shows ${doors.length} of ${doorCount} doors after ${timeoutMs} ms (tracked found: ${found.filter(Boolean).length}/${trackIds.length})`);
    }
    await sleep(DATABASE_POLL_MS);
  }
}

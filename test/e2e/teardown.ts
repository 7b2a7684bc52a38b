// Stops whatever an e2e file managed to start, in order: HomeKit controllers, then Homebridge and its storage, then the simulator.
import { removeStorageDir } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';

/** Each part may be missing: a beforeAll that failed half-way leaves the rest unset (the file's `let`s are then undefined). */
export interface Started {
  controllers?: (HomeKitController | undefined)[];
  hb?: HomebridgeProcess;
  sim?: AccessControlSimulator;
}

export async function tearDown({ controllers = [], hb, sim }: Started): Promise<void> {
  await Promise.all(controllers.filter((controller) => controller !== undefined).map((controller) => controller.close()));
  if (hb) {
    await hb.stop();
    await removeStorageDir(hb.storageDir);
  }
  await sim?.stop();
}

// A Homebridge 2.4 whose platform entry runs on a child bridge with Matter on (`_bridge.matter.port`), the way the README tells
// users to turn Matter on for the plugin; and the teardown of a Matter test file.
import {
  freePort,
  randomBridgeUsername,
  removeStorageDir,
  startHomebridge,
  waitForChildBridge,
} from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { waitForCommissioningInfo } from '../../dev/harness/matter-controller.js';
import type { CommissioningInfo, MatterController } from '../../dev/harness/matter-controller.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';

/** The `_bridge` block of a platform entry with Matter on: its HAP port and username, and the Matter port. */
export interface MatterChildBridge {
  username: string;
  port: number;
  matter: { port: number };
}

/** A new child bridge identity with free HAP and Matter ports (UDP 5540 is Matter's default; any free port works). */
export async function matterChildBridge(): Promise<MatterChildBridge> {
  return { username: randomBridgeUsername(), port: await freePort(), matter: { port: await freePort() } };
}

export interface RunningMatterBridge {
  hb: HomebridgeProcess;
  /** What Homebridge wrote for the UI once the child bridge's Matter server ran. */
  commissioning: CommissioningInfo;
}

/**
 * Starts Homebridge with `entry` (which carries `_bridge`) and waits until its child bridge runs and its Matter server wrote
 * the commissioning info. Pass the storage dir of a previous start to restart with the same identity and fabrics.
 */
export async function startMatterBridge(
  entry: Record<string, unknown> & { _bridge: MatterChildBridge },
  opts: { storageDir?: string; pluginDir?: string } = {},
): Promise<RunningMatterBridge> {
  const hb = await startHomebridge({ platforms: [entry], ...opts });
  try {
    await waitForChildBridge(hb, entry);
    const commissioning = await waitForCommissioningInfo(hb.storageDir, entry._bridge.username);
    return { hb, commissioning };
  } catch (err) {
    await hb.stop();
    throw err;
  }
}

/** Each part may be missing: a beforeAll that failed half-way leaves the rest unset. */
export async function tearDownMatter(parts: {
  controller?: MatterController;
  hb?: HomebridgeProcess;
  sim?: AccessControlSimulator;
}): Promise<void> {
  await parts.controller?.close();
  if (parts.hb) {
    await parts.hb.stop();
    await removeStorageDir(parts.hb.storageDir);
  }
  await parts.sim?.stop();
}

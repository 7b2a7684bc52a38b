// Sets up one measured system: the service simulator, a real Homebridge running the plugin, and a paired HomeKit controller.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { freePort, removeStorageDir, startHomebridge } from '../dev/homebridge-process.js';
import type { HomebridgeProcess } from '../dev/homebridge-process.js';
import { pairController } from '../dev/homekit-controller.js';
import type { CharRef, HomeKitController } from '../dev/homekit-controller.js';
import { PLATFORM_NAME } from '../settings.js';
import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID } from '../simulator/server.js';
import { Cleanup } from './cleanup.js';

/** The simulator's only valid access token. */
const ACCESS_TOKEN = 'bench-access-token-5e1f';
/** The webhook key the simulator sends and the listener expects: 96 hexadecimal characters. */
const WEBHOOK_API_KEY = 'be4c40'.repeat(16);
const WEBHOOK_PATH = '/hooks/access';
/** Loopback only: nothing of the bench is reachable from outside the machine. */
const LOOPBACK = '127.0.0.1';
/** Longest wait for the listener's start line and for the doors to appear in HomeKit. */
const READY_WAIT_MS = 30_000;

/** The sample account's three doors, in the order the bench cycles through them. */
export const BENCH_DOOR_IDS = [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID] as const;

export interface BenchDoor {
  id: string;
  name: string;
  /** The door's CurrentDoorState in the controller's attribute database. */
  current: CharRef;
}

export interface RigOptions {
  /** Seconds between polls (config `pollInterval`). */
  pollIntervalS: number;
  /** Turn the webhook listener on (config `webhook` block) and point the simulator's webhooks at it. */
  webhook: boolean;
}

export interface Rig {
  sim: AccessControlSimulator;
  hb: HomebridgeProcess;
  controller: HomeKitController;
  doors: BenchDoor[];
  /** `http://127.0.0.1:<port>/hooks/access` when the listener is on. */
  webhookUrl: string | undefined;
  webhookApiKey: string;
  /** Stops everything this rig started and deletes its temp dirs; idempotent. */
  close(): Promise<void>;
}

/** Builds the rig; whatever was started is also registered with `cleanup`, so an error midway leaves nothing behind. */
export async function startRig(cleanup: Cleanup, options: RigOptions): Promise<Rig> {
  const own = new Cleanup();
  const close = cleanup.add('rig', async () => {
    const failures = await own.runAll();
    if (failures.length > 0) {
      throw new Error(failures.join('; '));
    }
  });
  try {
    const sim = new AccessControlSimulator({ accessToken: ACCESS_TOKEN, host: LOOPBACK });
    await sim.start();
    own.add('simulator', () => sim.stop());

    let webhookUrl: string | undefined;
    const platform: Record<string, unknown> = {
      platform: PLATFORM_NAME,
      name: 'Access Control',
      accessToken: ACCESS_TOKEN,
      baseUrl: sim.baseUrl,
      pollInterval: options.pollIntervalS,
    };
    if (options.webhook) {
      const port = await freePort();
      webhookUrl = `http://${LOOPBACK}:${port}${WEBHOOK_PATH}`;
      platform.webhook = { port, host: LOOPBACK, apiKey: WEBHOOK_API_KEY, path: WEBHOOK_PATH };
      sim.setWebhook({ url: webhookUrl, apiKey: WEBHOOK_API_KEY });
    }

    // Made here, not by startHomebridge, so it is removed even when Homebridge fails to boot.
    const storageDir = await mkdtemp(path.join(tmpdir(), 'hb-bench-storage-'));
    own.add('storage dir', () => removeStorageDir(storageDir));
    // No -D: a user's Homebridge logs at info level, and debug lines per webhook would be extra work.
    const hb = await startHomebridge({ platforms: [platform], storageDir, debug: false, bridgeName: 'Bench Bridge' });
    own.add('homebridge', () => hb.stop());
    // Either line comes within moments of boot; waiting for the doors would only time out on a bad setup.
    const started = await hb.waitForLog(options.webhook ? /Webhook listener on|listener could not start|configuration is not valid/ : /Syncing the account|configuration is not valid/, READY_WAIT_MS);
    if (!/Webhook listener on|Syncing the account/.test(started)) {
      throw new Error(`the plugin did not start as configured: ${started}`);
    }

    const controller = await pairController(hb);
    own.add('controller', () => controller.close());
    const doors: BenchDoor[] = [];
    for (const id of BENCH_DOOR_IDS) {
      await controller.waitForAccessory(id, READY_WAIT_MS);
      doors.push({ id, name: sim.getDoor(id)?.name ?? id, current: await controller.findCharacteristic(id, 'GarageDoorOpener', 'CurrentDoorState') });
    }
    return { sim, hb, controller, doors, webhookUrl, webhookApiKey: WEBHOOK_API_KEY, close };
  } catch (error) {
    await close();
    throw error;
  }
}

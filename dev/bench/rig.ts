// Sets up one measured system: the service simulator, a real Homebridge running the plugin, and a paired HomeKit controller.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { freePort, removeStorageDir, startHomebridge } from '../harness/homebridge-process.js';
import type { HomebridgeProcess } from '../harness/homebridge-process.js';
import { pairController } from '../harness/homekit-controller.js';
import type { CharRef, HomeKitController } from '../harness/homekit-controller.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID } from '../simulator/server.js';
import type { SimDevice } from '../simulator/server.js';
import { Cleanup } from './cleanup.js';
import { memoryProbeEnv } from './gc-memory.js';
import { waitForDoors } from './rig-doors.js';

/** The simulator's only valid access token. */
const ACCESS_TOKEN = 'bench-access-token-5e1f';
/** The webhook key the simulator sends and the listener expects: 96 hexadecimal characters. */
const WEBHOOK_API_KEY = 'be4c40'.repeat(16);
const WEBHOOK_PATH = '/hooks/access';
/** Loopback only: nothing of the bench is reachable from outside the machine. */
const LOOPBACK = '127.0.0.1';
/** Longest wait for the listener's start line. */
const READY_WAIT_MS = 30_000;
/** Longest wait for every door to appear in HomeKit: 149 doors are registered one by one at the first sync. */
const DOORS_WAIT_MS = 90_000;

/** The sample account's three doors, in the order the bench cycles through them. */
export const BENCH_DOOR_IDS = [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID] as const;

export interface BenchDoor {
  id: string;
  name: string;
  /** The door's CurrentDoorState in the controller's attribute database. */
  current: CharRef;
  /** The door's TargetDoorState (what Home writes to open or close it). */
  target: CharRef;
}

export interface RigOptions {
  /** Seconds between polls (config `pollInterval`); undefined leaves it out of the config (the plugin's default). */
  pollIntervalS: number | undefined;
  /** Turn the webhook listener on (config `webhook` block) and point the simulator's webhooks at it. */
  webhook: boolean;
  /** The account; default the sample account (3 doors on 2 devices). */
  devices?: SimDevice[];
  /** Doors whose characteristics the rig looks up; default BENCH_DOOR_IDS (give [] or others with `devices`). */
  trackDoorIds?: readonly string[];
  /** Shown as the bridge's name. */
  bridgeName?: string;
  /** Preload the memory probe (gc-memory.ts), so `readGcMemory` can ask for memory after a full GC. */
  memoryProbe?: boolean;
}

export interface Rig {
  sim: AccessControlSimulator;
  /** The simulator's port: tells its requests apart in the SimRequestClock. */
  simPort: number;
  hb: HomebridgeProcess;
  controller: HomeKitController;
  /** The tracked doors. */
  doors: BenchDoor[];
  /** Every door the account has (all in HomeKit once the rig is up). */
  doorCount: number;
  /** From Homebridge's ready line to every door in HomeKit, as the controller saw it. */
  doorsReadyMs: number;
  /** Started with the memory probe: SIGUSR2 makes it collect garbage and print its memory (it would kill any other). */
  memoryProbe: boolean;
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
    const sim = new AccessControlSimulator({ accessToken: ACCESS_TOKEN, host: LOOPBACK, ...(options.devices ? { devices: options.devices } : {}) });
    await sim.start();
    own.add('simulator', () => sim.stop());

    let webhookUrl: string | undefined;
    const platform: Record<string, unknown> = {
      platform: PLATFORM_NAME,
      name: 'Access Control',
      accessToken: ACCESS_TOKEN,
      baseUrl: sim.baseUrl,
      ...(options.pollIntervalS === undefined ? {} : { pollInterval: options.pollIntervalS }),
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
    const hb = await startHomebridge({
      platforms: [platform],
      storageDir,
      debug: false,
      bridgeName: options.bridgeName ?? 'Bench Bridge',
      ...(options.memoryProbe ? { env: memoryProbeEnv() } : {}),
    });
    own.add('homebridge', () => hb.stop());
    const readyAt = performance.now();
    // Either line comes within moments of boot; waiting for the doors would only time out on a bad setup.
    const started = await hb.waitForLog(options.webhook ? /Webhook listener on|listener could not start|configuration is not valid/ : /Syncing the account|configuration is not valid/, READY_WAIT_MS);
    if (!/Webhook listener on|Syncing the account/.test(started)) {
      throw new Error(`the plugin did not start as configured: ${started}`);
    }

    const controller = await pairController(hb);
    own.add('controller', () => controller.close());
    const doorCount = sim.devices.reduce((sum, device) => sum + device.doors.length, 0);
    const refs = await waitForDoors(controller, doorCount, options.trackDoorIds ?? BENCH_DOOR_IDS, DOORS_WAIT_MS);
    const doorsReadyMs = performance.now() - readyAt;
    const doors = refs.map((r): BenchDoor => ({ ...r, name: sim.getDoor(r.id)?.name ?? r.id }));
    const simPort = Number(new URL(sim.baseUrl).port);
    const memoryProbe = options.memoryProbe ?? false;
    return { sim, simPort, hb, controller, doors, doorCount, doorsReadyMs, memoryProbe, webhookUrl, webhookApiKey: WEBHOOK_API_KEY, close };
  } catch (error) {
    await close();
    throw error;
  }
}

// The measured systems: the service simulator, a real Homebridge running the plugin and a paired HomeKit controller, one or several side by side.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';

import { optionSpec } from '../../src/option-catalog.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { HAP_CHARACTERISTIC, HAP_SERVICE } from '../harness/hap-types.js';
import { freePort, removeStorageDir, startHomebridge } from '../harness/homebridge-process.js';
import type { HomebridgeProcess } from '../harness/homebridge-process.js';
import { pairController } from '../harness/homekit-controller.js';
import type { CharRef, HapAccessory, HomeKitController } from '../harness/homekit-controller.js';
import {
  AccessControlSimulator,
  makeDevice,
  makeDoor,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_SHARED_GATE_ID,
} from '../simulator/server.js';
import type { SimDevice } from '../simulator/server.js';
import { memoryProbeEnv, opposite, sleep } from './probes.js';

// --- A stack of clean-up steps (processes, servers, temp dirs) run newest first, each once, even when an earlier one fails.

export type CleanupStep = () => unknown;

interface Entry {
  what: string;
  run: CleanupStep;
}

export class Cleanup {
  private readonly entries: Entry[] = [];
  private readonly failures: string[] = [];

  /** Registers a step; the returned function runs it now (once) and drops it from the stack. */
  add(what: string, run: CleanupStep): () => Promise<void> {
    const entry: Entry = { what, run };
    this.entries.push(entry);
    return async () => {
      const index = this.entries.indexOf(entry);
      if (index >= 0) {
        this.entries.splice(index, 1);
        await this.runOne(entry);
      }
    };
  }

  /** Runs every remaining step, newest first; returns what failed ("what: why"), never throws. */
  async runAll(): Promise<string[]> {
    for (let entry = this.entries.pop(); entry !== undefined; entry = this.entries.pop()) {
      await this.runOne(entry);
    }
    return [...this.failures];
  }

  private async runOne(entry: Entry): Promise<void> {
    try {
      await entry.run();
    } catch (error) {
      this.failures.push(`${entry.what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

// --- The accounts the scale measurements run against: N plain doors spread over controllers of at most 15 doors each.

/** Doors per controller (device), like a large site with many multi-door controllers: 149 doors → 10 devices. */
export const DOORS_PER_DEVICE = 15;

/**
 * `doorCount` doors with makeDoor's defaults (closed, owned, wired sensor: no battery service, no extras), named
 * `Door 001`…, filling devices of DOORS_PER_DEVICE in order. 0 doors gives an account without devices.
 */
export function scaleAccount(doorCount: number): SimDevice[] {
  const devices: SimDevice[] = [];
  for (let first = 0; first < doorCount; first += DOORS_PER_DEVICE) {
    const count = Math.min(DOORS_PER_DEVICE, doorCount - first);
    const doors = Array.from({ length: count }, (_, k) =>
      makeDoor({ name: `Door ${String(first + k + 1).padStart(3, '0')}`, entityNumber: k + 1 }),
    );
    devices.push(makeDevice({ blackboxCode: `BB-${String(devices.length + 1).padStart(4, '0')}`, doors }));
  }
  return devices;
}

/** The account's last door: the plugin reconciles it after all the others, so its event waits for the whole sync. */
export function lastDoorId(devices: readonly SimDevice[]): string | undefined {
  return devices.at(-1)?.doors.at(-1)?.id;
}

// --- Waits until the bridge shows a given number of doors, then finds the tracked doors' characteristics in that one attribute database.

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
  return current === undefined || target === undefined
    ? undefined
    : { id, current: { aid: accessory.aid, iid: current }, target: { aid: accessory.aid, iid: target } };
}

/** Resolves once `doorCount` garage doors are in HomeKit and every one of `trackIds` among them (serial number = door id). */
export async function waitForDoors(
  controller: HomeKitController,
  doorCount: number,
  trackIds: readonly string[],
  timeoutMs: number,
): Promise<DoorRefs[]> {
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
      throw new Error(
        `HomeKit shows ${doors.length} of ${doorCount} doors after ${timeoutMs} ms (tracked found: ${found.filter(Boolean).length}/${trackIds.length})`,
      );
    }
    await sleep(DATABASE_POLL_MS);
  }
}

// --- Sets up one measured system: the service simulator, a real Homebridge running the plugin, and a paired HomeKit controller.

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
  /** Config `contactSensor: true`: every door gets its contact sensor (section 10). */
  contactSensor?: boolean;
  /** Config `people` and `personSensorDuration` (s): a person sensor per entry (section 10). */
  people?: { entries: readonly { name: string; user: string }[]; durationS: number };
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
    const sim = new AccessControlSimulator({
      accessToken: ACCESS_TOKEN,
      host: LOOPBACK,
      ...(options.devices ? { devices: options.devices } : {}),
    });
    await sim.start();
    own.add('simulator', () => sim.stop());

    let webhookUrl: string | undefined;
    const platform: Record<string, unknown> = {
      platform: PLATFORM_NAME,
      name: 'Access Control',
      accessToken: ACCESS_TOKEN,
      baseUrl: sim.baseUrl,
      ...(options.pollIntervalS === undefined ? {} : { pollInterval: options.pollIntervalS }),
      ...(options.contactSensor === true ? { contactSensor: true } : {}),
      ...(options.people ? { people: options.people.entries, personSensorDuration: options.people.durationS } : {}),
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
    const started = await hb.waitForLog(
      options.webhook
        ? /Webhook listener on|listener could not start|configuration is not valid/
        : /Syncing the account|configuration is not valid/,
      READY_WAIT_MS,
    );
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

// --- Starts, side by side, the Homebridges of the scale, memory and idle measurements: 0, 1, 10 and 149 doors, and a webhook one.

/** Account sizes whose sync is measured; 149 is the most one bridge holds. */
export const SCALE_DOOR_COUNTS = [1, 10, 149] as const;
/** Poll interval of the sized rigs: the shortest allowed, so a handful of polls fits in the bench. */
export const SCALE_POLL_INTERVAL_S = optionSpec('pollInterval').min;

export interface ScaleRig {
  doorCount: number;
  rig: Rig;
}

export interface ScaleRigs {
  /** The plugin with an account of no doors, polling only, at its default interval (no `pollInterval` in the config). */
  bare: Rig;
  /** One per SCALE_DOOR_COUNTS, polling only, every SCALE_POLL_INTERVAL_S, tracking the account's last door. */
  sized: ScaleRig[];
  /** The sample account (3 doors) with webhooks on and every interval at its default (no `pollInterval`, no `reconcileInterval`). */
  webhookDefaults: Rig;
}

/** Boots all five at once, each with the memory probe; waits for every boot to end (each registered with `cleanup`) before failing on any. */
export async function startScaleRigs(cleanup: Cleanup): Promise<ScaleRigs> {
  const probe = { memoryProbe: true };
  const bare = startRig(cleanup, {
    ...probe,
    pollIntervalS: undefined,
    webhook: false,
    devices: scaleAccount(0),
    trackDoorIds: [],
    bridgeName: 'Bench 0 Doors',
  });
  const webhookDefaults = startRig(cleanup, { ...probe, pollIntervalS: undefined, webhook: true, bridgeName: 'Bench Webhook Defaults' });
  const sized = SCALE_DOOR_COUNTS.map(async (doorCount): Promise<ScaleRig> => {
    const devices = scaleAccount(doorCount);
    const tracked = lastDoorId(devices);
    const rig = await startRig(cleanup, {
      ...probe,
      pollIntervalS: SCALE_POLL_INTERVAL_S,
      webhook: false,
      devices,
      trackDoorIds: tracked === undefined ? [] : [tracked],
      bridgeName: `Bench ${doorCount} Doors`,
    });
    return { doorCount, rig };
  });
  // A barrier first: every boot ends (and registers what it started) before a failure is thrown.
  await Promise.allSettled([bare, webhookDefaults, ...sized]);
  return { bare: await bare, sized: await Promise.all(sized), webhookDefaults: await webhookDefaults };
}

// --- Makes webhooks "arrive" on a rig the way they do for a user: a door moved at the keypad, posted by the simulator's own webhook sender.

const CHANNEL = 'Keypad';

export interface FirstWebhook {
  /** performance.now() just before the change (the simulator posts its webhook at once). */
  sentAtMs: number;
  /** The listener's answer, or undefined when the delivery failed. */
  status: number | undefined;
}

export async function sendFirstWebhook(rig: Rig): Promise<FirstWebhook> {
  const door = rig.doors[0];
  if (!door) {
    throw new Error('the rig tracks no door');
  }
  const sentAtMs = performance.now();
  rig.sim.setDoorState(door.id, opposite(rig.sim.getDoor(door.id)?.state ?? 'CLOSED'), { channel: CHANNEL });
  await rig.sim.flushWebhooks();
  return { sentAtMs, status: rig.sim.webhookDeliveries.at(-1)?.status };
}

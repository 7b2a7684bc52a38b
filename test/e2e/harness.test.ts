// Self-test of the e2e harness: boot, pair like an iPhone, restart with the same pairing, events/HAP errors via a fixture plugin, timely stop.
import { existsSync, readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HapStatusError, connectController, pairController } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, HAP_CHARACTERISTIC, HAP_SERVICE, HAP_STATUS, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import type { CharacteristicEvent, HomeKitController } from '../../dev/harness/homekit-controller.js';
import {
  HOMEBRIDGE_FORCE_EXIT_MS,
  PLUGIN_NAME,
  REPO_ROOT,
  STOP_BUDGET_MS,
  freePort,
  listenPorts,
  makeEmptyPluginDir,
  removeStorageDir,
  startHomebridge,
} from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { expectCleanStop } from './homebridge-rig.js';

/** The bridge accessory always has aid 1. */
const BRIDGE_AID = 1;
/** Holds homebridge-e2e-fixture, a one-door plugin that exercises events, write errors and No Response. */
const FIXTURE_PLUGIN_DIR = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'plugins');
const FIXTURE_SERIAL = 'FIXTURE-1';
/** The fixture door takes 300 ms to close; HAP coalesces events for about 250 ms. */
const FIXTURE_CLOSE_TIMEOUT_MS = 5_000;

/** The rejection of a promise that must fail. */
async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (err: unknown) => err,
  );
}

describe('e2e harness (bare bridge, no plugin)', () => {
  let hb: HomebridgeProcess | undefined;
  let controller: HomeKitController | undefined;
  let pluginDir: string | undefined;
  const timings: Record<string, number> = {};

  afterAll(async () => {
    await controller?.close();
    await hb?.stop();
    if (hb) await removeStorageDir(hb.storageDir);
    if (pluginDir) await rm(pluginDir, { recursive: true, force: true });
    console.log(`[e2e harness] Homebridge ${hb?.version ?? '?'} on Node ${process.version}: ${JSON.stringify(timings)}`);
  });

  it('boots Homebridge and pairs with the PIN', async () => {
    pluginDir = await makeEmptyPluginDir();
    hb = await startHomebridge({ platforms: [], pluginDir, watchStop: true });
    timings.bootMs = hb.bootMs;
    expect(hb.log()).toMatch(/No plugins found/);

    const t0 = Date.now();
    controller = await pairController(hb);
    timings.pairMs = Date.now() - t0;

    const nameRef = await controller.findCharacteristic(hb.displayName, 'AccessoryInformation', 'Name');
    expect(nameRef.aid).toBe(BRIDGE_AID);
    expect(await controller.read(nameRef)).toBe(hb.displayName);
    expect(await controller.read(await controller.findCharacteristic(hb.username, HAP_SERVICE.AccessoryInformation, '30'))).toBe(
      hb.username,
    );
  });

  it('surfaces HAP statuses: writing a read-only characteristic fails with -70404', async () => {
    if (!controller || !hb) throw new Error('previous test did not pair');
    const nameRef = await controller.findCharacteristic(BRIDGE_AID, 'AccessoryInformation', HAP_CHARACTERISTIC.Manufacturer);
    const error = await rejectionOf(controller.write(nameRef, 'x'));
    expect(error).toBeInstanceOf(HapStatusError);
    expect((error as HapStatusError).status).toBe(HAP_STATUS.READ_ONLY_CHARACTERISTIC);
  });

  it('reconnects with the same pairing after a restart on the same storage', async () => {
    if (!controller || !hb) throw new Error('previous test did not pair');
    const first = hb;
    const stopped = await first.stop();
    timings.stopMs = stopped.ms;
    expectCleanStop(stopped);

    hb = await startHomebridge({ platforms: [], pluginDir: first.pluginDir, storageDir: first.storageDir, watchStop: true });
    timings.rebootMs = hb.bootMs;
    expect([hb.username, hb.port, hb.pin]).toEqual([first.username, first.port, first.pin]);

    await controller.reconnect(hb);
    expect(await controller.read(BRIDGE_AID, (await controller.findCharacteristic(BRIDGE_AID, 'AccessoryInformation', 'Name')).iid)).toBe(
      hb.displayName,
    );

    // A second controller instance can reuse the stored pairing too.
    const other = await connectController(hb);
    expect((await other.accessories()).map((a) => a.aid)).toContain(BRIDGE_AID);
    await other.close();
  });

  it(`stops by itself after SIGTERM, before Homebridge's force-exit ${HOMEBRIDGE_FORCE_EXIT_MS} ms later (and well within the checker's ${STOP_BUDGET_MS} ms)`, async () => {
    if (!hb) throw new Error('no Homebridge');
    await controller?.close();
    controller = undefined;
    const result = await hb.stop();
    timings.stop2Ms = result.ms;
    expectCleanStop(result);
    expect(result.ms).toBeLessThan(STOP_BUDGET_MS);
    expect(hb.exited).toBeDefined();
    expect(hb.log()).toMatch(/Got SIGTERM, shutting down Homebridge/);
    expect(hb.log()).not.toMatch(/EADDRINUSE/);
  });
});

describe('e2e harness (fixture plugin: events, write errors, No Response)', () => {
  it('subscribes, writes, waits for the state, and surfaces -70402', async () => {
    const hb = await startHomebridge({ platforms: [{ platform: 'E2EFixture', name: 'Fixture' }], pluginDir: FIXTURE_PLUGIN_DIR });
    let controller: HomeKitController | undefined;
    try {
      controller = await pairController(hb);
      await controller.waitForAccessory(FIXTURE_SERIAL);
      const current = await controller.findCharacteristic(FIXTURE_SERIAL, 'GarageDoorOpener', 'CurrentDoorState');
      const target = await controller.findCharacteristic('Fixture Door', HAP_SERVICE.GarageDoorOpener, '32');
      const obstruction = await controller.findCharacteristic(FIXTURE_SERIAL, '41', HAP_CHARACTERISTIC.ObstructionDetected);

      const events: CharacteristicEvent[] = [];
      await controller.subscribe([current], (event) => events.push(event));
      expect(await controller.read(current)).toBe(CURRENT_DOOR_STATE.OPEN);

      await controller.write(target, TARGET_DOOR_STATE.CLOSED);
      await controller.waitFor((value) => value === CURRENT_DOOR_STATE.CLOSED, current, FIXTURE_CLOSE_TIMEOUT_MS);
      await controller.waitFor(() => events.some((e) => e.value === CURRENT_DOOR_STATE.CLOSED), current, FIXTURE_CLOSE_TIMEOUT_MS);
      expect(events.map((e) => e.value)).toContain(CURRENT_DOOR_STATE.CLOSED);

      const writeError = await rejectionOf(controller.write(target, TARGET_DOOR_STATE.OPEN));
      expect((writeError as HapStatusError).status).toBe(HAP_STATUS.SERVICE_COMMUNICATION_FAILURE);
      expect(await controller.readResult(obstruction)).toEqual({ value: undefined, status: HAP_STATUS.SERVICE_COMMUNICATION_FAILURE });
      const readError = await rejectionOf(controller.read(obstruction.aid, obstruction.iid));
      expect((readError as HapStatusError).status).toBe(HAP_STATUS.SERVICE_COMMUNICATION_FAILURE);
    } finally {
      await controller?.close();
      await hb.stop();
      await removeStorageDir(hb.storageDir);
    }
  });
});

describe('e2e harness (ports)', () => {
  it('hands out ports below the ephemeral range, where no outgoing connection of the suites beside it takes one', async () => {
    const ephemeralStart = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const ports = [await freePort(), await freePort(), await freePort()];
    expect(new Set(ports).size).toBe(3);
    for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
  });

  it('never hands out a port a living test process holds, and takes over one whose process is gone', async () => {
    const range = listenPorts();
    if (range === undefined) throw new Error('this machine starts its ephemeral range too low for the test');
    const claims = await mkdtemp(path.join(tmpdir(), 'hb-port-claims-'));
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    try {
      const pid = String(holder.pid);
      for (let port = range.from; port < range.to; port += 1) await writeFile(path.join(claims, String(port)), pid);
      await expect(freePort(claims)).rejects.toThrow(/no free port no other test holds/);
      const gone = new Promise((resolve) => holder.once('exit', resolve));
      holder.kill('SIGKILL');
      await gone;
      const port = await freePort(claims);
      expect(await readFile(path.join(claims, String(port)), 'utf8')).toBe(String(process.pid));
    } finally {
      holder.kill('SIGKILL');
      await rm(claims, { recursive: true, force: true });
    }
  });
});

describe('e2e harness (early exit)', () => {
  it('rejects with the log when Homebridge dies before it is running (EADDRINUSE)', async () => {
    const port = await freePort();
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, resolve));
    const pluginDir = await makeEmptyPluginDir();
    const storageDir = path.join(pluginDir, 'storage');
    try {
      const error = await rejectionOf(startHomebridge({ platforms: [], pluginDir, storageDir, bridgePort: port }));
      expect(String(error)).toMatch(/EADDRINUSE/);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
      await rm(pluginDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!existsSync(path.join(REPO_ROOT, 'dist', 'index.js')))('e2e harness (plugin dir with the built plugin)', () => {
  it('loads homebridge-access-control through the symlinked plugin dir', async () => {
    const hb = await startHomebridge({ platforms: [] });
    try {
      expect(await hb.waitForLog(new RegExp(`Loaded plugin: ${PLUGIN_NAME}@`), 1_000)).toContain(PLUGIN_NAME);
    } finally {
      await hb.stop();
      await removeStorageDir(hb.storageDir);
    }
  });
});

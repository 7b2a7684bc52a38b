// Self-test of the Matter harness with a one-lock fixture plugin (test/matter/fixtures): Homebridge 2.4 runs it on a child bridge
// with Matter on, the controller commissions from the manual pairing code, reads, unlocks, gets a Matter error back, sees
// reports arrive, and reconnects after a restart without commissioning again.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  REPO_ROOT,
  freePort,
  randomBridgeUsername,
  removeStorageDir,
  startHomebridge,
  waitForChildBridge,
} from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { LOCK_STATE, MATTER_DEVICE_TYPE, MatterController, waitForCommissioningInfo } from '../../dev/harness/matter-controller.js';
import { requireNonLoopbackInterface } from './netns.js';

/** Holds homebridge-matter-fixture: one DoorLock, unlock accepted (and relocked 300 ms later), lock refused. */
const FIXTURE_PLUGIN_DIR = path.join(REPO_ROOT, 'test', 'matter', 'fixtures', 'plugins');
const FIXTURE_SERIAL = 'FIXTURE-LOCK-1';
const WAIT_MS = 10_000;

let hb: HomebridgeProcess | undefined;
let controller: MatterController | undefined;
let platform: Record<string, unknown>;
const timings: Record<string, number> = {};

async function start(storageDir?: string): Promise<HomebridgeProcess> {
  const started = await startHomebridge({
    platforms: [platform],
    pluginDir: FIXTURE_PLUGIN_DIR,
    ...(storageDir === undefined ? {} : { storageDir }),
  });
  await waitForChildBridge(started, platform);
  return started;
}

beforeAll(async () => {
  requireNonLoopbackInterface();
  platform = {
    platform: 'MatterFixture',
    name: 'Matter Fixture',
    _bridge: { username: randomBridgeUsername(), port: await freePort(), matter: { port: await freePort() } },
  };
});

afterAll(async () => {
  await controller?.close();
  await hb?.stop();
  if (hb) await removeStorageDir(hb.storageDir);
  console.log(`[matter harness] Homebridge ${hb?.version ?? '?'} on Node ${process.version}: ${JSON.stringify(timings)}`);
});

describe('Matter harness (fixture lock on a child bridge)', () => {
  it('commissions from the manual pairing code and lists the bridged lock', async () => {
    const t0 = Date.now();
    hb = await start();
    const bridge = platform._bridge as { username: string; matter: { port: number } };
    const info = await waitForCommissioningInfo(hb.storageDir, bridge.username);
    timings.bootMs = Date.now() - t0;
    expect(info.commissioned).toBe(false);

    const t1 = Date.now();
    controller = await MatterController.commission(info.manualPairingCode, bridge.matter.port);
    timings.commissionMs = Date.now() - t1;
    const lock = await controller.waitForDoor(FIXTURE_SERIAL, () => true, WAIT_MS);
    expect(lock).toMatchObject({
      name: 'Fixture Lock',
      reachable: true,
      deviceTypes: expect.arrayContaining([MATTER_DEVICE_TYPE.DoorLock]) as unknown,
      lockState: LOCK_STATE.Locked,
      contact: undefined,
    });
  });

  it('unlocks (the report arrives, then the fixture relocks) and surfaces a refused lock as a Matter status', async () => {
    if (controller === undefined) throw new Error('not commissioned');
    const { endpoint } = controller.door(FIXTURE_SERIAL);
    const from = controller.attributeReports().length;
    expect(await controller.unlockDoor(endpoint)).toEqual({ ok: true });
    await controller.waitForDoor(FIXTURE_SERIAL, (d) => d.lockState === LOCK_STATE.Unlocked, WAIT_MS);
    await controller.waitForDoor(FIXTURE_SERIAL, (d) => d.lockState === LOCK_STATE.Locked, WAIT_MS);
    const lockStates = controller
      .attributeReports()
      .slice(from)
      .filter((r) => r.endpoint === endpoint && r.attribute === 'lockState')
      .map((r) => r.value);
    expect(lockStates).toEqual([LOCK_STATE.Unlocked, LOCK_STATE.Locked]);

    const refused = await controller.lockDoor(endpoint);
    expect(refused).toMatchObject({ ok: false, statusName: 'InvalidInState' });
    expect(await controller.readLockState(endpoint)).toBe(LOCK_STATE.Locked);
  });

  it('reconnects after a Homebridge restart without commissioning again', async () => {
    if (controller === undefined || hb === undefined) throw new Error('not commissioned');
    const storageDir = hb.storageDir;
    await controller.disconnect();
    await hb.stop();
    const t0 = Date.now();
    hb = await start(storageDir);
    const bridge = platform._bridge as { username: string };
    expect((await waitForCommissioningInfo(hb.storageDir, bridge.username)).commissioned).toBe(true);
    await controller.reconnect();
    timings.restartAndReconnectMs = Date.now() - t0;
    expect(await controller.waitForDoor(FIXTURE_SERIAL, (d) => d.reachable, WAIT_MS)).toMatchObject({
      name: 'Fixture Lock',
      lockState: LOCK_STATE.Locked,
    });
  });
});

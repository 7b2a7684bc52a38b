// The demo's next run after anything (issue 53.7): a run cut short with doors open, a cache of another version or cut
// short, and a bridge port another program took meanwhile.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { bridgePortFor, portIsFree } from '../../dev/demo/bridge-port.js';
import { accountAsCached, doorsLeftOpen } from '../../dev/demo/cached-account.js';
import { IDENTITY_FILE } from '../../dev/harness/homebridge-process.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_OWNED_DEVICE_ID } from '../../dev/simulator/server.js';
import { closeServer } from '../support/loopback.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A demo storage holding `files` (path relative to it → text). */
async function storageWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'demo-restart-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

const CACHE = path.join('accessories', 'cachedAccessories');
/** A cached door as this version of the plugin writes it. */
const cachedDoor = (doorId: string, state: string, extra: Record<string, unknown> = {}) => ({
  UUID: `uuid-${doorId}`,
  displayName: doorId,
  context: { doorId, deviceId: SAMPLE_OWNED_DEVICE_ID, name: doorId, state, ...extra },
});

describe("the demo's account after a run (dev/demo/cached-account.ts)", () => {
  it('starts from the sample account, every door closed, on the first run', async () => {
    const devices = await accountAsCached(await storageWith({}));
    expect(devices.flatMap((device) => device.doors).length).toBeGreaterThan(0);
    expect(doorsLeftOpen(devices)).toEqual([]);
  });

  it('keeps open the doors a run cut short left open, as the plugin restores them, so the tour closes them first', async () => {
    const cache = [cachedDoor(SAMPLE_GARAGE_DOOR_ID, 'OPEN'), cachedDoor(SAMPLE_FRONT_GATE_ID, 'OPEN'), { context: { person: 'Ada' } }];
    const devices = await accountAsCached(await storageWith({ [CACHE]: JSON.stringify(cache) }));
    expect(doorsLeftOpen(devices).sort()).toEqual([SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID].sort());
  });

  it.each([
    [
      'a door of another version, without the fields the plugin checks',
      JSON.stringify([{ context: { doorId: SAMPLE_GARAGE_DOOR_ID, state: 'OPEN' } }]),
    ],
    ['a state the plugin does not restore', JSON.stringify([cachedDoor(SAMPLE_GARAGE_DOOR_ID, 'open')])],
    ['a file cut short', JSON.stringify([cachedDoor(SAMPLE_GARAGE_DOOR_ID, 'OPEN')]).slice(0, 40)],
    ['something that is no list', JSON.stringify({ [SAMPLE_GARAGE_DOOR_ID]: 'OPEN' })],
  ])('takes the sample states where the plugin restores none either: %s', async (_, text) => {
    expect(doorsLeftOpen(await accountAsCached(await storageWith({ [CACHE]: text })))).toEqual([]);
  });
});

describe("the demo's bridge port (dev/demo/bridge-port.ts)", () => {
  it('leaves the choice to the harness on the first run, and keeps the stored port while it is free', async () => {
    expect(await bridgePortFor(await storageWith({}))).toEqual({});
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, resolve));
    const port = (free.address() as { port: number }).port;
    await closeServer(free);
    expect(await bridgePortFor(await storageWith({ [IDENTITY_FILE]: JSON.stringify({ port }) }))).toEqual({ port });
  });

  it('moves to another port when a program took the stored one, and names the port that is taken', async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, resolve));
    const taken = (other.address() as { port: number }).port;
    try {
      expect(await portIsFree(taken)).toBe(false);
      const choice = await bridgePortFor(await storageWith({ [IDENTITY_FILE]: JSON.stringify({ port: taken }) }));
      expect(choice.port).not.toBe(taken);
      expect(await portIsFree(choice.port ?? taken)).toBe(true);
      expect(choice.moved).toContain(`Another program has port ${taken}`);
      expect(choice.moved).toContain(`runs on port ${String(choice.port)} instead`);
    } finally {
      await closeServer(other);
    }
  });
});

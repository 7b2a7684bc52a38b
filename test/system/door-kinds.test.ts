// "Show in Home as" on the whole platform (Homebridge double, simulator): every kind of the table shows its own service
// alone, a door shown as a lock opens and closes like a garage door, and changing the kind across restarts keeps the
// accessory (UUID, Home-app name) and moves no door.
import * as hap from 'hap-nodejs';
import type { HAP } from 'homebridge';
import { describe, expect, it } from 'vitest';

import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { FACES, mainServiceOf } from '../../src/door/face.js';
import { SHOW_AS_KINDS } from '../../src/option-catalog.js';
import type { ShowAs } from '../../src/option-catalog.js';
import { HomebridgeDouble } from '../support/homebridge-double.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { togglesReceived, useSimulator } from '../support/simulator.js';
import { sleep } from '../support/wait.js';

const TOKEN = 'door-kinds-token-5e1b7c';
const { Service: S, Characteristic: C } = hap;

let sim: AccessControlSimulator;
const running = shutDownAfterEach();

useSimulator({ accessToken: TOKEN, travelTimeMs: 20 }, (started) => (sim = started));

/** Boots with the front gate shown as `frontGate` (undefined: as for all doors, a garage door), from `api`'s cache. */
async function boot(frontGate: ShowAs | undefined, api = new HomebridgeDouble()) {
  const doors = frontGate === undefined ? [] : [{ id: SAMPLE_FRONT_GATE_ID, showAs: frontGate }];
  const rig = await bootSynced(sim, { accessToken: TOKEN, pollInterval: 15, doors }, { api, running, firstSync: false });
  // Homebridge writes its cache when asked: at start only for doors whose cached record or services changed.
  const cacheWritesAtStart = rig.api.cacheWrites.length;
  await rig.poll();
  return { ...rig, cacheWritesAtStart };
}

const lockOf = (api: HomebridgeDouble) => api.accessory(SAMPLE_FRONT_GATE_ID)?.getService(S.LockMechanism);

describe('every kind of "Show in Home as"', () => {
  it.each(SHOW_AS_KINDS)('shows a door set to %s through its own service and no other kind, named as the door', async (kind) => {
    const { api } = await boot(kind);
    const gate = api.accessory(SAMPLE_FRONT_GATE_ID);
    const hapApi = api.hap as unknown as HAP;
    const held = SHOW_AS_KINDS.filter((each) => gate?.getService(mainServiceOf(hapApi, each)) !== undefined);
    expect(held).toEqual([kind]);
    expect(gate?.getService(mainServiceOf(hapApi, kind))?.getCharacteristic(C.Name).value).toBe('Front Gate');
    expect(FACES[kind].words).toMatch(/^an? /);
  });
});

describe('a door shown as a lock', () => {
  it('unlocks with one OPEN toggle and shows Unlocked once the door reports open; locks with one CLOSED toggle', async () => {
    const { api, poll } = await boot('lock');
    const lock = lockOf(api);
    expect(lock).toBeDefined();
    expect(api.accessory(SAMPLE_FRONT_GATE_ID)?.getService(S.GarageDoorOpener)).toBeUndefined();
    // The other doors keep the default.
    expect(api.accessory(SAMPLE_GARAGE_DOOR_ID)?.getService(S.GarageDoorOpener)).toBeDefined();
    const current = lock?.getCharacteristic(C.LockCurrentState);
    const target = lock?.getCharacteristic(C.LockTargetState);
    expect(current?.value).toBe(C.LockCurrentState.SECURED);
    const before = togglesReceived(sim, SAMPLE_FRONT_GATE_ID).length;
    await target?.handleSetRequest(C.LockTargetState.UNSECURED);
    await sleep(60);
    await poll();
    expect(current?.value).toBe(C.LockCurrentState.UNSECURED);
    await target?.handleSetRequest(C.LockTargetState.SECURED);
    await sleep(60);
    await poll();
    expect(current?.value).toBe(C.LockCurrentState.SECURED);
    expect(togglesReceived(sim, SAMPLE_FRONT_GATE_ID).slice(before)).toEqual([
      { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' },
      { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'CLOSED' },
    ]);
  });
});

describe('changing "Show in Home as" across restarts', () => {
  it('keeps the accessory and its Home-app name, swaps only the main service, writes the cache, and sends no toggle', async () => {
    const first = await boot(undefined);
    const uuid = first.api.accessory(SAMPLE_FRONT_GATE_ID)?.UUID;
    const garage = first.api.accessory(SAMPLE_FRONT_GATE_ID)?.getService(S.GarageDoorOpener);
    // The user renamed the door in the Home app.
    await garage?.getCharacteristic(C.ConfiguredName).handleSetRequest('Office Door');
    await first.platform.shutdown();
    const before = togglesReceived(sim).length;

    let api = first.api;
    for (const kind of ['lock', 'garage-door', 'lock', undefined] as const) {
      const next = await boot(kind, new HomebridgeDouble(api.savedCache()));
      api = next.api;
      await next.poll(3);
      const accessory = api.accessory(SAMPLE_FRONT_GATE_ID);
      const shownAs = kind ?? 'garage-door';
      expect({ kind, uuid: accessory?.UUID, count: api.registered.size }).toEqual({ kind, uuid, count: 3 });
      expect(accessory?.getService(S.LockMechanism) !== undefined).toBe(shownAs === 'lock');
      expect(accessory?.getService(S.GarageDoorOpener) !== undefined).toBe(shownAs === 'garage-door');
      const main = accessory?.getService(shownAs === 'lock' ? S.LockMechanism : S.GarageDoorOpener);
      expect(main?.getCharacteristic(C.ConfiguredName).value).toBe('Office Door');
      expect(accessory?.displayName).toBe('Office Door');
      // The new kind is in the cache at once: the next start does not swap (or warn) again.
      expect(next.cacheWritesAtStart).toBe(1);
      const swapped = next.log.lines.filter((line) => line.text.includes('is now shown in Home as'));
      const from = shownAs === 'lock' ? 'a lock instead of a garage door' : 'a garage door instead of a lock';
      expect(swapped.map((line) => [line.level, line.text.startsWith(`Office Door is now shown in Home as ${from}`)])).toEqual([
        ['warn', true],
      ]);
      await next.platform.shutdown();
    }
    expect(togglesReceived(sim).length).toBe(before);
  });

  it('says nothing and writes nothing when the kind stays', async () => {
    const first = await boot('lock');
    await first.platform.shutdown();
    const again = await boot('lock', new HomebridgeDouble(first.api.savedCache()));
    expect(again.log.lines.filter((line) => line.text.includes('is now shown in Home as'))).toEqual([]);
    expect(lockOf(again.api)).toBeDefined();
    expect(again.cacheWritesAtStart).toBe(0);
  });
});

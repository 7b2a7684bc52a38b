// Doors Siri cannot tell apart: one warning per pair at start and when a new pair appears, none once the user renamed one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AccessControlSimulator, makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { SimDevice } from '../../dev/simulator/server.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import type { CapturedLog } from '../support/log.js';

const TOKEN = 'spoken-names-token-3a9e';
const POLLS = 3;

let sim: AccessControlSimulator;
let device: SimDevice;
const running = shutDownAfterEach();

beforeAll(async () => {
  device = makeDevice({
    doors: [
      makeDoor({ name: 'Gate', entityNumber: 1 }),
      makeDoor({ name: 'gate.', entityNumber: 2 }),
      makeDoor({ name: 'Garage', entityNumber: 3 }),
    ],
  });
  sim = new AccessControlSimulator({ accessToken: TOKEN, devices: [device] });
  await sim.start();
});

afterAll(async () => {
  await sim.stop();
});

const alikeWarnings = (log: CapturedLog) => log.lines.filter((line) => line.level === 'warn' && line.text.startsWith('Siri cannot tell'));
const doorId = (index: number): string => device.doors[index]?.id ?? '';

async function boot(extra: Record<string, unknown>) {
  return bootSynced(sim, { accessToken: TOKEN, ...extra }, { running });
}

describe('doors whose names Siri cannot tell apart', () => {
  it('warns once per pair, naming both doors and the fix, and again only for a new pair', async () => {
    const { log, poll } = await boot({});
    await poll(POLLS);
    expect(alikeWarnings(log).map((line) => line.text)).toEqual([
      `Siri cannot tell Gate (door ${doorId(0)}) from gate (door ${doorId(1)}) apart: their names differ only in case, spaces or punctuation. Give one of them its own "Name in Home" in the plugin settings.`,
    ]);
    const garage2 = makeDoor({ name: 'GARAGE', entityNumber: 4 });
    sim.addDoor(device.id, garage2);
    await poll(POLLS);
    expect(alikeWarnings(log)).toHaveLength(2);
    expect(alikeWarnings(log)[1]?.text).toContain(`Garage (door ${doorId(2)}) from GARAGE (door ${garage2.id})`);
    sim.removeDoor(garage2.id);
  });

  it('says nothing once the user gave one of them a name of its own', async () => {
    const { log, poll } = await boot({ doors: [{ id: doorId(1), name: 'Side Gate' }] });
    await poll(POLLS);
    expect(alikeWarnings(log)).toEqual([]);
  });
});

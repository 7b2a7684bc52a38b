// Secrets by their shape, through the whole platform (issue 52 item 1): the service names a door with the token in base64,
// reversed and split by "|", and history and webhook text carry it in look-alike letters; neither the log nor the names
// HomeKit reads hold any of it, and a config name holding it is refused by the key's name (item 2).
import * as hap from 'hap-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AccessControlSimulator, makeDevice, makeDoor } from '../../dev/simulator/server.js';
import type { SimDoor } from '../../dev/simulator/server.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { secretLeaks } from '../support/secret-leaks.js';

const { Characteristic: C } = hap;
const TOKEN = 'Xq7pLm2Rt9Vb4Nc8Zd1Kf6Hs3Wy5Ej0';
/** Spellings the issue-44 cleaning did not know: each leaves a reader able to read the token back. */
const SPELLINGS = {
  base64: Buffer.from(TOKEN).toString('base64'),
  reversed: Array.from(TOKEN).reverse().join(''),
  'chunks of 9 joined by |': (TOKEN.match(/.{1,9}/g) ?? []).join('|'),
  'U+2800 between letters': Array.from(TOKEN).join('\u2800'),
};

let sim: AccessControlSimulator;
const doors: SimDoor[] = Object.keys(SPELLINGS).map((_, i) => makeDoor({ name: `Gate ${i}`, entityNumber: i + 1 }));
const running = shutDownAfterEach();

beforeAll(async () => {
  sim = new AccessControlSimulator({ accessToken: TOKEN, devices: [makeDevice({ doors })] });
  await sim.start();
});

afterAll(async () => {
  await sim.stop();
});

/** What a reader could take from a text, with the spellings undone that the test wrote (secretLeaks knows only issue 44's). */
function undone(text: string): string {
  const compact = text.replace(/[|\u2800]/g, '');
  return [
    compact,
    Array.from(compact).reverse().join(''),
    ...(compact.match(/[A-Za-z0-9+/=]{16,}/g) ?? []).map((run) => Buffer.from(run, 'base64').toString('latin1')),
  ].join('\n');
}

describe('the token in spellings the issue-44 cleaning did not know', () => {
  it("is in neither the log nor HomeKit's names when the service names doors with it", async () => {
    Object.values(SPELLINGS).forEach((spelled, i) => sim.renameDoor(doors[i]?.id ?? '', `Gate ${i} ${spelled}`));
    const { api, log } = await bootSynced(
      sim,
      { accessToken: TOKEN, doors: [{ id: doors[0]?.id, name: `Yard ${TOKEN.slice(2, 14)}` }] },
      { running },
    );
    const names = [...api.registered.values()].flatMap((accessory) => [
      accessory.displayName,
      ...accessory.services.map((service) => service.getCharacteristic(C.Name).value as string),
    ]);
    const logged = log.lines.map((line) => line.text).join('\n');
    expect(secretLeaks(undone(names.join('\n')), TOKEN)).toEqual([]);
    expect(secretLeaks(undone(logged), TOKEN)).toEqual([]);
    // The account's names, the secret in them found (the config's name holding it is not used): HomeKit takes no brackets.
    // Each door's Eve history service is named after it too.
    const shown = ['Gate 0 redacted', 'Gate 1 redacted', 'Gate 2 redacted', 'Gate 3 redacted'];
    expect(new Set(names)).toEqual(new Set([...shown, ...shown.map((name) => `${name} History`)]));
    expect(logged).toContain(
      'In the configuration, doors.0.name holds the secret of accessToken (or a part of it), so it is never shown, stored or sent to HomeKit',
    );
  });
});

// One gate for every command, from the first second (issue 49), in a real Homebridge driven by a HomeKit controller, on
// one storage restarted for each case: cached doors excluded or hidden leave Home while the first sync is answered 429
// for an hour, or is partial; read-only ids in six other forms keep their doors closed; a _comment and a description
// leave their doors openable; a second platform block of the same account does not start, and the first one's hide holds.
import { describe, expect, it } from 'vitest';

import { HAP_STATUS, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import { makeDevice, makeDoor } from '../../dev/simulator/account.js';
import { accountEdited, togglesReceived } from '../support/simulator.js';
import { platformEntry, RIG_WAIT_MS as WAIT_MS, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-ea45559d70ed';

/** Doors whose ids share nothing, as the service's UUIDs do. */
const PLAIN = 'd4c3b2a1-0f9e-4d8c-8b7a-695847362514';
const EXCLUDED = '9e3f5a7b-2c4d-4e6f-9a81-0b2c3d4e5f60';
const HIDDEN = 'f2a3b4c5-d6e7-4f80-91a2-b3c4d5e6f708';
const NOTED = '6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d9e';
const LEFT_OUT_IN_PART = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';
const TWIN_HIDDEN = '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910';
/** One door for each form a read-only id may be written in (item 2), and the form. */
const FORMS: [string, string, (id: string) => string[]][] = [
  ['without dashes', '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', (id) => [id.replaceAll('-', '')]],
  ['as urn:uuid:', '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e', (id) => [`urn:uuid:${id}`]],
  ['as door:', '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f', (id) => [`door:${id}`]],
  ['pasted twice', '4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f80', (id) => [`${id}${id}`]],
  ['split over two entries', '6f7a8b9c-0d1e-4f2a-8b4c-5d6e7f809112', (id) => [id.slice(0, 18), id.slice(18)]],
  ['with a literal escape for its first letter', 'f7a8b9c0-d1e2-4f3a-9b5c-6d7e8f901223', (id) => [`\\u0066${id.slice(1)}`]],
];

const ONE = 'ctl-one';
const TWO = 'ctl-two';
const door = (id: string, name: string, entityNumber: number) => makeDoor({ id, name, entityNumber });

const rig = useHomebridge({
  simulator: {
    accessToken: TOKEN,
    travelTimeMs: 300,
    devices: [
      makeDevice({
        id: ONE,
        doors: [
          door(PLAIN, 'Side Door', 1),
          door(EXCLUDED, 'Yard Gate', 2),
          door(HIDDEN, 'Back Yard', 3),
          door(NOTED, 'Barn Door', 4),
          door(TWIN_HIDDEN, 'Twin Gate', 5),
          ...FORMS.map(([, id], index) => door(id, `Form Gate ${index + 1}`, 6 + index)),
        ],
      }),
      makeDevice({ id: TWO, doors: [door(LEFT_OUT_IN_PART, 'Far Gate', 1)] }),
    ],
  },
  // The first start, with no settings: every door is cached.
  platforms: (sim) => [platformEntry(sim.baseUrl, TOKEN)],
  door: PLAIN,
  waitMs: WAIT_MS,
});

/** The settings of the restarts: an exclusion, a hide, and the read-only ids in every form. */
const protective = {
  excludeDoorIds: [EXCLUDED],
  doors: [{ id: HIDDEN, hide: true }, ...FORMS.flatMap(([, id, written]) => written(id).map((each) => ({ id: each, readOnly: true })))],
};

const openResult = async (doorId: string): Promise<number> =>
  rig.controller.writeResult(
    await rig.controller.findCharacteristic(doorId, 'GarageDoorOpener', 'TargetDoorState'),
    TARGET_DOOR_STATE.OPEN,
  );

async function expectGone(doorId: string): Promise<void> {
  await expect(rig.controller.findAccessory(doorId)).rejects.toThrow();
}

describe('the gate, with a real Homebridge and a HomeKit controller', () => {
  it('takes cached excluded and hidden doors out of Home while the first sync is answered 429 for an hour', async () => {
    rig.sim.setFault('sync', { kind: 'status', status: 429, retryAfterS: 3600 });
    await rig.restart({ platforms: [platformEntry(rig.sim.baseUrl, TOKEN, protective)] });
    await expectGone(EXCLUDED);
    await expectGone(HIDDEN);
    await rig.hb.waitForLog(
      /Removed Yard Gate from HomeKit: it is filtered out in the plugin settings \(its automations in Home go with it/,
      WAIT_MS,
    );
    for (const [form, id] of FORMS) {
      expect({ form, status: await openResult(id) }).toEqual({ form, status: HAP_STATUS.INSUFFICIENT_PRIVILEGES });
    }
    expect(togglesReceived(rig.sim)).toEqual([]);
  });

  it('takes a cached excluded door out of Home when the first sync is partial, and opens the doors a note names', async () => {
    rig.sim.clearFaults();
    const body = await accountEdited(rig.sim, TOKEN, (account) => {
      for (const device of account.devices) if (device.id === TWO) device.doors = null;
    });
    rig.sim.setFault('sync', { kind: 'status', status: 200, body });
    const settings = {
      ...protective,
      _comment: `the side door is ${PLAIN}`,
      excludeDoorIds: [...protective.excludeDoorIds, LEFT_OUT_IN_PART],
      doors: [...protective.doors, { id: NOTED, description: `the barn, ${NOTED}` }],
    };
    await rig.restart({ platforms: [platformEntry(rig.sim.baseUrl, TOKEN, settings)] });
    await rig.hb.waitForLog(/Part of the account could not be read/, WAIT_MS);
    await expectGone(LEFT_OUT_IN_PART);
    for (const [, id] of FORMS) expect(await openResult(id)).toBe(HAP_STATUS.INSUFFICIENT_PRIVILEGES);
    expect(await openResult(PLAIN)).toBe(HAP_STATUS.SUCCESS);
    expect(await openResult(NOTED)).toBe(HAP_STATUS.SUCCESS);
    expect(togglesReceived(rig.sim).map((toggle) => toggle.door_id)).toEqual([PLAIN, NOTED]);
    rig.sim.clearFaults();
  });

  it("does not start a second platform block of the same account, so the first one's hide holds", async () => {
    const before = togglesReceived(rig.sim).length;
    await rig.restart({
      platforms: [
        platformEntry(rig.sim.baseUrl, TOKEN, { doors: [{ id: TWIN_HIDDEN, hide: true }] }),
        platformEntry(rig.sim.baseUrl, TOKEN, { name: 'Access Control copy' }),
      ],
    });
    // Homebridge 2 refuses a platform configured twice on one bridge itself; Homebridge 1 starts both, and the plugin refuses.
    const refused = rig.hb.version.startsWith('1.')
      ? /This platform block, platforms\[\d+\] \("Access Control copy"\), reads the same account/
      : /Error loading the platform "AccessControl" requested in your config.json at position 2/;
    await rig.hb.waitForLog(refused, WAIT_MS);
    await rig.hb.waitForLog(/Removed Twin Gate from HomeKit/, WAIT_MS);
    await expectGone(TWIN_HIDDEN);
    expect(togglesReceived(rig.sim).slice(before)).toEqual([]);
  });
});

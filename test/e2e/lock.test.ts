// Doors shown as locks ("Show in Home as": lock) end to end: a real Homebridge 1.11 and a HomeKit controller. Unlock sends
// one OPEN toggle and Home shows Unlocked once the door arrives, lock one CLOSED toggle; a door that does not move shows
// jammed until it arrives; a read-only lock refuses; changing the kind across restarts keeps the accessory and moves nothing.
import { describe, expect, it } from 'vitest';

import { hasValue } from '../../dev/harness/homekit-controller.js';
import { HAP_SERVICE, HAP_STATUS, LOCK_CURRENT_STATE, LOCK_TARGET_STATE } from '../../dev/harness/hap-types.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { togglesReceived } from '../support/simulator.js';
import { platformEntry, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-b5087b8c7e69';
const POLL_INTERVAL_S = 5;
/** The shortest the config takes: the jammed test waits it out in real time. */
const TRANSITION_TIMEOUT_S = 10;
const TRAVEL_MS = 500;
/** Far longer than the test: the service accepts the toggle and the door never gets there. */
const NEVER_MS = 3_600_000;
const WAIT_MS = 30_000;

const rig = useHomebridge({
  simulator: { accessToken: TOKEN, travelTimeMs: TRAVEL_MS },
  platforms: () => [platform('lock')],
  door: SAMPLE_FRONT_GATE_ID,
  waitMs: WAIT_MS,
});

/**
 * The front gate shown as `frontGate` (left out: as for all doors, `forAll` or a garage door); the garage door a
 * read-only lock. `forAll` may be a value typed by hand, as in config.json.
 */
function platform(frontGate: 'lock' | 'garage-door' | undefined, forAll?: unknown): Record<string, unknown> {
  return platformEntry(rig.sim.baseUrl, TOKEN, {
    pollInterval: POLL_INTERVAL_S,
    transitionTimeout: TRANSITION_TIMEOUT_S,
    ...(forAll === undefined ? {} : { showAs: forAll }),
    doors: [
      ...(frontGate === undefined ? [] : [{ id: SAMPLE_FRONT_GATE_ID, showAs: frontGate }]),
      { id: SAMPLE_GARAGE_DOOR_ID, showAs: 'lock', readOnly: true },
    ],
  });
}

const lock = (doorId: string, characteristic: string) => rig.controller.findCharacteristic(doorId, 'LockMechanism', characteristic);
const mainServices = async (doorId: string) =>
  (await rig.controller.findAccessory(doorId)).services
    .map((service) => service.type)
    .filter((type) => type === HAP_SERVICE.LockMechanism || type === HAP_SERVICE.GarageDoorOpener)
    .map((type) => (type === HAP_SERVICE.LockMechanism ? 'LockMechanism' : 'GarageDoorOpener'));

async function restart(frontGate: 'lock' | 'garage-door' | undefined, forAll?: unknown): Promise<void> {
  await rig.restart({ platforms: [platform(frontGate, forAll)] });
}

describe('a door shown as a lock, with a real Homebridge and a HomeKit controller', () => {
  it('is a lock, locked while the door is closed; unlock opens it, lock closes it, one toggle each', async () => {
    expect(await mainServices(SAMPLE_FRONT_GATE_ID)).toEqual(['LockMechanism']);
    const current = await lock(SAMPLE_FRONT_GATE_ID, 'LockCurrentState');
    const target = await lock(SAMPLE_FRONT_GATE_ID, 'LockTargetState');
    expect(await rig.controller.read(current)).toBe(LOCK_CURRENT_STATE.SECURED);
    expect(await rig.controller.read(await lock(SAMPLE_FRONT_GATE_ID, 'Name'))).toBe('Front Gate');

    await rig.controller.write(target, LOCK_TARGET_STATE.UNSECURED);
    await rig.hb.waitForLog(/Opening Front Gate\./, WAIT_MS);
    await rig.controller.waitFor(hasValue(LOCK_CURRENT_STATE.UNSECURED), current, WAIT_MS);
    expect(await rig.controller.read(target)).toBe(LOCK_TARGET_STATE.UNSECURED);

    await rig.controller.write(target, LOCK_TARGET_STATE.SECURED);
    await rig.controller.waitFor(hasValue(LOCK_CURRENT_STATE.SECURED), current, WAIT_MS);
    expect(togglesReceived(rig.sim, SAMPLE_FRONT_GATE_ID)).toEqual([
      { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' },
      { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'CLOSED' },
    ]);
  });

  it('shows jammed when the door does not arrive within the time-out, and clears it when the door arrives', async () => {
    rig.sim.setTravelTime(NEVER_MS);
    const current = await lock(SAMPLE_FRONT_GATE_ID, 'LockCurrentState');
    await rig.controller.write(await lock(SAMPLE_FRONT_GATE_ID, 'LockTargetState'), LOCK_TARGET_STATE.UNSECURED);
    await rig.controller.waitFor(hasValue(LOCK_CURRENT_STATE.JAMMED), current, WAIT_MS);
    await rig.hb.waitForLog(/Front Gate did not report open within 10 s;/, WAIT_MS);
    rig.sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    await rig.controller.waitFor(hasValue(LOCK_CURRENT_STATE.UNSECURED), current, WAIT_MS);
    rig.sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { silent: true });
    await rig.controller.waitFor(hasValue(LOCK_CURRENT_STATE.SECURED), current, WAIT_MS);
    rig.sim.setTravelTime(TRAVEL_MS);
  });

  it('refuses to unlock a read-only lock and says why', async () => {
    const target = await lock(SAMPLE_GARAGE_DOOR_ID, 'LockTargetState');
    expect(await rig.controller.writeResult(target, LOCK_TARGET_STATE.UNSECURED)).toBe(HAP_STATUS.INSUFFICIENT_PRIVILEGES);
    await rig.hb.waitForLog(/Garage Door is read-only in the plugin settings; the command to open it was not sent/, WAIT_MS);
    expect(await rig.controller.read(await lock(SAMPLE_GARAGE_DOOR_ID, 'LockCurrentState'))).toBe(LOCK_CURRENT_STATE.SECURED);
    expect(togglesReceived(rig.sim, SAMPLE_GARAGE_DOOR_ID)).toEqual([]);
  });

  it('keeps the accessory (aid, serial) when the kind changes back and forth across restarts, and sends no toggle', async () => {
    const aid = (await rig.controller.findAccessory(SAMPLE_FRONT_GATE_ID)).aid;
    const before = togglesReceived(rig.sim).length;
    for (const kind of ['garage-door', 'lock', undefined] as const) {
      await restart(kind);
      const shownAs = kind === 'lock' ? 'LockMechanism' : 'GarageDoorOpener';
      expect({
        kind,
        aid: (await rig.controller.findAccessory(SAMPLE_FRONT_GATE_ID)).aid,
        main: await mainServices(SAMPLE_FRONT_GATE_ID),
      }).toEqual({
        kind,
        aid,
        main: [shownAs],
      });
      expect(await rig.controller.read(await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, shownAs, 'Name'))).toBe('Front Gate');
      await rig.hb.waitForLog(/Syncing the account every/, WAIT_MS);
    }
    expect(togglesReceived(rig.sim).length).toBe(before);
  });

  it('keeps the lock across restarts whose kind for all doors is mistyped: a near miss reads as lock, a value that is none keeps what Home shows (issue 29)', async () => {
    await restart(undefined, 'lock');
    const aid = (await rig.controller.findAccessory(SAMPLE_FRONT_GATE_ID)).aid;
    const before = togglesReceived(rig.sim).length;
    const typos: [unknown, RegExp][] = [
      ['Locks', /In the configuration, showAs "Locks" is read as "lock"\./],
      [true, /In the configuration, showAs must be "garage-door" or "lock"; each door keeps the kind Home shows now/],
    ];
    for (const [typo, line] of typos) {
      await restart(undefined, typo);
      await rig.hb.waitForLog(line, WAIT_MS);
      expect({
        typo,
        aid: (await rig.controller.findAccessory(SAMPLE_FRONT_GATE_ID)).aid,
        main: await mainServices(SAMPLE_FRONT_GATE_ID),
      }).toEqual({
        typo,
        aid,
        main: ['LockMechanism'],
      });
      expect(await rig.controller.read(await lock(SAMPLE_FRONT_GATE_ID, 'LockCurrentState'))).toBe(LOCK_CURRENT_STATE.SECURED);
    }
    expect(togglesReceived(rig.sim).length).toBe(before);
  });
});

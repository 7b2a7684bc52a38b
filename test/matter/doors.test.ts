// The doors on Matter end to end (issue 23): a real Homebridge 2.4 runs the plugin on a child bridge with Matter on, the
// simulator is the cloud, and a real Matter controller (matter.js) commissions the bridge from its manual pairing code, as
// Google Home or Alexa would. Locks: read, pushes, unlock, lock, one pulse per wish, a read-only door (its id written with
// look-alike letters), a move that never arrives, a restart, a stale door; then sensors, and the line said where the
// bridge does not run Matter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, removeStorageDir, startHomebridge, waitForChildBridge } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { LOCK_STATE, MATTER_DEVICE_TYPE, MatterController } from '../../dev/harness/matter-controller.js';
import type { MatterDoor } from '../../dev/harness/matter-controller.js';
import {
  AccessControlSimulator,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
  SAMPLE_SHARED_DEVICE_ID,
  SAMPLE_SHARED_GATE_ID,
  makeDoor,
  sampleAccount,
} from '../../dev/simulator/server.js';
import { accountNowWithDoorState, togglesReceived } from '../support/simulator.js';
import { matterChildBridge, startMatterBridge, tearDownMatter } from './bridge.js';
import type { MatterChildBridge } from './bridge.js';
import { requireNonLoopbackInterface } from './netns.js';

const TOKEN = 'tok-7a0f6502c260';
const API_KEY = 'beef'.repeat(24);
/** Far longer than the tests that need the webhook: a change seen within them came by webhook, not by a poll. */
const SLOW_POLL_S = 300;
/** The shortest poll: the stale-door test waits for the poll that reads the controller inactive. */
const FAST_POLL_S = 5;
const TRAVEL_MS = 500;
/** Far longer than the test: the service accepts the toggle and the door never gets there. */
const NEVER_MS = 3_600_000;
/** The shortest the config takes: the NotFullyLocked test waits it out in real time. */
const TRANSITION_TIMEOUT_S = 10;
const WAIT_MS = 20_000;
/** Doors moved by someone else in a row in the push test (alternately opened and closed: an even count leaves it closed). */
const PUSHES = 10;

/** Longer than Matter's 32 characters: the controller must get it cut to 32. */
const LONG_NAME = 'Underground Car Park Barrier North Side';
const LONG_NAME_DOOR_ID = '3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a11';
/** Hidden in the plugin settings: on Matter no more than in HomeKit. */
const HIDDEN_DOOR_ID = '3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a12';

/**
 * The settings name the read-only door and the hidden one as a hand or a paste may write them (issue 42): the garage
 * door's id with its "a"s in Cyrillic (it matches nothing, and could mean only that door), the hidden door's in fullwidth
 * letters after a right-to-left mark, with a trailing comma. Each still holds on Matter; the other doors still unlock.
 */
const GARAGE_DOOR_AS_WRITTEN = SAMPLE_GARAGE_DOOR_ID.replace(/a/g, '\u0430');
const HIDDEN_DOOR_AS_WRITTEN = `\u200f${Array.from(HIDDEN_DOOR_ID, (char) => String.fromCodePoint((char.codePointAt(0) ?? 0) + 0xfee0)).join('')},`;

/** The sample account plus a long-named door and a hidden one, all closed. */
function account() {
  const devices = sampleAccount();
  const owned = devices.find((d) => d.id === SAMPLE_OWNED_DEVICE_ID);
  owned?.doors.push(
    makeDoor({ id: LONG_NAME_DOOR_ID, name: LONG_NAME, entityNumber: 3 }),
    makeDoor({ id: HIDDEN_DOOR_ID, name: 'Bike Shed', entityNumber: 4 }),
  );
  return devices;
}

/** A door's Matter serial number: its id, which for the service's UUIDs fits Matter's 32 characters without its dashes. */
const serialOf = (doorId: string): string => doorId.replace(/-/g, '');
const FRONT_GATE = serialOf(SAMPLE_FRONT_GATE_ID);
/** Unlocked twice at once, then opened by the keypad before the restart and left open: the one door not locked after it. */
const LEFT_OPEN = serialOf(LONG_NAME_DOOR_ID);
const GARAGE_DOOR = serialOf(SAMPLE_GARAGE_DOOR_ID);
const SHARED_GATE = serialOf(SAMPLE_SHARED_GATE_ID);

/** The doors a Matter controller must see, by serial number, with the name Matter shows. */
const SHOWN_DOORS: Record<string, string> = {
  [FRONT_GATE]: 'Front Gate',
  [GARAGE_DOOR]: 'Garage Door',
  [SHARED_GATE]: 'Shared Gate',
  [serialOf(LONG_NAME_DOOR_ID)]: LONG_NAME.slice(0, 32),
};

let sim: AccessControlSimulator;
let hb: HomebridgeProcess | undefined;
let controller: MatterController | undefined;
let bridge: MatterChildBridge;
let webhookPort: number;

/** `matter` may be a value typed by hand, as in config.json. */
function entry(matter: unknown, pollInterval: number): Record<string, unknown> & { _bridge: MatterChildBridge } {
  return {
    platform: 'AccessControl',
    name: 'Access Control',
    accessToken: TOKEN,
    baseUrl: sim.baseUrl,
    pollInterval,
    transitionTimeout: TRANSITION_TIMEOUT_S,
    matter,
    webhook: { host: '127.0.0.1', port: webhookPort, apiKey: API_KEY },
    doors: [
      { id: GARAGE_DOOR_AS_WRITTEN, readOnly: true },
      { id: HIDDEN_DOOR_AS_WRITTEN, hide: true },
    ],
    _bridge: bridge,
  };
}

function commissioned(): MatterController {
  if (controller === undefined) throw new Error('the bridge was not commissioned (see the first test)');
  return controller;
}

/** Restarts Homebridge on the same storage with `matter`, the controller closed meanwhile, and reconnects it. */
async function restart(matter: unknown, pollInterval: number): Promise<void> {
  if (hb === undefined) throw new Error('Homebridge is not running');
  const c = commissioned();
  await c.disconnect();
  await hb.stop();
  const started = await startMatterBridge(entry(matter, pollInterval), { storageDir: hb.storageDir });
  hb = started.hb;
  expect(started.commissioning.commissioned).toBe(true);
  await c.reconnect();
}

const serialsOf = (doors: MatterDoor[]) => doors.map((d) => d.serialNumber);
const waitAll = (c: MatterController, predicate: (door: MatterDoor) => boolean, what: string) =>
  expect.poll(
    () =>
      c
        .doors()
        .filter(predicate)
        .map((d) => d.serialNumber)
        .sort(),
    { timeout: WAIT_MS, interval: 100, message: what },
  );

beforeAll(async () => {
  requireNonLoopbackInterface();
  webhookPort = await freePort();
  bridge = await matterChildBridge();
  sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: TRAVEL_MS, devices: account() });
  await sim.start();
  sim.setWebhook({ url: `http://127.0.0.1:${webhookPort}/hooks/access`, apiKey: API_KEY });
});

afterAll(() => tearDownMatter({ controller, hb, sim }));

describe('the doors as Matter door locks (matter: "locks"), with a real Homebridge 2.4 and a Matter controller', () => {
  it('commissions the child bridge from the manual pairing code, and lists every shown door, locked, by name and id', async () => {
    const started = await startMatterBridge(entry('locks', SLOW_POLL_S));
    hb = started.hb;
    expect(started.commissioning.commissioned).toBe(false);
    controller = await MatterController.commission(started.commissioning.manualPairingCode, bridge.matter.port);

    const allIds = Object.keys(SHOWN_DOORS).sort();
    await waitAll(controller, () => true, 'every shown door is on Matter').toEqual(allIds);
    const doors = controller.doors();
    expect(
      doors.map(({ serialNumber, name, reachable, deviceTypes, lockState }) => ({ serialNumber, name, reachable, deviceTypes, lockState })),
    ).toEqual(
      serialsOf(doors).map((id) => ({
        serialNumber: id,
        name: SHOWN_DOORS[id ?? ''],
        reachable: true,
        deviceTypes: [MATTER_DEVICE_TYPE.DoorLock],
        lockState: LOCK_STATE.Locked,
      })),
    );
    expect(togglesReceived(sim)).toEqual([]);
  });

  it('pushes a door moved by someone else (keypad) to the subscribed controller from the webhook, without a sync', async () => {
    const c = commissioned();
    const { endpoint } = c.door(FRONT_GATE);
    const togglesBefore = togglesReceived(sim).length;
    const windows: { movedAt: number; at: number }[] = [];
    for (let i = 0; i < PUSHES; i += 1) {
      const state = i % 2 === 0 ? 'OPEN' : 'CLOSED';
      const expected = state === 'OPEN' ? LOCK_STATE.Unlocked : LOCK_STATE.Locked;
      const arrived = new Promise<number>((resolve) => {
        const stop = c.onReport((report) => {
          if (report.endpoint === endpoint && report.attribute === 'lockState' && report.value === expected) {
            stop();
            resolve(report.at);
          }
        });
      });
      const movedAt = Date.now();
      sim.setDoorState(SAMPLE_FRONT_GATE_ID, state, { channel: 'Keypad' });
      const at = await Promise.race([
        arrived,
        new Promise<never>((_resolve, reject) =>
          setTimeout(() => reject(new Error(`push ${i + 1} (${state}) did not arrive within ${WAIT_MS} ms`)), WAIT_MS),
        ),
      ]);
      windows.push({ movedAt, at });
    }
    const latencies = windows.map(({ movedAt, at }) => at - movedAt);
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `[matter] ${PUSHES} pushes, webhook to controller (ms): ${latencies.join(', ')}; median ${sorted[Math.floor(PUSHES / 2)] ?? '?'}, max ${sorted[PUSHES - 1] ?? '?'}`,
    );
    // Came by the webhook: no sync was made between a move and its arrival (none is due: the poll is 300 s, no door moved yet).
    const syncsAt = sim.requests.filter((r) => r.path.endsWith('/endpoints/sync')).map((r) => r.at);
    expect(windows.filter(({ movedAt, at }) => syncsAt.some((t) => t >= movedAt && t <= at))).toEqual([]);
    // And moved nothing: the plugin only followed.
    expect(togglesReceived(sim)).toHaveLength(togglesBefore);
    expect(c.door(FRONT_GATE).lockState).toBe(LOCK_STATE.Locked);
    // Issue 23's "within a second" is a duration: printed above (tens of milliseconds on a quiet machine), not asserted,
    // as a busy machine stretches it past any bound without the plugin being slower.
  });

  it('unlock opens the door (one OPEN toggle; Unlocked once it is open), lock closes it (one CLOSED toggle; Locked)', async () => {
    const c = commissioned();
    const { endpoint } = c.door(FRONT_GATE);
    expect(await c.unlockDoor(endpoint)).toEqual({ ok: true });
    await c.waitForDoor(
      FRONT_GATE,
      (d) => d.lockState === LOCK_STATE.Unlocked && sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state === 'OPEN',
      WAIT_MS,
    );
    expect(togglesReceived(sim)).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);

    expect(await c.lockDoor(endpoint)).toEqual({ ok: true });
    await c.waitForDoor(
      FRONT_GATE,
      (d) => d.lockState === LOCK_STATE.Locked && sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state === 'CLOSED',
      WAIT_MS,
    );
    expect(togglesReceived(sim)).toEqual([
      { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' },
      { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'CLOSED' },
    ]);
  });

  it('sends one pulse for two unlocks at once (one wish), and one for the lock after', async () => {
    const c = commissioned();
    const { endpoint } = c.door(LEFT_OPEN);
    expect(await Promise.all([c.unlockDoor(endpoint), c.unlockDoor(endpoint)])).toEqual([{ ok: true }, { ok: true }]);
    await c.waitForDoor(LEFT_OPEN, (d) => d.lockState === LOCK_STATE.Unlocked && sim.getDoor(LONG_NAME_DOOR_ID)?.state === 'OPEN', WAIT_MS);
    expect(await c.lockDoor(endpoint)).toEqual({ ok: true });
    await c.waitForDoor(LEFT_OPEN, (d) => d.lockState === LOCK_STATE.Locked && sim.getDoor(LONG_NAME_DOOR_ID)?.state === 'CLOSED', WAIT_MS);
    expect(togglesReceived(sim, LONG_NAME_DOOR_ID).map((t) => t.door_state)).toEqual(['OPEN', 'CLOSED']);
  });

  it('answers unlock of a read-only door with a Matter error and sends nothing', async () => {
    const c = commissioned();
    const { endpoint } = c.door(GARAGE_DOOR);
    // The plugin throws Homebridge's PermissionDenied, which Matter carries as UnsupportedAccess (0x7e).
    expect(await c.unlockDoor(endpoint)).toMatchObject({ ok: false, statusName: 'UnsupportedAccess' });
    expect(await c.readLockState(endpoint)).toBe(LOCK_STATE.Locked);
    expect(togglesReceived(sim, SAMPLE_GARAGE_DOOR_ID)).toEqual([]);
    expect(sim.getDoor(SAMPLE_GARAGE_DOOR_ID)?.state).toBe('CLOSED');
  });

  it('shows NotFullyLocked while a commanded move has not arrived in time, until the door reports a state', async () => {
    const c = commissioned();
    const { endpoint } = c.door(FRONT_GATE);
    sim.setTravelTime(NEVER_MS);
    try {
      expect(await c.unlockDoor(endpoint)).toEqual({ ok: true });
      await c.waitForDoor(FRONT_GATE, (d) => d.lockState === LOCK_STATE.NotFullyLocked, WAIT_MS);
      expect(sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state).toBe('CLOSED');
      sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { channel: 'Keypad' });
      await c.waitForDoor(FRONT_GATE, (d) => d.lockState === LOCK_STATE.Unlocked, WAIT_MS);
      sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { channel: 'Keypad' });
      await c.waitForDoor(FRONT_GATE, (d) => d.lockState === LOCK_STATE.Locked, WAIT_MS);
    } finally {
      sim.setTravelTime(TRAVEL_MS);
    }
    expect(togglesReceived(sim, SAMPLE_FRONT_GATE_ID).map((t) => t.door_state)).toEqual(['OPEN', 'CLOSED', 'OPEN']);
  });

  it('after a restart, reconnects without commissioning again: every door still there, in its state, and nothing moved', async () => {
    const c = commissioned();
    sim.setDoorState(LONG_NAME_DOOR_ID, 'OPEN', { channel: 'Keypad' });
    await c.waitForDoor(LEFT_OPEN, (d) => d.lockState === LOCK_STATE.Unlocked, WAIT_MS);
    const toggles = togglesReceived(sim).length;
    await restart('locks', FAST_POLL_S);
    await waitAll(c, () => true, 'every door is back').toEqual(Object.keys(SHOWN_DOORS).sort());
    await waitAll(c, (d) => d.reachable, 'every door is reachable').toEqual(Object.keys(SHOWN_DOORS).sort());
    expect(c.doors().map((d) => ({ id: d.serialNumber, name: d.name, lockState: d.lockState }))).toEqual(
      c.doors().map((d) => ({
        id: d.serialNumber,
        name: SHOWN_DOORS[d.serialNumber ?? ''],
        lockState: d.serialNumber === LEFT_OPEN ? LOCK_STATE.Unlocked : LOCK_STATE.Locked,
      })),
    );
    expect(togglesReceived(sim)).toHaveLength(toggles);
    // Read from the restarted bridge itself, not from the subscription's copy: the door left open is shown unlocked.
    expect(await c.readLockState(c.door(LEFT_OPEN).endpoint)).toBe(LOCK_STATE.Unlocked);
  });

  it('renames a door on Matter when it is renamed in the account, at the next sync, as in HomeKit', async () => {
    const c = commissioned();
    sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Main Gate');
    try {
      await c.waitForDoor(FRONT_GATE, (d) => d.name === 'Main Gate', WAIT_MS);
    } finally {
      sim.renameDoor(SAMPLE_FRONT_GATE_ID, SHOWN_DOORS[FRONT_GATE] ?? '');
    }
    await c.waitForDoor(FRONT_GATE, (d) => d.name === SHOWN_DOORS[FRONT_GATE], WAIT_MS);
  });

  it('shows the doors of a controller the service reports inactive as unreachable, and reachable again after', async () => {
    const c = commissioned();
    sim.setDeviceActive(SAMPLE_SHARED_DEVICE_ID, false);
    await c.waitForDoor(SHARED_GATE, (d) => !d.reachable, WAIT_MS);
    expect(c.door(FRONT_GATE).reachable).toBe(true);
    // Its state may be stale: a lock is refused with a failure status and sends nothing, never "Success" (issue 30.1).
    const toggles = togglesReceived(sim).length;
    expect(await c.lockDoor(c.door(SHARED_GATE).endpoint)).toMatchObject({ ok: false, statusName: 'Failure' });
    expect(await c.unlockDoor(c.door(SHARED_GATE).endpoint)).toMatchObject({ ok: false, statusName: 'Failure' });
    expect(togglesReceived(sim)).toHaveLength(toggles);
    sim.setDeviceActive(SAMPLE_SHARED_DEVICE_ID, true);
    await c.waitForDoor(SHARED_GATE, (d) => d.reachable, WAIT_MS);
  });

  it('keeps every door on Matter as a lock that unlocks, across a restart whose Matter setting cannot be read (issue 29)', async () => {
    const c = commissioned();
    // Typed by hand: no value the plugin can read, and no near miss of one. Before, every door left Matter ("off").
    await restart({ mode: 'locks' }, FAST_POLL_S);
    await hb?.waitForLog(/In the configuration, matter must be .*; the doors stay on Matter as they are now/, WAIT_MS);
    const ids = Object.keys(SHOWN_DOORS).sort();
    await waitAll(c, (d) => d.reachable && d.deviceTypes.includes(MATTER_DEVICE_TYPE.DoorLock), 'every door is still a lock').toEqual(ids);
    const toggles = togglesReceived(sim, SAMPLE_FRONT_GATE_ID).length;
    const { endpoint } = c.door(FRONT_GATE);
    expect(await c.unlockDoor(endpoint)).toEqual({ ok: true });
    await c.waitForDoor(FRONT_GATE, (d) => d.lockState === LOCK_STATE.Unlocked, WAIT_MS);
    expect(togglesReceived(sim, SAMPLE_FRONT_GATE_ID).slice(toggles)).toEqual([{ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }]);
    expect(await c.lockDoor(endpoint)).toEqual({ ok: true });
    await c.waitForDoor(
      FRONT_GATE,
      (d) => d.lockState === LOCK_STATE.Locked && sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state === 'CLOSED',
      WAIT_MS,
    );
  });
});

describe('a new door whose state the service cannot tell (issue 30.2)', () => {
  it('shows it not fully locked and unreachable, never Locked, until the service reports its state', async () => {
    const c = commissioned();
    const newDoorId = '3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a13';
    sim.addDoor(SAMPLE_OWNED_DEVICE_ID, makeDoor({ id: newDoorId, name: 'Loading Bay', entityNumber: 5 }));
    // The account as the service sends it, the new door's state one the plugin cannot read: set in the same turn as the
    // door is added, so no sync sees the new door closed first (one did while a request for this body ran, under load).
    sim.setFault('sync', { kind: 'status', status: 200, body: accountNowWithDoorState(sim, newDoorId, 'MOVING') });
    try {
      const { endpoint } = await c.waitForDoor(serialOf(newDoorId), (d) => d.lockState === LOCK_STATE.NotFullyLocked, WAIT_MS);
      // Unreachable as the bridge says it: the controller's subscribed copy of a device just added can lag on a busy
      // machine (CI saw it reachable for 20 s there), which is the harness's, not what a Google Home reads from the bridge.
      await expect.poll(() => c.readReachable(endpoint), { timeout: WAIT_MS, interval: 500 }).toBe(false);
    } finally {
      sim.clearFaults();
    }
    await c.waitForDoor(serialOf(newDoorId), (d) => d.lockState === LOCK_STATE.Locked && d.reachable, WAIT_MS);
    // It stays: the doors after this test count it.
    SHOWN_DOORS[serialOf(newDoorId)] = 'Loading Bay';
  });
});

describe('the doors as Matter contact sensors (matter: "sensors")', () => {
  it('shows every door as a contact sensor in its state, following a door moved by someone else', async () => {
    const c = commissioned();
    const toggles = togglesReceived(sim).length;
    await restart('sensors', SLOW_POLL_S);
    const ids = Object.keys(SHOWN_DOORS).sort();
    await waitAll(c, (d) => d.deviceTypes.includes(MATTER_DEVICE_TYPE.ContactSensor), 'every door is a contact sensor').toEqual(ids);
    // BooleanState: true is contact, a closed door; one door is still open.
    await waitAll(c, (d) => d.contact === true, 'the closed doors show contact').toEqual(ids.filter((id) => id !== LEFT_OPEN));
    expect(c.doors().map((d) => ({ id: d.serialNumber, name: d.name, lockState: d.lockState, contact: d.contact }))).toEqual(
      c.doors().map((d) => ({
        id: d.serialNumber,
        name: SHOWN_DOORS[d.serialNumber ?? ''],
        lockState: undefined,
        contact: d.serialNumber !== LEFT_OPEN,
      })),
    );

    sim.setDoorState(LONG_NAME_DOOR_ID, 'CLOSED', { channel: 'Keypad' });
    await c.waitForDoor(LEFT_OPEN, (d) => d.contact === true, WAIT_MS);
    expect(togglesReceived(sim)).toHaveLength(toggles);
  });
});

describe('matter: "locks" where the bridge does not run Matter', () => {
  it('keeps the doors on HomeKit only and says once how to turn Matter on, naming the child bridge', async () => {
    // The Matter bridge above is done with: one Homebridge at a time.
    await tearDownMatter({ controller, hb });
    controller = undefined;
    hb = undefined;
    const { username, port } = await matterChildBridge();
    const noMatter = { username, port };
    const other = await startHomebridge({ platforms: [{ ...entry('locks', SLOW_POLL_S), webhook: undefined, _bridge: noMatter }] });
    try {
      await waitForChildBridge(other, { name: 'Access Control', _bridge: noMatter });
      await other.waitForLog(/Added Front Gate to HomeKit/, WAIT_MS);
      await other.waitForLog(
        /"Google Home and Alexa \(Matter\)" is set to locks, but the bridge this plugin runs on does not run Matter, so the doors are on HomeKit only\. It needs Homebridge 2 with Matter turned on for that bridge, then a restart: on a child bridge, in the Homebridge UI the plugin's bridge settings \(config\.json: "matter": \{ "port": 5541 \} in this platform's "_bridge" block\)/,
        WAIT_MS,
      );
      expect(other.log()).not.toMatch(/to Matter \(Google Home, Alexa\)/);
      expect(other.log().match(/does not run Matter/g)).toHaveLength(1);
    } finally {
      await other.stop();
      await removeStorageDir(other.storageDir);
    }
  });
});

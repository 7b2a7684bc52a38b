// The gate over the lifecycle (issue 49, item 7), as a property: random settings (read-only, hidden, excluded, a controller
// filtered out, each id in one of its written forms) x the first sync's outcome (ok, 429 with Retry-After, 5xx, partial,
// time-out) x cached or not x every command path (garage target, lock target, automation switch, Matter's command):
// no toggle ever reaches the service for a door a setting protects, and no door a setting does not name is refused, but
// one a setting could mean while the door it names cannot be read, with a line naming that setting.
import fc from 'fast-check';
import * as hap from 'hap-nodejs';
import { beforeEach, describe, expect, it } from 'vitest';

import type { AccessControlSimulator, SimFault } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_DEVICE_ID, SAMPLE_SHARED_GATE_ID } from '../../dev/simulator/server.js';
import type { DoorState } from '../../src/client/types.js';
import { guardReason } from '../../src/config/door-options.js';
import type { ProtectionCache } from '../../src/config/protection-cache.js';
import type { DoorAccessory } from '../../src/door/door-accessory.js';
import { HomebridgeDouble } from '../support/homebridge-double.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import type { PlatformRig } from '../support/platform-rig.js';
import { accountEdited, togglesReceived, useSimulator } from '../support/simulator.js';

const RUNS = 60;
const TOKEN = 'gate-lifecycle-token-81f3';
const DOORS = [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID];
const { Characteristic: C, Service: S } = hap;

let sim: AccessControlSimulator;
useSimulator({ accessToken: TOKEN, travelTimeMs: 5 }, (started) => (sim = started));
const running = shutDownAfterEach();

/** Each form a door's id may be written in, all of which name it (item 2). */
const FORMS: Record<string, (id: string) => string> = {
  exact: (id) => id,
  'no dashes': (id) => id.replaceAll('-', ''),
  'urn:uuid': (id) => `urn:uuid:${id}`,
  'door:': (id) => `door:${id}`,
  twice: (id) => `${id}${id}`,
  'upper case': (id) => id.toUpperCase(),
};
type Protect = 'none' | 'readOnly' | 'hide' | 'exclude';
type Outcome = 'ok' | '429' | '5xx' | 'partial' | 'time-out';
type Path = 'garage' | 'lock' | 'switch' | 'matter';

const settingArb = fc.record({
  protect: fc.constantFrom<Protect>('none', 'readOnly', 'hide', 'exclude'),
  form: fc.constantFrom(...Object.keys(FORMS)),
});
const caseArb = fc.record({
  settings: fc.tuple(settingArb, settingArb, settingArb),
  controllerOut: fc.boolean(),
  outcome: fc.constantFrom<Outcome>('ok', '429', '5xx', 'partial', 'time-out'),
  cached: fc.boolean(),
  path: fc.constantFrom<Path>('garage', 'lock', 'switch', 'matter'),
  wanted: fc.constantFrom<DoorState>('OPEN', 'CLOSED'),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** The platform block a case writes, and the doors it protects. */
function settingsOf(c: Case): { config: { accessToken: string } & Record<string, unknown>; protectedIds: Set<string> } {
  const doors: Record<string, unknown>[] = [];
  const excludeDoorIds: string[] = [];
  const protectedIds = new Set<string>();
  c.settings.forEach(({ protect, form }, index) => {
    const door = DOORS[index] ?? '';
    const written = FORMS[form]?.(door) ?? door;
    if (protect !== 'none') protectedIds.add(door);
    if (protect === 'readOnly') doors.push({ id: written, readOnly: true });
    if (protect === 'hide') doors.push({ id: written, hide: true });
    if (protect === 'exclude') excludeDoorIds.push(written);
  });
  if (c.controllerOut) protectedIds.add(SAMPLE_SHARED_GATE_ID);
  const config = {
    accessToken: TOKEN,
    showAs: c.path === 'lock' ? 'lock' : 'garage-door',
    automationSwitch: c.path === 'switch' ? 'open-close' : 'off',
    doors,
    excludeDoorIds,
    excludeDeviceIds: c.controllerOut ? [SAMPLE_SHARED_DEVICE_ID] : [],
  };
  return { config, protectedIds };
}

/** The answer to the first sync of the restart. */
async function faultOf(outcome: Outcome): Promise<SimFault | undefined> {
  if (outcome === '429') return { kind: 'status', status: 429, retryAfterS: 3600 };
  if (outcome === '5xx') return { kind: 'status', status: 503 };
  if (outcome === 'time-out') return { kind: 'hang' };
  if (outcome === 'ok') return undefined;
  const body = await accountEdited(sim, TOKEN, (account) => {
    for (const device of account.devices) if (device.id === SAMPLE_SHARED_DEVICE_ID) device.doors = null;
  });
  return { kind: 'status', status: 200, body };
}

/** Sends one command to a door through the case's path; resolves with the HAP status it was refused with, if any. */
async function command(rig: PlatformRig, doorId: string, path: Path, wanted: DoorState): Promise<unknown> {
  const accessory = rig.api.accessory(doorId);
  if (accessory === undefined) return 'not in Home';
  const open = wanted === 'OPEN';
  const write = (): Promise<unknown> => {
    if (path === 'garage') {
      const target = accessory.getService(S.GarageDoorOpener)?.getCharacteristic(C.TargetDoorState);
      return target?.handleSetRequest(open ? C.TargetDoorState.OPEN : C.TargetDoorState.CLOSED) ?? Promise.resolve();
    }
    if (path === 'lock') {
      const target = accessory.getService(S.LockMechanism)?.getCharacteristic(C.LockTargetState);
      return target?.handleSetRequest(open ? C.LockTargetState.UNSECURED : C.LockTargetState.SECURED) ?? Promise.resolve();
    }
    if (path === 'switch') return accessory.getService(S.Switch)?.getCharacteristic(C.On).handleSetRequest(open) ?? Promise.resolve();
    // Matter's DoorLock commands go through the door's own command path (src/matter/lock-face.ts).
    const registry = Reflect.get(rig.platform, 'registry') as { all: () => DoorAccessory[] };
    const door = registry.all().find((each) => each.accessory.context.doorId === doorId);
    return door?.command(wanted) ?? Promise.resolve();
  };
  try {
    await write();
    return undefined;
  } catch (status) {
    return status;
  }
}

/** The case a run found: the shared gate read-only by its exact id, its controller's doors unreadable at the first sync. */
const PARTIAL_NEIGHBOURS: Case = {
  settings: [
    { protect: 'none', form: 'exact' },
    { protect: 'none', form: 'exact' },
    { protect: 'readOnly', form: 'exact' },
  ],
  controllerOut: false,
  outcome: 'partial',
  cached: false,
  path: 'garage',
  wanted: 'OPEN',
};

/** The refusal the gate gives a door that a setting could mean, with that setting's reason. */
function couldMeanRefusal(rig: PlatformRig, doorId: string): string | undefined {
  const protection = (Reflect.get(rig.platform, 'protection') as ProtectionCache).current;
  return guardReason(protection, doorId);
}

describe('the gate over the lifecycle', () => {
  beforeEach(() => {
    for (const door of DOORS) sim.setDoorState(door, 'CLOSED', { silent: true });
  });

  it('never lets a toggle through for a protected door, and refuses no other but one a setting could mean, saying which', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const { config, protectedIds } = settingsOf(c);
        sim.clearFaults();
        let api = new HomebridgeDouble();
        if (c.cached) {
          const first = await bootSynced(sim, { accessToken: TOKEN, showAs: config.showAs }, { running });
          await first.platform.shutdown();
          api = new HomebridgeDouble(first.api.savedCache());
        }
        const fault = await faultOf(c.outcome);
        if (fault !== undefined) sim.setFault('sync', fault, { times: 1 });
        const before = togglesReceived(sim).length;
        const rig = await bootSynced(sim, config, { api, running });
        const refusals = new Map<string, unknown>();
        const names = new Map(DOORS.map((door) => [door, rig.api.accessory(door)?.displayName]));
        for (const door of DOORS) refusals.set(door, await command(rig, door, c.path, c.wanted));
        await rig.platform.shutdown();
        sim.clearFaults();
        for (const door of DOORS) sim.setDoorState(door, 'CLOSED', { silent: true });
        const toggled = togglesReceived(sim)
          .slice(before)
          .map((toggle) => toggle.door_id);
        expect(toggled.filter((door) => protectedIds.has(door))).toEqual([]);
        for (const door of DOORS.filter((each) => !protectedIds.has(each))) {
          if (refusals.get(door) !== hap.HAPStatus.INSUFFICIENT_PRIVILEGES) continue;
          // Refused though no setting names it: only while the door a setting names is in the part of the account the
          // sync could not read, so that setting could mean this door (a typo of its id), and the line says which.
          expect(c.outcome).toBe('partial');
          const name = names.get(door) ?? '';
          expect(couldMeanRefusal(rig, door)).toMatch(/^it is read-only until a setting is fixed: the id "[^"]+" in \S+ could mean it$/);
          expect(rig.log.texts('warn')).toContainEqual(
            `${name}: the command to ${c.wanted === 'OPEN' ? 'open' : 'close'} it was not sent: ${couldMeanRefusal(rig, door)}.`,
          );
        }
      }),
      // Kept from a run that broke: the shared gate read-only, its controller unreadable at the first sync, the two doors
      // whose ids are one letter from it refused with "read-only in the plugin settings", which none of them was.
      { numRuns: RUNS, examples: [[PARTIAL_NEIGHBOURS]] },
    );
  }, 120_000);
});

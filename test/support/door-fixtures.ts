// Builders for the tests of one door (DoorAccessory and its parts): Front Gate and its controller as a sync
// reports them, door options with no extras, Front Gate's accessory as Homebridge hands it over from the cache, and
// a DoorAccessory on it with the dependencies the platform would give it.
import * as hap from 'hap-nodejs';
import type { API } from 'homebridge';
import { PlatformAccessory } from 'homebridge/lib/platformAccessory.js';
import { vi } from 'vitest';
import type { Mock } from 'vitest';

import type { Device, Door, DoorState } from '../../src/client/types.js';
import type { DoorContext } from '../../src/door/model/context.js';
import { DoorAccessory } from '../../src/door/door-accessory.js';
import type { DoorAccessoryDeps } from '../../src/door/door-accessory.js';
import { parseConfig } from '../../src/config/index.js';
import type { PluginConfig } from '../../src/config/index.js';
import { doorOptions } from '../../src/config/door-options.js';
import type { DoorOptions } from '../../src/config/door-options.js';
import type { DoorSummary } from '../../src/ui/shared/messages.js';
import { ManualClock } from './homebridge-double.js';
import { captureLog } from './log.js';
import type { CapturedLog } from './log.js';

/**
 * Front Gate (door-1) as the client hands a synced door over (src/client/types.ts, not the simulator's SimDoor):
 * closed, owned, active, no sensor; `overrides` on top.
 */
export function reportedDoor(overrides: Partial<Door> = {}): Door {
  return {
    id: 'door-1',
    name: 'Front Gate',
    entityNumber: 1,
    active: true,
    state: 'CLOSED',
    rawState: 'CLOSED',
    relationship: 'Owner',
    hasBluetoothSensor: false,
    batteryLevel: undefined,
    autoCloseEnabled: false,
    autoCloseDelay: 0,
    ...overrides,
  };
}

/** The controller of a reported door (its doors are not read by a door's update). */
export const reportedDevice: Device = {
  id: 'dev-1',
  active: true,
  softwareVersion: '2.4.1',
  ownerName: 'Ada',
  timeBeforeDoorOpenAlert: 60,
  doors: [],
};

/**
 * A door's options with every extra off, not read-only: the garage door alone, as the catalog's defaults give it (a new
 * option needs no line here; test/unit/config/door-options.test.ts holds the defaults to the catalog). Spread it and set what a
 * test needs.
 */
export const NO_EXTRAS: DoorOptions = { ...doorOptions(plainConfig(), 'door-1'), eveHistory: false };

/** The config of a user who filled in only the account. */
/** The door's extras switched on: an open-and-close automation switch, a left-open sensor at 120 s, a contact sensor. */
export const ALL_EXTRAS: DoorOptions = {
  ...NO_EXTRAS,
  automationSwitch: 'open-close',
  leftOpenSensor: true,
  leftOpenAfter: 120,
  contactSensor: true,
};

function plainConfig(): PluginConfig {
  const result = parseConfig({ accessToken: 'tok-secret-123', baseUrl: 'https://api.example.com' });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
}

/** Front Gate's accessory (door-1 on dev-1) as the cache holds it, last known closed; `cached` on top of its context. */
export function frontGateAccessory(cached: Partial<DoorContext> = {}): PlatformAccessory<DoorContext> {
  const accessory = new PlatformAccessory<DoorContext>('Front Gate', hap.uuid.generate('door-1'));
  accessory.context = { doorId: 'door-1', deviceId: 'dev-1', name: 'Front Gate', state: 'CLOSED', ...cached };
  return accessory;
}

/** A door built by `doorRig`, with what a test reads back of its dependencies. */
export interface DoorRig {
  door: DoorAccessory;
  accessory: PlatformAccessory<DoorContext>;
  /** The dependencies it was built with: spread them to build a second handler on the same accessory (a restart). */
  deps: DoorAccessoryDeps;
  /** The clock `now` reads and the door's timers run on, unless the test gave its own. */
  clock: ManualClock;
  log: CapturedLog;
  /** Every toggle the door sent (the test's toggle, or one the service accepts, behind a spy). */
  toggle: Mock<DoorAccessoryDeps['toggle']>;
  /** The platform's "a command was accepted, sync soon" hook, a spy. */
  hurried: Mock<() => void>;
}

/**
 * A DoorAccessory on `accessory` (Front Gate from the cache by default) with the dependencies the platform gives it:
 * Homebridge's HAP, a captured log, a toggle the service accepts, a 60 s travel time-out, a 20 % low battery, no extras,
 * and a ManualClock for `now` and the door's timers. `deps` replaces any of them: `options: undefined` is a config that
 * could not be read, `clock: undefined` leaves the door's timers on the real clock (for vi's fake timers).
 */
export function doorRig(
  deps: Partial<Omit<DoorAccessoryDeps, 'log'>> & { log?: CapturedLog } = {},
  accessory: PlatformAccessory<DoorContext> = frontGateAccessory(),
): DoorRig {
  const clock = new ManualClock();
  const log = deps.log ?? captureLog();
  const toggle = vi.fn(deps.toggle ?? ((_doorId: string, _state: DoorState) => Promise.resolve()));
  const hurried = vi.fn(deps.onCommandAccepted ?? (() => undefined));
  const built: DoorAccessoryDeps = {
    api: { hap } as unknown as API,
    transitionTimeoutMs: 60_000,
    lowBatteryThresholdPct: 20,
    options: NO_EXTRAS,
    now: () => clock.now(),
    clock,
    ...deps,
    log,
    toggle,
    onCommandAccepted: hurried,
  };
  return { door: new DoorAccessory(built, accessory), accessory, deps: built, clock, log, toggle, hurried };
}

/** The travel time-out of garageRig's door, in milliseconds. */
export const GARAGE_TRAVEL_TIMEOUT_MS = 60_000;

/**
 * A garage door on the real HAP with its GarageDoorOpener's current and target characteristics at hand, `now` a plain
 * number the test moves (`clock.now`), the door's timers on the real clock (for vi's fake timers).
 */
export function garageRig(
  toggle: (doorId: string, state: DoorState) => Promise<void> = () => Promise.resolve(),
  options: DoorOptions = NO_EXTRAS,
) {
  // A plain number for now, and the door's timers on the real clock, which some tests fake with vi.
  const clock = { now: 0 };
  const {
    door,
    accessory,
    deps,
    log,
    hurried,
    toggle: toggleSpy,
  } = doorRig({
    toggle,
    options,
    transitionTimeoutMs: GARAGE_TRAVEL_TIMEOUT_MS,
    now: () => clock.now,
    clock: undefined,
  });
  const garage = accessory.getService(hap.Service.GarageDoorOpener);
  if (!garage) throw new Error('no garage door service');
  const current = garage.getCharacteristic(hap.Characteristic.CurrentDoorState);
  const target = garage.getCharacteristic(hap.Characteristic.TargetDoorState);
  return { door, accessory, deps, log, clock, hurried, toggle: toggleSpy, current, target };
}

/** A door as the settings page lists it (src/ui/server/account-summary.ts): closed, owned, active, no sensor. */
export const pageDoor = (id: string, controllerId = 'dev-a'): DoorSummary => ({
  id,
  name: `Door ${id}`,
  controllerId,
  state: 'CLOSED',
  active: true,
  owned: true,
  relationship: 'Owner',
  sensor: false,
  batteryPct: undefined,
});

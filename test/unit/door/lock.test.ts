// A door shown as a lock (showAs "lock") on the real HAP-NodeJS and Homebridge PlatformAccessory, with a simulated clock
// and a scripted toggle: unlock opens, lock closes, jammed when a commanded move does not arrive, and a kind change
// that keeps the accessory.
import * as hap from 'hap-nodejs';
import { describe, expect, it } from 'vitest';

import { ServiceError } from '../../../src/client/errors.js';
import { DoorAccessory } from '../../../src/door/door-accessory.js';
import type { DoorOptions } from '../../../src/config/door-options.js';
import { doorRig, frontGateAccessory, NO_EXTRAS, reportedDevice as device, reportedDoor as makeDoor } from '../../support/door-fixtures.js';

const { Characteristic: C, Service: S } = hap;
const TIMEOUT_MS = 60_000;
const LOCK: DoorOptions = { ...NO_EXTRAS, showAs: 'lock' };

function setup(options: DoorOptions = LOCK, accessory = frontGateAccessory()) {
  const clock = { now: 0 };
  const { door, deps, log, hurried, toggle } = doorRig(
    { options, transitionTimeoutMs: TIMEOUT_MS, now: () => clock.now, clock: undefined },
    accessory,
  );
  const lock = accessory.getService(S.LockMechanism);
  if (!lock) throw new Error('no lock service');
  const current = lock.getCharacteristic(C.LockCurrentState);
  const target = lock.getCharacteristic(C.LockTargetState);
  /** Homebridge restarts with `next` as the door's options: a new handler on the same cached accessory. */
  const restart = (next: DoorOptions | undefined) => new DoorAccessory({ ...deps, options: next }, accessory);
  return { door, accessory, log, clock, hurried, toggle, lock, current, target, restart };
}

describe('a door shown as a lock', () => {
  it('is a LockMechanism, not a garage door, named as the door, locked while the door is closed', async () => {
    const t = setup();
    expect(t.accessory.getService(S.GarageDoorOpener)).toBeUndefined();
    expect(t.lock.getCharacteristic(C.Name).value).toBe('Front Gate');
    expect(t.lock.getCharacteristic(C.ConfiguredName).value).toBe('Front Gate');
    expect(await t.current.handleGetRequest()).toBe(C.LockCurrentState.SECURED);
    expect(await t.target.handleGetRequest()).toBe(C.LockTargetState.SECURED);
  });

  it('unlocks: one OPEN toggle, Unlocked once the door reports open; locks: one CLOSED toggle, Locked once it reports closed', async () => {
    const t = setup();
    await t.target.handleSetRequest(C.LockTargetState.UNSECURED);
    expect(t.toggle.mock.calls).toEqual([['door-1', 'OPEN']]);
    expect(t.hurried).toHaveBeenCalledOnce();
    // Moving: the target is unlocked, the lock stays locked until the door reports it arrived.
    expect([t.current.value, t.target.value]).toEqual([C.LockCurrentState.SECURED, C.LockTargetState.UNSECURED]);
    t.door.update(makeDoor({ state: 'CLOSED' }), device);
    expect(t.current.value).toBe(C.LockCurrentState.SECURED);
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    expect([t.current.value, t.target.value]).toEqual([C.LockCurrentState.UNSECURED, C.LockTargetState.UNSECURED]);

    await t.target.handleSetRequest(C.LockTargetState.SECURED);
    expect(t.toggle.mock.calls).toEqual([
      ['door-1', 'OPEN'],
      ['door-1', 'CLOSED'],
    ]);
    expect(t.current.value).toBe(C.LockCurrentState.UNSECURED);
    t.door.update(makeDoor({ state: 'CLOSED' }), device);
    expect([t.current.value, t.target.value]).toEqual([C.LockCurrentState.SECURED, C.LockTargetState.SECURED]);
  });

  it('sends nothing to unlock a door that is already open', async () => {
    const t = setup();
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    await t.target.handleSetRequest(C.LockTargetState.UNSECURED);
    expect(t.toggle).not.toHaveBeenCalled();
    expect(t.log.lines.at(-1)?.text).toBe('Front Gate is already open; nothing sent.');
  });

  it('shows jammed when the door does not arrive in time, and clears it when it arrives', async () => {
    const t = setup();
    await t.target.handleSetRequest(C.LockTargetState.UNSECURED);
    t.clock.now = TIMEOUT_MS;
    t.door.tick();
    expect(await t.current.handleGetRequest()).toBe(C.LockCurrentState.JAMMED);
    expect(t.accessory.context.missedTarget).toBe('OPEN');
    expect(t.log.lines.at(-1)).toEqual({
      level: 'warn',
      text: 'Front Gate did not report open within 60 s; showing its last reported state (closed) and an obstruction until it reports open or gets a new command.',
    });
    // Each poll that still finds it closed keeps the alert; the door arriving ends it.
    t.door.update(makeDoor({ state: 'CLOSED' }), device);
    expect(t.current.value).toBe(C.LockCurrentState.JAMMED);
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    expect([t.current.value, t.target.value]).toEqual([C.LockCurrentState.UNSECURED, C.LockTargetState.UNSECURED]);
  });

  it('keeps jammed across a restart, as the garage door keeps its obstruction', () => {
    const t = setup(LOCK, frontGateAccessory({ missedTarget: 'OPEN' }));
    expect(t.current.value).toBe(C.LockCurrentState.JAMMED);
  });

  it('shows Locked again when the door closes by itself (auto-close), with no command', () => {
    const t = setup();
    t.door.applyEvent('OPEN', 1_000, 'Ada, Keypad');
    expect(t.current.value).toBe(C.LockCurrentState.UNSECURED);
    t.clock.now = 30_000;
    t.door.update(makeDoor({ state: 'CLOSED' }), device);
    expect([t.current.value, t.target.value]).toEqual([C.LockCurrentState.SECURED, C.LockTargetState.SECURED]);
    expect(t.toggle).not.toHaveBeenCalled();
  });

  it('refuses to unlock a read-only door and stays locked', async () => {
    const t = setup({ ...LOCK, readOnly: true });
    await expect(t.target.handleSetRequest(C.LockTargetState.UNSECURED)).rejects.toBe(hap.HAPStatus.INSUFFICIENT_PRIVILEGES);
    await new Promise((resolve) => setImmediate(resolve));
    expect([t.current.value, t.target.value]).toEqual([C.LockCurrentState.SECURED, C.LockTargetState.SECURED]);
    expect(t.toggle).not.toHaveBeenCalled();
    expect(t.log.lines.at(-1)).toEqual({
      level: 'warn',
      text: 'Front Gate is read-only in the plugin settings; the command to open it was not sent.',
    });
  });

  it('answers No Response while the account is unreadable', async () => {
    const t = setup();
    t.door.setAccountReadable(false);
    await expect(t.current.handleGetRequest()).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    await expect(t.target.handleGetRequest()).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
  });

  it('sends no second pulse: after an unlock with no answer, a lock is refused until the door reports where it is', async () => {
    const t = setup();
    t.toggle.mockImplementation(() => Promise.reject(new ServiceError('timeout', 'the service did not answer in time')));
    await expect(t.target.handleSetRequest(C.LockTargetState.UNSECURED)).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    await expect(t.target.handleSetRequest(C.LockTargetState.SECURED)).rejects.toBe(hap.HAPStatus.RESOURCE_BUSY);
    expect(t.toggle).toHaveBeenCalledOnce();
  });

  it('keeps the automation switch, which opens the door through the same command path', async () => {
    const t = setup({ ...LOCK, automationSwitch: 'open' });
    const sw = t.accessory.getServiceById(S.Switch, 'automation-switch');
    expect(sw).toBeDefined();
    await sw?.getCharacteristic(C.On).handleSetRequest(true);
    expect(t.toggle.mock.calls).toEqual([['door-1', 'OPEN']]);
    expect(t.target.value).toBe(C.LockTargetState.UNSECURED);
  });
});

describe('changing "Show in Home as"', () => {
  it('keeps the accessory, its name and its extras, swaps only the main service, and moves nothing', () => {
    const accessory = frontGateAccessory({ homeName: 'Office Door', name: 'Office Door' });
    const t = setup({ ...LOCK, contactSensor: true }, accessory);
    const uuid = accessory.UUID;
    const garage = t.restart({ ...NO_EXTRAS, contactSensor: true });
    expect(garage.kindChanged).toBe(true);
    expect(accessory.UUID).toBe(uuid);
    expect(accessory.getService(S.LockMechanism)).toBeUndefined();
    const garageService = accessory.getService(S.GarageDoorOpener);
    expect(garageService?.getCharacteristic(C.ConfiguredName).value).toBe('Office Door');
    expect(garageService?.getCharacteristic(C.CurrentDoorState).value).toBe(C.CurrentDoorState.CLOSED);
    expect(accessory.getServiceById(S.ContactSensor, 'contact')).toBeDefined();
    expect(t.log.lines.at(-1)).toEqual({
      level: 'warn',
      text:
        'Office Door is now shown in Home as a garage door instead of a lock ("Show in Home as" in the plugin settings). ' +
        'It keeps its name and room, but Home automations and scenes made for a lock must be made again.',
    });
    const lock = t.restart({ ...LOCK, contactSensor: true });
    expect(lock.kindChanged).toBe(true);
    expect(accessory.getService(S.GarageDoorOpener)).toBeUndefined();
    expect(accessory.getService(S.LockMechanism)?.getCharacteristic(C.LockCurrentState).value).toBe(C.LockCurrentState.SECURED);
    expect(accessory.getService(S.LockMechanism)?.getCharacteristic(C.ConfiguredName).value).toBe('Office Door');
    expect(t.log.lines.at(-1)?.text).toMatch(/^Office Door is now shown in Home as a lock instead of a garage door/);
    expect(accessory.services.map((service) => service.UUID).sort()).toEqual(
      [S.AccessoryInformation.UUID, S.LockMechanism.UUID, S.ContactSensor.UUID].sort(),
    );
    expect(t.toggle).not.toHaveBeenCalled();
  });

  it('keeps the kind it has, without a word, when the settings cannot be read or do not change it', () => {
    const t = setup();
    const unreadable = t.restart(undefined);
    expect(unreadable.kindChanged).toBe(false);
    expect(t.accessory.getService(S.LockMechanism)).toBeDefined();
    const same = t.restart(LOCK);
    expect(same.kindChanged).toBe(false);
    expect(t.log.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it("keeps only the settings' kind of a cache that holds both, without a word, and has the cache written", () => {
    const t = setup();
    // As an older version (or an edited cache) could leave it: a lock service beside the garage door.
    t.accessory.addService(S.GarageDoorOpener, 'Front Gate');
    const garage = t.restart(NO_EXTRAS);
    expect(garage.kind).toBe('garage-door');
    expect(garage.kindChanged).toBe(true);
    expect([t.accessory.getService(S.GarageDoorOpener) !== undefined, t.accessory.getService(S.LockMechanism)]).toEqual([true, undefined]);
    expect(t.log.lines.filter((line) => line.level === 'warn')).toEqual([]);
    expect(t.toggle).not.toHaveBeenCalled();
  });
});

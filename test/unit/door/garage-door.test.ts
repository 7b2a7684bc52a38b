// DoorAccessory on the real HAP-NodeJS and Homebridge PlatformAccessory, with a simulated clock and a scripted toggle.
import * as hap from 'hap-nodejs';
import { describe, expect, it, vi } from 'vitest';

import { DoorAccessory } from '../../../src/door/door-accessory.js';
import { ServiceError, ToggleRejectedError } from '../../../src/client/errors.js';
import { AUTOMATION_SWITCH_RESET_MS } from '../../../src/settings.js';
import {
  ALL_EXTRAS,
  GARAGE_TRAVEL_TIMEOUT_MS,
  garageRig as setup,
  NO_EXTRAS,
  reportedDevice as device,
  reportedDoor as makeDoor,
} from '../../support/door-fixtures.js';

const { Characteristic: C, Service: S } = hap;

describe('DoorAccessory', () => {
  it('opens: sends one toggle, shows Opening at once, Open when the door reports it', async () => {
    const t = setup();
    await t.target.handleSetRequest(C.TargetDoorState.OPEN);
    expect(t.toggle).toHaveBeenCalledWith('door-1', 'OPEN');
    expect(await t.current.handleGetRequest()).toBe(C.CurrentDoorState.OPENING);
    expect(await t.target.handleGetRequest()).toBe(C.TargetDoorState.OPEN);
    expect(t.hurried).toHaveBeenCalledOnce();
    t.door.update(makeDoor({ state: 'CLOSED' }), device);
    expect(t.current.value).toBe(C.CurrentDoorState.OPENING);
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    expect(t.current.value).toBe(C.CurrentDoorState.OPEN);
    expect(t.accessory.context.state).toBe('OPEN');
  });

  it('fails the write and puts the target back when the service refuses', async () => {
    const t = setup(() => Promise.reject(new ToggleRejectedError(428, 'Your Gate Controller requires pairing a door sensor. (428)')));
    await expect(t.target.handleSetRequest(C.TargetDoorState.OPEN)).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.target.value).toBe(C.TargetDoorState.CLOSED);
    expect(t.current.value).toBe(C.CurrentDoorState.CLOSED);
    expect(t.log.lines).toContainEqual({
      level: 'error',
      text: 'Front Gate could not be opened: Your Gate Controller requires pairing a door sensor. (428)',
    });
  });

  it('warns after a toggle time-out that the door may still move, and shows it moving', async () => {
    const t = setup(() => Promise.reject(new ServiceError('timeout', 'the service did not answer in time')));
    await expect(t.target.handleSetRequest(C.TargetDoorState.OPEN)).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    expect(t.log.lines.at(-1)).toEqual({
      level: 'warn',
      text:
        'Front Gate may still open: the service did not answer in time, and it may act on the command yet. It is shown opening, ' +
        'and no other command is sent to it until it reports where it is (at most 60 s).',
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect([t.current.value, t.target.value]).toEqual([C.CurrentDoorState.OPENING, C.TargetDoorState.OPEN]);
    expect(t.hurried).toHaveBeenCalledOnce();
  });

  it('never overlaps commands to one door, and drops a repeat of the same target', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const release: (() => void)[] = [];
    const t = setup(() => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      return new Promise<void>((resolve) => {
        release.push(() => {
          inFlight -= 1;
          resolve();
        });
      });
    });
    const first = t.target.handleSetRequest(C.TargetDoorState.OPEN);
    const repeat = t.target.handleSetRequest(C.TargetDoorState.OPEN);
    const reverse = t.target.handleSetRequest(C.TargetDoorState.CLOSED);
    await vi.waitFor(() => expect(release).toHaveLength(1));
    release[0]?.();
    await Promise.all([first, repeat]);
    await vi.waitFor(() => expect(release).toHaveLength(2));
    release[1]?.();
    await reverse;
    expect(t.toggle.mock.calls).toEqual([
      ['door-1', 'OPEN'],
      ['door-1', 'CLOSED'],
    ]);
    expect(maxInFlight).toBe(1);
  });

  it('shows the real state again when the door does not arrive in time, even without a sync', async () => {
    const t = setup();
    await t.target.handleSetRequest(C.TargetDoorState.OPEN);
    t.clock.now = GARAGE_TRAVEL_TIMEOUT_MS - 1;
    t.door.tick();
    expect(t.current.value).toBe(C.CurrentDoorState.OPENING);
    t.clock.now = GARAGE_TRAVEL_TIMEOUT_MS;
    t.door.tick();
    expect([t.current.value, t.target.value]).toEqual([C.CurrentDoorState.CLOSED, C.TargetDoorState.CLOSED]);
    expect(t.log.lines.at(-1)).toEqual({
      level: 'warn',
      text: 'Front Gate did not report open within 60 s; showing its last reported state (closed) and an obstruction until it reports open or gets a new command.',
    });
  });

  it('pushes the target before the current state when the door moves by itself', () => {
    const t = setup();
    const order: string[] = [];
    t.target.on('change', () => order.push('target'));
    t.current.on('change', () => order.push('current'));
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    expect(order).toEqual(['target', 'current']);
  });

  it('keeps the last known state on an unknown one, and says so once', () => {
    const t = setup();
    t.door.update(makeDoor({ state: null, rawState: 'AJAR' }), device);
    t.door.update(makeDoor({ state: null, rawState: 'AJAR' }), device);
    expect(t.current.value).toBe(C.CurrentDoorState.CLOSED);
    expect(t.log.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('answers No Response while the account is unreadable or the controller inactive', async () => {
    const t = setup();
    t.door.setAccountReadable(false);
    await expect(t.current.handleGetRequest()).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    t.door.setAccountReadable(true);
    expect(await t.current.handleGetRequest()).toBe(C.CurrentDoorState.CLOSED);
    t.door.update(makeDoor(), { ...device, active: false });
    await expect(t.target.handleGetRequest()).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
  });

  it('adds a Battery service with a sensor, warns at the threshold, and removes it with the sensor', () => {
    const t = setup();
    t.door.update(makeDoor({ hasBluetoothSensor: true, batteryLevel: 21 }), device);
    const battery = t.accessory.getService(S.Battery);
    expect(battery?.getCharacteristic(C.StatusLowBattery).value).toBe(C.StatusLowBattery.BATTERY_LEVEL_NORMAL);
    t.door.update(makeDoor({ hasBluetoothSensor: true, batteryLevel: 20 }), device);
    expect(battery?.getCharacteristic(C.BatteryLevel).value).toBe(20);
    expect(battery?.getCharacteristic(C.StatusLowBattery).value).toBe(C.StatusLowBattery.BATTERY_LEVEL_LOW);
    expect(battery?.getCharacteristic(C.ChargingState).value).toBe(C.ChargingState.NOT_CHARGEABLE);
    t.door.update(makeDoor({ hasBluetoothSensor: false }), device);
    expect(t.accessory.getService(S.Battery)).toBeUndefined();
  });

  it('hides battery information when asked: no Battery service for a reporting sensor, and a cached one is removed', () => {
    const t = setup();
    t.door.update(makeDoor({ hasBluetoothSensor: true, batteryLevel: 5 }), device);
    expect(t.accessory.getService(S.Battery)).toBeDefined();
    // Homebridge restarts with the option on: the cached service must go, taking its low-battery alarm with it.
    const hidden = new DoorAccessory({ ...t.deps, options: { ...NO_EXTRAS, hideBattery: true } }, t.accessory);
    expect(t.accessory.getService(S.Battery)).toBeUndefined();
    hidden.update(makeDoor({ hasBluetoothSensor: true, batteryLevel: 5 }), device);
    expect(t.accessory.getService(S.Battery)).toBeUndefined();
  });

  it('raises no false alarm when a sensor reports no level: no Battery service until one arrives, then the last known level stays', () => {
    const t = setup();
    t.door.update(makeDoor({ hasBluetoothSensor: true, batteryLevel: undefined }), device);
    // HAP would show a new Battery service at 0 %; without a reading there is nothing true to show.
    expect(t.accessory.getService(S.Battery)).toBeUndefined();
    t.door.update(makeDoor({ hasBluetoothSensor: true, batteryLevel: 64 }), device);
    const battery = t.accessory.getService(S.Battery);
    expect(battery?.getCharacteristic(C.BatteryLevel).value).toBe(64);
    t.door.update(makeDoor({ hasBluetoothSensor: true, batteryLevel: undefined }), device);
    expect(battery?.getCharacteristic(C.BatteryLevel).value).toBe(64);
    expect(battery?.getCharacteristic(C.StatusLowBattery).value).toBe(C.StatusLowBattery.BATTERY_LEVEL_NORMAL);
  });
});

describe('DoorAccessory and webhook events', () => {
  it('ignores an event older than the newest applied, but not for ever (the service clock may run ahead)', () => {
    const t = setup();
    expect(t.door.applyEvent('OPEN', 100_000, 'Ada, Keypad')).toBe('changed');
    t.clock.now = 1_000;
    expect(t.door.applyEvent('CLOSED', 50_000, 'Ada, Keypad')).toBe('stale');
    expect(t.current.value).toBe(C.CurrentDoorState.OPEN);
    t.clock.now = 1_000 + 60_000;
    expect(t.door.applyEvent('CLOSED', 60_000, 'Ada, Keypad')).toBe('changed');
    expect(t.current.value).toBe(C.CurrentDoorState.CLOSED);
  });
});

describe('DoorAccessory options', () => {
  it('refuses writes of a read-only door with a clear log line and keeps its target', async () => {
    const t = setup(undefined, { ...NO_EXTRAS, readOnly: true });
    await expect(t.target.handleSetRequest(C.TargetDoorState.OPEN)).rejects.toBe(hap.HAPStatus.INSUFFICIENT_PRIVILEGES);
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.toggle).not.toHaveBeenCalled();
    expect(t.target.value).toBe(C.TargetDoorState.CLOSED);
    expect(t.log.lines.at(-1)).toEqual({
      level: 'warn',
      text: 'Front Gate is read-only in the plugin settings; the command to open it was not sent.',
    });
  });

  it.each(['open', 'open-close'] as const)(
    'refuses the %s switch while the door answers No Response: the write fails, one log line',
    async (mode) => {
      vi.useFakeTimers();
      try {
        const t = setup(undefined, { ...NO_EXTRAS, automationSwitch: mode });
        const on = t.accessory.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.On);
        t.door.setAccountReadable(false);
        const before = t.log.lines.length;
        await expect(on?.handleSetRequest(true)).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
        expect(t.toggle).not.toHaveBeenCalled();
        expect(t.log.lines.slice(before)).toEqual([
          { level: 'warn', text: 'Front Gate answers No Response, so its switch did not open it.' },
        ]);
        await vi.advanceTimersByTimeAsync(AUTOMATION_SWITCH_RESET_MS);
        expect(on?.value).toBe(false);
        t.door.dispose();
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it.each(['open', 'open-close'] as const)('refuses the %s switch of a read-only door: the write fails, one log line', async (mode) => {
    vi.useFakeTimers();
    try {
      const t = setup(undefined, { ...NO_EXTRAS, readOnly: true, automationSwitch: mode });
      const on = t.accessory.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.On);
      const before = t.log.lines.length;
      await expect(on?.handleSetRequest(true)).rejects.toBe(hap.HAPStatus.INSUFFICIENT_PRIVILEGES);
      await vi.advanceTimersByTimeAsync(AUTOMATION_SWITCH_RESET_MS);
      expect(t.toggle).not.toHaveBeenCalled();
      expect(t.log.lines.slice(before)).toEqual([
        { level: 'warn', text: 'Front Gate is read-only in the plugin settings; the command to open it was not sent.' },
      ]);
      expect(on?.value).toBe(false);
      t.door.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([2_147_484, 5_000_000])(
    'trips the left-open sensor for a controller alert time past what a timer holds (%d s)',
    async (alertS) => {
      vi.useFakeTimers();
      try {
        const t = setup(undefined, { ...ALL_EXTRAS, leftOpenAfter: undefined });
        // The door's clock follows the fake timers, so a timer that fires sees the time it fires at.
        Object.defineProperty(t.clock, 'now', { get: () => Date.now() });
        const occupancy = t.accessory.getServiceById(S.OccupancySensor, 'left-open')?.getCharacteristic(C.OccupancyDetected);
        t.door.update(makeDoor({ state: 'OPEN' }), { ...device, timeBeforeDoorOpenAlert: alertS });
        // Unclamped, the timer fired after 1 ms, found the door not yet left open and never woke again.
        await vi.advanceTimersByTimeAsync(1_000);
        expect(occupancy?.value).toBe(C.OccupancyDetected.OCCUPANCY_NOT_DETECTED);
        await vi.advanceTimersByTimeAsync(alertS * 1000 - 2_000);
        expect(occupancy?.value).toBe(C.OccupancyDetected.OCCUPANCY_NOT_DETECTED);
        await vi.advanceTimersByTimeAsync(1_000);
        expect(occupancy?.value).toBe(C.OccupancyDetected.OCCUPANCY_DETECTED);
        t.door.dispose();
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it("uses the controller's own alert time when none is set", () => {
    const t = setup(undefined, { ...ALL_EXTRAS, leftOpenAfter: undefined });
    const occupancy = t.accessory.getServiceById(S.OccupancySensor, 'left-open')?.getCharacteristic(C.OccupancyDetected);
    t.door.update(makeDoor({ state: 'OPEN' }), { ...device, timeBeforeDoorOpenAlert: 30 });
    t.clock.now = 30_000;
    t.door.tick();
    t.door.update(makeDoor({ state: 'OPEN' }), { ...device, timeBeforeDoorOpenAlert: 30 });
    expect(occupancy?.value).toBe(C.OccupancyDetected.OCCUPANCY_DETECTED);
    t.door.dispose();
  });

  it('removes extras switched off and keeps the accessory, and keeps them all when the config is unreadable', () => {
    const t = setup(undefined, ALL_EXTRAS);
    t.door.dispose();
    const kept = new DoorAccessory({ ...t.deps, options: undefined }, t.accessory);
    expect(t.accessory.getServiceById(S.Switch, 'automation-switch')).toBeDefined();
    kept.dispose();
    const trimmed = new DoorAccessory({ ...t.deps, options: { ...NO_EXTRAS, contactSensor: true } }, t.accessory);
    expect(t.accessory.getServiceById(S.Switch, 'automation-switch')).toBeUndefined();
    expect(t.accessory.getServiceById(S.OccupancySensor, 'left-open')).toBeUndefined();
    expect(t.accessory.getServiceById(S.ContactSensor, 'contact')).toBeDefined();
    expect(t.accessory.UUID).toBe(hap.uuid.generate('door-1'));
    trimmed.dispose();
  });

  it('shows the name set in the options', () => {
    const t = setup(undefined, { ...NO_EXTRAS, name: 'Street Gate!' });
    expect(t.accessory.displayName).toBe('Street Gate');
    expect(t.accessory.getService(S.GarageDoorOpener)?.getCharacteristic(C.Name).value).toBe('Street Gate');
  });

  it('expects an auto-closing door to close after its delay', () => {
    const t = setup();
    t.door.update(makeDoor({ state: 'OPEN', autoCloseEnabled: true, autoCloseDelay: 90 }), device);
    expect(t.door.facts.expectedAutoCloseAtMs).toBe(90_000);
    t.door.update(makeDoor({ state: 'CLOSED', autoCloseEnabled: true, autoCloseDelay: 90 }), device);
    expect(t.door.facts.expectedAutoCloseAtMs).toBeUndefined();
  });
});

/** A toggle that takes `ms` on the simulated clock before it settles: resolves, or rejects with `error`. */
function slowToggle(t: { clock: { now: number } }, ms: number, error?: Error) {
  return () =>
    new Promise<void>((resolve, reject) => {
      setImmediate(() => {
        t.clock.now += ms;
        if (error) reject(error);
        else resolve();
      });
    });
}

const NO_ANSWER = new ServiceError('timeout', 'the service did not answer in time');

describe('DoorAccessory: no second pulse behind a slow or silent service', () => {
  it('sends one toggle when two controllers write OPEN and the first toggle gets no answer', async () => {
    const t = setup();
    t.toggle.mockImplementation(slowToggle(t, 8_000, NO_ANSWER));
    const first = t.target.handleSetRequest(C.TargetDoorState.OPEN);
    const second = t.target.handleSetRequest(C.TargetDoorState.OPEN);
    await expect(first).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    // The repeat waited for the silent toggle; the door is now held as possibly opening, so nothing more is sent.
    await second;
    expect(t.toggle).toHaveBeenCalledOnce();
    expect(t.log.lines.at(-1)?.text).toBe('Front Gate is already opening; nothing sent.');
  });

  it('after a toggle with no answer: a repeat is already on its way, a reverse is refused, until the door reports the target', async () => {
    const t = setup(() => Promise.reject(NO_ANSWER));
    await expect(t.target.handleSetRequest(C.TargetDoorState.OPEN)).rejects.toBeDefined();
    t.clock.now = 9_000;
    await t.target.handleSetRequest(C.TargetDoorState.OPEN);
    await expect(t.target.handleSetRequest(C.TargetDoorState.CLOSED)).rejects.toBe(hap.HAPStatus.RESOURCE_BUSY);
    expect(t.log.lines.at(-1)).toEqual({
      level: 'warn',
      text:
        'Front Gate: the command to close it was not sent: the service did not say whether it took the command to open it (no answer, or an answer such as a 5xx or a redirect), which may still move it. ' +
        'Try again once it reports where it is (at most 51 s).',
    });
    // A sync that still finds it closed says nothing about a pulse the service may act on later: still held.
    t.door.update(makeDoor({ state: 'CLOSED' }), device);
    await expect(t.target.handleSetRequest(C.TargetDoorState.CLOSED)).rejects.toBe(hap.HAPStatus.RESOURCE_BUSY);
    expect(t.toggle.mock.calls).toEqual([['door-1', 'OPEN']]);
    // The door reports where the lost command took it: commands go out again.
    t.door.update(makeDoor({ state: 'OPEN' }), device);
    t.toggle.mockImplementation(() => Promise.resolve());
    await t.target.handleSetRequest(C.TargetDoorState.CLOSED);
    expect(t.toggle.mock.calls).toEqual([
      ['door-1', 'OPEN'],
      ['door-1', 'CLOSED'],
    ]);
  });

  it('after a toggle with no answer, commands go out again once the movement times out (with the obstruction)', async () => {
    const t = setup(() => Promise.reject(NO_ANSWER));
    await expect(t.target.handleSetRequest(C.TargetDoorState.OPEN)).rejects.toBeDefined();
    t.clock.now = GARAGE_TRAVEL_TIMEOUT_MS;
    t.door.tick();
    expect(t.current.value).toBe(C.CurrentDoorState.CLOSED);
    t.toggle.mockImplementation(() => Promise.resolve());
    await t.target.handleSetRequest(C.TargetDoorState.OPEN);
    expect(t.toggle).toHaveBeenCalledTimes(2);
  });

  it('holds nothing when the toggle surely never reached the service (refused connection, an error status)', async () => {
    const refused = new ServiceError(
      'network',
      'the service could not be reached (connection refused, ECONNREFUSED)',
      undefined,
      undefined,
      false,
    );
    for (const error of [refused, new ToggleRejectedError(404, 'Door not found')]) {
      const t = setup(() => Promise.reject(error));
      await expect(t.target.handleSetRequest(C.TargetDoorState.OPEN)).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
      await new Promise((resolve) => setImmediate(resolve));
      expect(t.current.value).toBe(C.CurrentDoorState.CLOSED);
      t.toggle.mockImplementation(() => Promise.resolve());
      await t.target.handleSetRequest(C.TargetDoorState.OPEN);
      expect(t.toggle).toHaveBeenCalledTimes(2);
    }
  });

  it('holds the door after a gateway error (the proxy may have passed the command on)', async () => {
    const t = setup(() => Promise.reject(new ToggleRejectedError(504, undefined)));
    await expect(t.target.handleSetRequest(C.TargetDoorState.OPEN)).rejects.toBeDefined();
    await expect(t.target.handleSetRequest(C.TargetDoorState.CLOSED)).rejects.toBe(hap.HAPStatus.RESOURCE_BUSY);
    expect(t.toggle).toHaveBeenCalledOnce();
  });

  it('OPEN, CLOSE, OPEN from three controllers behind a 6 s toggle: one toggle, the waiting wishes collapse to the latest', async () => {
    const t = setup();
    t.toggle.mockImplementation(slowToggle(t, 6_000));
    const writes = [C.TargetDoorState.OPEN, C.TargetDoorState.CLOSED, C.TargetDoorState.OPEN].map((value) =>
      t.target.handleSetRequest(value),
    );
    const results = await Promise.allSettled(writes);
    expect(t.toggle.mock.calls).toEqual([['door-1', 'OPEN']]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(t.log.lines.map((l) => l.text)).toContain(
      'Front Gate: the command to close it was replaced by a later one to open before it was sent.',
    );
    expect([t.current.value, t.target.value]).toEqual([C.CurrentDoorState.OPENING, C.TargetDoorState.OPEN]);
  });

  it('drops a command that waited too long behind a slow toggle and reports it failed: Home has given up on it', async () => {
    const t = setup();
    t.toggle.mockImplementation(slowToggle(t, 6_000));
    const open = t.target.handleSetRequest(C.TargetDoorState.OPEN);
    const close = t.target.handleSetRequest(C.TargetDoorState.CLOSED);
    await open;
    await expect(close).rejects.toBe(hap.HAPStatus.OPERATION_TIMED_OUT);
    expect(t.toggle.mock.calls).toEqual([['door-1', 'OPEN']]);
    expect(t.log.lines.at(-1)).toEqual({
      level: 'warn',
      text: 'Front Gate: the command to close it was not sent: it waited 6 s behind the previous one, and Home reports a command as failed after 10 s. Try again.',
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect([t.current.value, t.target.value]).toEqual([C.CurrentDoorState.OPENING, C.TargetDoorState.OPEN]);
  });

  it('three presses of the open-only switch while the service does not answer: one toggle', async () => {
    const t = setup(() => Promise.reject(NO_ANSWER), { ...NO_EXTRAS, automationSwitch: 'open' });
    t.toggle.mockImplementation(slowToggle(t, 8_000, NO_ANSWER));
    const on = t.accessory.getServiceById(S.Switch, 'automation-switch')?.getCharacteristic(C.On);
    if (!on) throw new Error('no switch');
    const presses = [on.handleSetRequest(true), on.handleSetRequest(true), on.handleSetRequest(true)];
    await Promise.allSettled(presses);
    await on.handleSetRequest(true).catch(() => undefined);
    expect(t.toggle).toHaveBeenCalledOnce();
  });
});

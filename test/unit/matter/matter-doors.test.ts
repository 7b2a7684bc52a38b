// A door's name and serial number on Matter, which caps both at 32 characters; the Matter modes' table (a missing or
// unknown mode is a type error, proven with @ts-expect-error) and the mode a cached device shows; what a door's faces read of it.
import * as hap from 'hap-nodejs';
import type { HAP } from 'homebridge';
import { describe, expect, it } from 'vitest';

import type { DoorState } from '../../../src/client/types.js';
import { MATTER_FACES, isPersonDevice, matterName, matterSerial, modeOfCached } from '../../../src/matter/matter-doors.js';
import type { MatterModeTable } from '../../../src/matter/matter-doors.js';
import type { MatterAccessory, MatterApi } from '../../../src/matter/matter-api.js';
import { MatterLockFace } from '../../../src/matter/lock-face.js';
import type { MatterDoor } from '../../../src/matter/matter-face.js';
import { MatterSensorFace } from '../../../src/matter/sensor-face.js';
import { MATTER_MODES } from '../../../src/option-catalog.js';
import { LockState, MatterApiDouble } from '../../support/matter-double.js';

describe('matterName', () => {
  it('keeps a name that fits', () => {
    expect(matterName('Front Gate')).toBe('Front Gate');
  });

  it('cuts a longer name to 32 characters between two characters as the user sees them, and trims the end', () => {
    expect(matterName('Tiefgarage Nordflügel Einfahrt g\u0308ate')).toBe('Tiefgarage Nordflügel Einfahrt');
    // Words, not one letter repeated: a run of 20 letters or more that is no word is elided (src/util/dense-runs.ts).
    expect(matterName('Garage '.repeat(4) + 'Nor🚗 Gate')).toBe('Garage Garage Garage Garage Nor');
    expect(matterName('Barn '.repeat(8))).toBe('Barn Barn Barn Barn Barn Barn Ba');
  });
});

describe('matterSerial', () => {
  it('is the door id when it fits', () => {
    expect(matterSerial('door-17')).toBe('door-17');
  });

  it('is a UUID without its dashes (exactly 32 characters)', () => {
    expect(matterSerial('3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a01')).toBe('3f1c6a528d0e4c1b9a570c2f4d6e8a01');
  });

  it('keeps two long ids with the same start apart, within 32 characters', () => {
    const a = matterSerial('x'.repeat(40) + 'a');
    const b = matterSerial('x'.repeat(40) + 'b');
    expect(a).not.toBe(b);
    expect(Math.max(a.length, b.length)).toBeLessThanOrEqual(32);
  });
});

describe('the Matter modes table', () => {
  it('has one row per mode of the option catalog but off', () => {
    expect(Object.keys(MATTER_FACES).sort()).toEqual(MATTER_MODES.filter((mode) => mode !== 'off').sort());
    expect(Object.values(MATTER_FACES).map((spec) => [spec.words, spec.deviceType])).toEqual([
      ['locks', 'DoorLock'],
      ['contact sensors', 'ContactSensor'],
    ]);
  });

  it('does not compile without a row for every mode, nor with a row for off', () => {
    // @ts-expect-error a table without the sensors' row is not a MatterModeTable
    const missing: MatterModeTable = { locks: MATTER_FACES.locks };
    // @ts-expect-error off shows nothing on Matter, so it has no row
    const off: MatterModeTable = { ...MATTER_FACES, off: MATTER_FACES.locks };
    expect([missing, off]).toHaveLength(2);
  });

  it('tells the mode of cached devices by their context, else their device type, else their clusters', () => {
    const device = (extra: Partial<MatterAccessory>) => ({ UUID: 'u', displayName: 'Front Gate', ...extra }) as MatterAccessory;
    expect(modeOfCached([])).toBeUndefined();
    expect(modeOfCached([device({ context: { mode: 'sensors' }, deviceType: { name: 'DoorLock' } })])).toBe('sensors');
    expect(modeOfCached([device({ deviceType: { name: 'DoorLock' } })])).toBe('locks');
    expect(modeOfCached([device({ deviceType: { name: 'ContactSensor' } })])).toBe('sensors');
    expect(modeOfCached([device({ clusters: { booleanState: {} } })])).toBe('sensors');
    expect(modeOfCached([device({ clusters: { doorLock: {} } })])).toBe('locks');
    expect(modeOfCached([device({ context: { mode: 'off' } }), device({ deviceType: { name: 'ContactSensor' } })])).toBe('sensors');
    expect(modeOfCached([device({ deviceType: { name: 'Light' } })])).toBeUndefined();
  });

  it("never takes a person's occupancy sensor for a door, nor a door for a person, whatever else the device carries", () => {
    const device = (extra: Partial<MatterAccessory>) => ({ UUID: 'u', displayName: 'Grace', ...extra }) as MatterAccessory;
    const people = [
      device({ context: { person: true, label: 'Grace' }, deviceType: { name: 'OccupancySensor' } }),
      // Cached without its context, or without its device type's name.
      device({ deviceType: { name: 'OccupancySensor' }, clusters: { occupancySensing: {} } }),
      device({ clusters: { occupancySensing: {} } }),
      // Even one whose context names a mode.
      device({ context: { person: true, mode: 'locks' } }),
    ];
    expect(people.map(isPersonDevice)).toEqual([true, true, true, true]);
    expect(modeOfCached(people)).toBeUndefined();
    const doors = [device({ context: { doorId: 'd', mode: 'sensors' } }), device({ deviceType: { name: 'DoorLock' } })];
    expect(doors.map(isPersonDevice)).toEqual([false, false]);
    expect(modeOfCached([...people, ...doors])).toBe('sensors');
  });
});

describe("a door's Matter faces", () => {
  it("read the door's model at each call, never a copy, and pass commands to the door", async () => {
    const view = { doorId: 'door-1', name: 'Front Gate', reported: 'CLOSED' as DoorState, target: 'CLOSED' as DoorState };
    const model = { ...view, missedTarget: undefined, available: true, stateKnown: true };
    const wishes: DoorState[] = [];
    const door: MatterDoor = {
      facts: model,
      command: (wanted) => {
        wishes.push(wanted);
        return Promise.resolve();
      },
      onChange: () => () => undefined,
    };
    let shown = true;
    // The double's registration takes its own accessories' type; the faces use only its names, types and status errors.
    const matter = new MatterApiDouble() as unknown as MatterApi;
    const deps = { matter, hap: hap as unknown as HAP, door, settled: () => undefined, shown: () => shown };
    const lock = new MatterLockFace(deps);
    const sensor = new MatterSensorFace(deps);
    model.target = 'OPEN';
    model.name = 'Office Door';
    expect([lock.state().attributes.lockState, sensor.state().attributes.stateValue]).toEqual([LockState.Unlocked, true]);
    await lock.handlers?.doorLock?.unlockDoor?.();
    expect(wishes).toEqual(['OPEN']);
    shown = false;
    await expect(lock.handlers?.doorLock?.lockDoor?.()).rejects.toThrow('Office Door is no longer shown');
  });
});

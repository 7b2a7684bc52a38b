// The simulated account's data model (camelCase; serialized to the contract's snake_case) and a fixed sample account.
import { randomUUID } from 'node:crypto';
import type { SeedHistoryEvent, SimDevice, SimDoor, SimUser } from './types.js';

export const SAMPLE_OWNED_DEVICE_ID = '7b2e9d40-1c3a-4f5e-8b6d-2a4c6e8f0b01';
export const SAMPLE_SHARED_DEVICE_ID = '7b2e9d40-1c3a-4f5e-8b6d-2a4c6e8f0b02';
export const SAMPLE_FRONT_GATE_ID = '3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a01';
export const SAMPLE_GARAGE_DOOR_ID = '3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a02';
export const SAMPLE_SHARED_GATE_ID = '3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a03';

/** People of the household besides the account's user, for changes made outside HomeKit in tests and the demo. */
export const SAMPLE_PEOPLE = {
  grace: { id: '5d8e2f71-4b6a-4c39-9e10-7a3b5c9d1e02', firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@example.com' },
  alan: { id: '5d8e2f71-4b6a-4c39-9e10-7a3b5c9d1e03', firstName: 'Alan', lastName: 'Turing', emailAddress: 'alan@example.com' },
} as const satisfies Record<string, SimUser>;

/** The user whose access token the simulator accepts: owner of device 1, guest on device 2. */
export const SAMPLE_ACCOUNT_USER: SimUser = {
  id: '5d8e2f71-4b6a-4c39-9e10-7a3b5c9d1e01',
  firstName: 'Ada',
  lastName: 'Lovelace',
  emailAddress: 'ada@example.com',
};
const SAMPLE_OTHER_OWNER_ID = '5d8e2f71-4b6a-4c39-9e10-7a3b5c9d1e02';

/** Fixed instant for sample dates so sync output is deterministic. */
const SAMPLE_EPOCH_MS = Date.UTC(2025, 0, 15, 8, 30, 0);

/** A door with neutral defaults (closed, owned, no sensor); override anything. */
export function makeDoor(partial: Partial<SimDoor> = {}): SimDoor {
  return {
    id: randomUUID(),
    name: 'Door',
    entityNumber: 1,
    active: true,
    state: 'CLOSED',
    lastToggled: new Date(SAMPLE_EPOCH_MS),
    userRelationship: 'Owner',
    image: '',
    light: false,
    sensor: true,
    bluetoothSensor: false,
    bluetoothSensorMac: '',
    batteryLevel: 0,
    autoCloseEnabled: false,
    autoCloseDelayS: 0,
    ...partial,
  };
}

/** A device owned by the sample account user with no doors unless given; override anything. */
export function makeDevice(partial: Partial<SimDevice> = {}): SimDevice {
  return {
    id: randomUUID(),
    active: true,
    registered: true,
    ownerUserId: SAMPLE_ACCOUNT_USER.id,
    ownerFirstName: SAMPLE_ACCOUNT_USER.firstName,
    ownerLastName: SAMPLE_ACCOUNT_USER.lastName,
    lastContact: new Date(SAMPLE_EPOCH_MS),
    bluetoothOnboard: false,
    bluetoothMac: '',
    timeBeforeDoorOpenAlertS: 300,
    blackboxCode: 'BB-0000',
    softwareVersion: '2.4.1',
    doors: [],
    ...partial,
  };
}

/** Two devices, three doors; fresh objects on every call so tests never share mutable state. */
export function sampleAccount(): SimDevice[] {
  return [
    makeDevice({
      id: SAMPLE_OWNED_DEVICE_ID,
      bluetoothOnboard: true,
      bluetoothMac: 'A4C1388F2B01',
      blackboxCode: 'BB-4471',
      softwareVersion: '2.4.1',
      doors: [
        makeDoor({
          id: SAMPLE_FRONT_GATE_ID,
          name: 'Front Gate',
          entityNumber: 1,
          bluetoothSensor: true,
          bluetoothSensorMac: 'C8FD19A0B3E4',
          batteryLevel: 85,
        }),
        makeDoor({ id: SAMPLE_GARAGE_DOOR_ID, name: 'Garage Door', entityNumber: 2, light: true }),
      ],
    }),
    makeDevice({
      id: SAMPLE_SHARED_DEVICE_ID,
      ownerUserId: SAMPLE_OTHER_OWNER_ID,
      ownerFirstName: 'Grace',
      ownerLastName: 'Hopper',
      bluetoothMac: 'A4C1388F2B02',
      blackboxCode: 'BB-1906',
      softwareVersion: '1.9.0',
      timeBeforeDoorOpenAlertS: 600,
      doors: [
        makeDoor({
          id: SAMPLE_SHARED_GATE_ID,
          name: 'Shared Gate',
          entityNumber: 1,
          userRelationship: 'Has Access',
          sensor: false,
        }),
      ],
    }),
  ];
}

const HOUR_MS = 60 * 60_000;

/**
 * A week of the sample household at the sample doors, for the settings page's "People and activity" and the demo: Ada
 * (the account's user), Grace and Alan by keypad, app and remote, and one refused attempt. Hours before `nowMs`, newest last.
 */
export function sampleHistory(nowMs: number): SeedHistoryEvent[] {
  const { grace, alan } = SAMPLE_PEOPLE;
  const at = (hoursAgo: number): Date => new Date(nowMs - hoursAgo * HOUR_MS);
  return [
    { doorId: SAMPLE_FRONT_GATE_ID, doorState: 'OPEN', at: at(140), channel: 'Keypad', user: grace },
    { doorId: SAMPLE_FRONT_GATE_ID, doorState: 'CLOSED', at: at(139.9), channel: 'Keypad', user: grace },
    { doorId: SAMPLE_GARAGE_DOOR_ID, doorState: 'OPEN', at: at(96), channel: 'App', user: SAMPLE_ACCOUNT_USER },
    { doorId: SAMPLE_GARAGE_DOOR_ID, doorState: 'CLOSED', at: at(95.5), channel: 'App', user: SAMPLE_ACCOUNT_USER },
    { doorId: SAMPLE_SHARED_GATE_ID, doorState: 'OPEN', at: at(50), channel: 'Keypad', user: alan, wasSuccess: false },
    { doorId: SAMPLE_SHARED_GATE_ID, doorState: 'OPEN', at: at(26), channel: 'Remote', user: grace },
    { doorId: SAMPLE_SHARED_GATE_ID, doorState: 'CLOSED', at: at(25.9), channel: 'Remote', user: grace },
    { doorId: SAMPLE_FRONT_GATE_ID, doorState: 'OPEN', at: at(3), channel: 'Keypad', user: alan },
    { doorId: SAMPLE_FRONT_GATE_ID, doorState: 'CLOSED', at: at(2.9), channel: 'Keypad', user: alan },
  ];
}

// parseWebhookEvent: both spellings, door-numbered types, kinds, times, users, summaries, and bodies that are not objects.
import { describe, expect, it } from 'vitest';

import { parseWebhookEvent } from '../../../src/webhook/event.js';
import type { WebhookEvent } from '../../../src/webhook/event.js';

/** The example body of contract 6.2 (doorID/deviceID spelling). */
const EXAMPLE = {
  id: 'a7c1e0f4-0000-4000-8000-000000000001',
  eventType: 'door_state_change',
  toggleID: 't-1',
  doorID: 'door-1',
  doorState: 'OPEN',
  channel: 'Keypad',
  deviceID: 'device-1',
  eventOccurred: 1_700_000_000,
  eventOccurredUTC: '2023-11-14T22:13:20Z',
  doorOwnerUserID: 'owner-1',
  userThatToggled: { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com' },
};

function parse(body: unknown): WebhookEvent {
  const result = parseWebhookEvent(body);
  if ('error' in result) {
    throw new Error(`unexpected error: ${result.error}`);
  }
  return result;
}

describe('parseWebhookEvent', () => {
  it('reads the example body of the contract', () => {
    expect(parse(EXAMPLE)).toEqual({
      id: EXAMPLE.id,
      eventType: 'door_state_change',
      kind: 'door-state',
      doorId: 'door-1',
      deviceId: 'device-1',
      doorNumber: undefined,
      doorState: 'OPEN',
      occurredAtMs: 1_700_000_000_000,
      channel: 'Keypad',
      toggleId: 't-1',
      ownerUserId: 'owner-1',
      user: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      summary: 'door_state_change: OPEN by Ada Lovelace (Keypad)',
    });
  });

  it('reads the field-table spelling (doorId, deviceId, toggleId) just the same', () => {
    const event = parse({ eventType: 'door_state_change', doorId: 'door-2', deviceId: 'device-2', toggleId: 't-2', doorState: 'closed' });
    expect(event).toMatchObject({ doorId: 'door-2', deviceId: 'device-2', toggleId: 't-2', doorState: 'CLOSED', kind: 'door-state' });
    expect(event.user).toBeUndefined();
    expect(event.summary).toBe('door_state_change: CLOSED');
  });

  it('reads door-numbered types, the state from the suffix unless doorState says otherwise', () => {
    expect(parse({ eventType: 'door1_open' })).toMatchObject({ kind: 'door-state', doorNumber: 1, doorState: 'OPEN' });
    expect(parse({ eventType: 'DOOR2_Close' })).toMatchObject({ kind: 'door-state', doorNumber: 2, doorState: 'CLOSED' });
    expect(parse({ eventType: 'door12_closed' })).toMatchObject({ kind: 'door-state', doorNumber: 12, doorState: 'CLOSED' });
    expect(parse({ eventType: 'door1_open', doorState: 'CLOSED' }).doorState).toBe('CLOSED');
    expect(parse({ eventType: 'door1_open', doorState: 'AJAR' }).doorState).toBe('OPEN');
    expect(parse({ eventType: 'door1_open', channel: 'Remote' }).summary).toBe('door1_open: door 1 OPEN (Remote)');
  });

  it('sorts other types into the categories of contract 6.1', () => {
    const kind = (eventType: string) => parse({ eventType }).kind;
    expect(kind('user_access')).toBe('access');
    expect(kind('vehicle_access_granted')).toBe('access');
    expect(kind('unauthorized_access')).toBe('enforcer');
    expect(kind('enforcer_alert')).toBe('enforcer');
    expect(kind('user_added')).toBe('management');
    expect(kind('access_removed')).toBe('management');
    expect(kind('vehicle_updated')).toBe('management');
    expect(kind('battery_low')).toBe('unknown');
    expect(kind('door_opened')).toBe('door-state');
  });

  it('keeps going without eventType, without a known state, and with fields of the wrong type', () => {
    const event = parse({ doorID: 42, doorState: 'HALF', eventOccurred: 'soon', channel: { x: 1 }, userThatToggled: 'Ada', extra: [1, 2] });
    expect(event).toMatchObject({
      eventType: '',
      kind: 'unknown',
      doorId: '42',
      doorState: undefined,
      occurredAtMs: undefined,
      channel: undefined,
      user: undefined,
    });
    expect(event.summary).toBe('(no eventType)');
  });

  it('takes eventOccurred in seconds (number or numeric string), else eventOccurredUTC', () => {
    expect(parse({ eventOccurred: '1700000000' }).occurredAtMs).toBe(1_700_000_000_000);
    expect(parse({ eventOccurredUTC: '2023-11-14T22:13:20Z' }).occurredAtMs).toBe(1_700_000_000_000);
    // No zone written: still UTC (contract 6.2), never the bridge's local time.
    expect(parse({ eventOccurredUTC: '2023-11-14T22:13:20' }).occurredAtMs).toBe(1_700_000_000_000);
    expect(parse({ eventOccurredUTC: 'yesterday' }).occurredAtMs).toBeUndefined();
    // A value that can only be milliseconds is not multiplied again.
    expect(parse({ eventOccurred: 1_700_000_000_000 }).occurredAtMs).toBe(1_700_000_000_000);
  });

  it('names the user by name, else by email; keeps control characters out of the summary', () => {
    expect(parse({ eventType: 'user_added', userThatToggled: { emailAddress: 'bob@example.com' } }).summary).toBe(
      'user_added by bob@example.com',
    );
    const forged = parse({ eventType: 'door_state_change\nFAKE LOG LINE', doorState: 'OPEN', channel: 'Key\rpad' });
    expect(forged.summary).toBe('door_state_change FAKE LOG LINE: OPEN (Key pad)');
  });

  it('refuses bodies that are not JSON objects', () => {
    for (const body of [null, [], [EXAMPLE], 'door_state_change', 42, true, undefined]) {
      const result = parseWebhookEvent(body);
      expect(result).toHaveProperty('error');
      expect('error' in result).toBe(true);
    }
    expect(parseWebhookEvent([])).toEqual({ error: 'the body is not a JSON object (got an array)' });
  });
});

describe('parseWebhookEvent of enforcer events (their body is not in the contract: read liberally)', () => {
  it('reads an unauthorized user at a door: where, who with address, and the channel', () => {
    const event = parse({
      id: 'e-1',
      eventType: 'enforcer_unauthorized_user',
      doorID: 'door-1',
      deviceID: 'device-1',
      channel: 'Keypad',
      userThatToggled: { firstName: 'Mallory', lastName: 'Doe', emailAddress: 'mallory@example.com' },
    });
    expect(event).toMatchObject({ kind: 'enforcer', doorId: 'door-1', deviceId: 'device-1', doorState: undefined });
    expect(event.summary).toBe('enforcer_unauthorized_user by Mallory Doe (mallory@example.com) (Keypad)');
  });

  it('reads an unauthorized vehicle at a controller only, from a vehicle object or a plate at the top', () => {
    const event = parse({
      eventType: 'unauthorized_vehicle',
      deviceId: 'device-2',
      vehicle: { licensePlate: 'KX-482-PD', make: 'Ford', model: 'Transit', colour: 'white' },
    });
    expect(event).toMatchObject({ kind: 'enforcer', doorId: undefined, deviceId: 'device-2' });
    expect(event.vehicle).toEqual({ licensePlate: 'KX-482-PD', make: 'Ford', model: 'Transit', color: 'white' });
    expect(event.summary).toBe('unauthorized_vehicle: vehicle KX-482-PD (white Ford Transit)');
    expect(parse({ eventType: 'unauthorized_vehicle', plate: 4242 }).summary).toBe('unauthorized_vehicle: vehicle 4242');
    expect(parse({ eventType: 'unauthorized_vehicle', vehicle: { make: 'Ford' } }).summary).toBe(
      'unauthorized_vehicle: vehicle without a plate (Ford)',
    );
  });

  it('reads other plausible spellings: snake case, nested door, access point and device objects, a user object', () => {
    expect(parse({ eventType: 'unauthorized_access', door_id: 'd1', device_id: 'c1' })).toMatchObject({ doorId: 'd1', deviceId: 'c1' });
    expect(parse({ eventType: 'unauthorized_access', door: { id: 'd2' }, device: { deviceID: 'c2' } })).toMatchObject({
      doorId: 'd2',
      deviceId: 'c2',
    });
    expect(parse({ eventType: 'unauthorized_access', accessPoint: { id: 'd3' } }).doorId).toBe('d3');
    expect(parse({ eventType: 'unauthorized_access', accessPointId: 'd4' }).doorId).toBe('d4');
    // The contract's own spelling wins over a guess.
    expect(parse({ eventType: 'unauthorized_access', doorID: 'd5', door: { id: 'other' } }).doorId).toBe('d5');
    const person = parse({ eventType: 'unauthorized_access', user: { first_name: 'Eve', last_name: 'Adams' } });
    expect(person.summary).toBe('unauthorized_access by Eve Adams');
    expect(parse({ eventType: 'unauthorized_access', user: { name: 'Trudy' } }).summary).toBe('unauthorized_access by Trudy');
  });

  it('survives hostile bodies: nested garbage, numbers, huge values and line breaks stay out of one bounded line', () => {
    // Words: a run of 20 letters or more that is no word is elided (src/util/dense-runs.ts), which would hide the cut.
    const huge = ' word'.repeat(20_000);
    const event = parse({
      eventType: 'unauthorized_access\n[Access Control] Forged line',
      door: [1, 2, 3],
      device: 'not an object',
      accessPoint: { id: { deeper: true } },
      user: { firstName: `Mal\nlory${huge}`, lastName: ['x'], emailAddress: 42 },
      vehicle: { licensePlate: `AB\r\u2028CD${huge}`, make: null, model: { a: 1 }, color: 7 },
      licensePlate: { nested: 'x' },
    });
    expect(event).toMatchObject({ kind: 'enforcer', doorId: undefined, deviceId: undefined });
    // eslint-disable-next-line no-control-regex
    expect(event.summary).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(event.summary.length).toBeLessThan(400);
    expect(event.summary).toMatch(/^unauthorized_access \[Access Control\] Forged line by Mal lory/);
    expect(event.summary).toMatch(/vehicle AB CD.*\(7\)$/);
  });
});

// Property tests (fast-check): the answer, webhook and config parsers never throw and read valid input exactly; the client yields only an Account or a ServiceError.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Server as TcpServer, Socket } from 'node:net';
import { inspect } from 'node:util';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ServiceError } from '../../src/client/errors.js';
import type { ServiceErrorKind } from '../../src/client/errors.js';
import { parseRetryAfter } from '../../src/client/http.js';
import { parseHistory, parseSync, toggleResponseSchema } from '../../src/client/schemas.js';
import { AccessControlClient } from '../../src/client/service-client.js';
import type { Account, Device, Door, ToggleEvent } from '../../src/client/types.js';
import { MAX_TIMER_DELAY_MS, timerDelayMs } from '../../src/util/clock.js';
import { parseConfig } from '../../src/config/index.js';
import { canonicalId } from '../../src/util/canonical-id.js';
import { keepFirstOfEachDoor } from '../../src/door/duplicates.js';
import { listForLog, MAX_LOG_FIELD_CHARS, MAX_LOG_LIST_ITEMS, oneLine } from '../../src/util/log-text.js';
import { optionSpec } from '../../src/option-catalog.js';
import {
  BACKOFF_JITTER_RATIO,
  DEFAULT_RECONCILE_INTERVAL_S,
  DEFAULT_WEBHOOK_HEADER_NAME,
  MAX_BACKOFF_MS,
  MAX_RETRY_AFTER_MS,
} from '../../src/settings.js';
import { AccessControlSimulator } from '../../dev/simulator/server.js';
import { nextSyncDelayMs } from '../../src/sync/schedule.js';
import { parseWebhookEvent } from '../../src/webhook/event.js';
import type { WebhookEvent } from '../../src/webhook/event.js';

const PURE_RUNS = 200;
const HTTP_RUNS = 50;
const RAW_TCP_RUNS = 30;

// ---- generic helpers ----

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets an own data property, `__proto__` included (plain assignment would set the prototype instead, JSON.parse does not). */
function withKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: anything that could break a log line. */
// eslint-disable-next-line no-control-regex
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// ---- arbitraries: strings and junk ----

/** Any UTF-16 code unit: control characters and lone surrogates included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const hugeString = fc
  .tuple(fc.string({ unit: anyCodeUnit, minLength: 1, maxLength: 3 }), fc.integer({ min: 1_000, max: 60_000 }))
  .map(([piece, length]) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length));
const wildString = fc.oneof(
  { weight: 4, arbitrary: fc.string() },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme' }) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary' }) },
  { weight: 3, arbitrary: fc.string({ unit: anyCodeUnit }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '\t\n',
      'OPEN',
      'CLOSED',
      ' open ',
      'Closed',
      'OPENING',
      'null',
      '__proto__',
      'constructor',
      '\u2028',
      '\u0000',
      '\r\nX: y',
    ),
  },
  { weight: 1, arbitrary: hugeString },
);

/** Nesting deeper than JSON.stringify's stack allows (a few thousand levels), built by JSON.parse as an answer would be. */
const deepJunk = fc.tuple(fc.integer({ min: 2_000, max: 30_000 }), fc.boolean()).map(([depth, arrays]): unknown => {
  const value = JSON.parse(arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth)) as object;
  // fast-check prints a counterexample recursively and would overflow too; a hidden symbol names it in one line instead.
  Object.defineProperty(value, fc.toStringMethod, { value: () => `<${arrays ? 'arrays' : 'objects'} nested ${depth} deep>` });
  return value;
});

const junkConstants = fc.constantFrom<unknown>(
  null,
  true,
  false,
  0,
  -0,
  -1,
  1.5,
  1e21,
  -1e-7,
  Number.MAX_SAFE_INTEGER,
  [],
  {},
  [null],
  { id: 'x' },
  '',
);

/** A JSON value of any type, sometimes a string made to hurt, sometimes (deep = true) nested thousands of levels. */
function junk(deep: boolean): fc.Arbitrary<unknown> {
  const choices: fc.WeightedArbitrary<unknown>[] = [
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 3, arbitrary: wildString },
    { weight: 2, arbitrary: junkConstants },
  ];
  if (deep) {
    choices.push({ weight: 1, arbitrary: deepJunk });
  }
  return fc.oneof(...choices);
}

/** Close to valid: a valid record with fields swapped for junk or removed and unknown fields added; now and then junk itself. */
function nearly(valid: fc.Arbitrary<Record<string, unknown>>, fields: readonly string[], deep: boolean): fc.Arbitrary<unknown> {
  const edit = fc.tuple(fc.constantFrom(...fields), fc.option(junk(deep), { nil: undefined, freq: 4 }));
  const extra = fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString')), junk(deep), { maxKeys: 3 });
  const mutated = fc.tuple(valid, fc.array(edit, { minLength: 1, maxLength: 4 }), extra).map(([base, edits, added]) => {
    const out: Record<string, unknown> = { ...base };
    for (const [key, value] of edits) {
      if (value === undefined) {
        delete out[key];
      } else {
        withKey(out, key, value);
      }
    }
    for (const [key, value] of Object.entries(added)) {
      if (!fields.includes(key)) {
        withKey(out, key, value);
      }
    }
    return out;
  });
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 5, arbitrary: mutated }, { weight: 1, arbitrary: junk(deep) });
}

// ---- arbitraries: the sync answer ----

/** What the service may send as an id that the plugin can read exactly (issue 42.5: a number only when a safe integer). */
const wireId = fc.oneof(
  { weight: 4, arbitrary: fc.uuid() },
  { weight: 2, arbitrary: wildString.filter((s) => canonicalId(s) !== '') },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.maxSafeInteger() },
);
const wireState = fc.oneof(fc.constantFrom('OPEN', 'CLOSED', 'open', 'closed', ' Open\n', 'OPENING', 'CLOSING', 'UNKNOWN', ''), wildString);

const DOOR_FIELDS = [
  'id',
  'name',
  'entity_number',
  'active',
  'state',
  'user_relationship',
  'bluetooth_sensor',
  'bluetooth_sensor_battery_level',
  'door_auto_close_enabled',
  'door_auto_close_delay',
] as const;
const DEVICE_FIELDS = [
  'id',
  'active',
  'software_version',
  'owner_first_name',
  'owner_last_name',
  'time_before_door_open_alert',
  'doors',
] as const;

const validDoor: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    id: wireId,
    name: wildString,
    entity_number: fc.integer({ min: 1, max: 16 }),
    active: fc.boolean(),
    state: wireState,
    last_toggled: fc.constant('2025-01-15 08:30:00'),
    user_relationship: fc.constantFrom('Owner', 'Has Access'),
    bluetooth_sensor: fc.boolean(),
    bluetooth_sensor_battery_level: fc.integer({ min: 0, max: 100 }),
    door_auto_close_enabled: fc.boolean(),
    door_auto_close_delay: fc.integer({ min: 0, max: 3_600 }),
  },
  { requiredKeys: ['id'] },
);

function deviceOf(door: fc.Arbitrary<unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      id: wireId,
      active: fc.boolean(),
      registered: fc.boolean(),
      software_version: wildString,
      owner_first_name: wildString,
      owner_last_name: wildString,
      time_before_door_open_alert: fc.integer({ min: 0, max: 3_600 }),
      doors: fc.array(door, { maxLength: 5 }),
    },
    { requiredKeys: ['id', 'doors'] },
  );
}

const validAccountBody = fc.record({ devices: fc.array(deviceOf(validDoor), { maxLength: 4 }) });

function nearAccountBody(deep: boolean): fc.Arbitrary<unknown> {
  const device = nearly(deviceOf(nearly(validDoor, DOOR_FIELDS, deep)), DEVICE_FIELDS, deep);
  return fc.oneof(
    { weight: 6, arbitrary: fc.record({ devices: fc.array(device, { maxLength: 4 }) }) },
    { weight: 1, arbitrary: fc.record({ devices: junk(deep) }) },
    { weight: 1, arbitrary: junk(deep) },
  );
}

// ---- the oracle: what parseSync must make of a body, written independently of the zod schemas ----

const textOrUndefined = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const finiteOrUndefined = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const flagOr = (value: unknown, fallback: boolean): boolean => (typeof value === 'boolean' ? value : fallback);

/** Ids are non-blank strings (trimmed) or numbers read as text. */
function readId(value: unknown): string | undefined {
  // Issue 42.5: a text exactly as sent (a command carries it), unless it is blank once canonical; a number only when exact.
  if (typeof value === 'string') {
    return canonicalId(value) === '' ? undefined : value;
  }
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
}

/** A Door without `rawState`, which is checked on its own (its text for a non-string state is free). */
type DoorWithoutRaw = Omit<Door, 'rawState'>;

function expectedDoor(raw: Record<string, unknown>, id: string): DoorWithoutRaw {
  const state = typeof raw.state === 'string' ? raw.state.trim().toUpperCase() : undefined;
  return {
    id,
    name: textOrUndefined(raw.name)?.trim() || `Door ${Array.from(id).slice(0, 8).join('')}`,
    entityNumber: finiteOrUndefined(raw.entity_number),
    active: flagOr(raw.active, true),
    state: state === 'OPEN' || state === 'CLOSED' ? state : null,
    relationship: textOrUndefined(raw.user_relationship),
    hasBluetoothSensor: flagOr(raw.bluetooth_sensor, false),
    batteryLevel: finiteOrUndefined(raw.bluetooth_sensor_battery_level),
    autoCloseEnabled: flagOr(raw.door_auto_close_enabled, false),
    autoCloseDelay: finiteOrUndefined(raw.door_auto_close_delay) ?? 0,
    // Text only, trimmed; blank is none (compared only with itself, it proves a move when it changes).
    lastToggled: typeof raw.last_toggled === 'string' ? raw.last_toggled.trim() || undefined : undefined,
  };
}

interface ExpectedSync {
  devices: (Omit<Device, 'doors'> & { doors: DoorWithoutRaw[] })[];
  /** The raw state of each kept door, in order, to check `rawState`. */
  rawStates: unknown[];
  /** One pattern per part that must be reported unreadable, in order. */
  unreadable: RegExp[];
}

function expectedSync(body: unknown): ExpectedSync | 'wrong-shape' {
  if (!isRecord(body) || !Array.isArray(body.devices)) {
    return 'wrong-shape';
  }
  const result: ExpectedSync = { devices: [], rawStates: [], unreadable: [] };
  (body.devices as unknown[]).forEach((rawDevice, d) => {
    const id = isRecord(rawDevice) ? readId(rawDevice.id) : undefined;
    if (!isRecord(rawDevice) || id === undefined || !Array.isArray(rawDevice.doors)) {
      result.unreadable.push(new RegExp(`^devices\\.${d}(\\.(id|doors))?: \\S`));
      return;
    }
    const doors: DoorWithoutRaw[] = [];
    (rawDevice.doors as unknown[]).forEach((rawDoor, i) => {
      const doorId = isRecord(rawDoor) ? readId(rawDoor.id) : undefined;
      if (!isRecord(rawDoor) || doorId === undefined) {
        result.unreadable.push(new RegExp(`^devices\\.${d}\\.doors\\.${i}(\\.id)?: \\S`));
        return;
      }
      doors.push(expectedDoor(rawDoor, doorId));
      result.rawStates.push(rawDoor.state);
    });
    const owner = [textOrUndefined(rawDevice.owner_first_name), textOrUndefined(rawDevice.owner_last_name)].filter(Boolean).join(' ');
    result.devices.push({
      id,
      active: flagOr(rawDevice.active, true),
      softwareVersion: textOrUndefined(rawDevice.software_version),
      ownerName: owner || undefined,
      timeBeforeDoorOpenAlert: finiteOrUndefined(rawDevice.time_before_door_open_alert),
      doors,
    });
  });
  return result;
}

function withoutRawState(door: Door): DoorWithoutRaw {
  const copy: Partial<Door> = { ...door };
  delete copy.rawState;
  return copy as DoorWithoutRaw;
}

/** Checks a parsed account against the oracle: the same devices and doors, nothing unreadable shown, every drop reported. */
function expectAccountMatches(account: Account, expected: ExpectedSync): void {
  const doors = account.devices.flatMap((device) => device.doors);
  expect(account.devices.map((device) => ({ ...device, doors: device.doors.map(withoutRawState) }))).toStrictEqual(expected.devices);
  doors.forEach((door, i) => {
    const raw = expected.rawStates[i];
    if (raw === undefined || typeof raw === 'string') {
      expect(door.rawState).toBe(raw);
    } else {
      expect(typeof door.rawState).toBe('string');
    }
  });
  expect(account.unreadable).toHaveLength(expected.unreadable.length);
  expect(account.unreadable).toEqual(expected.unreadable.map((pattern) => expect.stringMatching(pattern) as unknown));
}

// ---- sync ----

describe('parseSync', () => {
  it('never throws, whatever it is given', () => {
    const anything = fc.anything({
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withBigInt: true,
      withDate: true,
      withTypedArray: true,
      withSparseArray: true,
      stringUnit: 'binary',
    });
    const inside = anything.map((value) => ({ devices: [{ id: 'd', doors: [{ id: 'x', state: value, name: value }, value] }, value] }));
    fc.assert(
      fc.property(fc.oneof(anything, fc.jsonValue(), inside), (body) => {
        const result = parseSync(body);
        expect(result instanceof Error || Array.isArray(result.devices)).toBe(true);
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it('reads a valid account exactly: every door, OPEN/CLOSED kept, any other state null, nothing unreadable', () => {
    fc.assert(
      fc.property(validAccountBody, (body) => {
        const account = parseSync(body);
        expect(account).not.toBeInstanceOf(Error);
        if (account instanceof Error) return;
        const expected = expectedSync(body);
        expect(expected).not.toBe('wrong-shape');
        if (expected === 'wrong-shape') return;
        expect(account.unreadable).toEqual([]);
        expectAccountMatches(account, expected);
        const sentDoors = body.devices.flatMap((device) => device.doors as Record<string, unknown>[]);
        expect(account.devices.flatMap((device) => device.doors.map((door) => door.id))).toEqual(sentDoors.map((door) => readId(door.id)));
        account.devices
          .flatMap((device) => device.doors)
          .forEach((door, i) => {
            const sent = sentDoors[i]?.state;
            const known = typeof sent === 'string' && ['OPEN', 'CLOSED'].includes(sent.trim().toUpperCase());
            expect(door.state).toBe(known ? sent.trim().toUpperCase() : null);
          });
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it('never shows a door whose id is a number it cannot read exactly, and never sends another door its id (issue 42.5)', () => {
    const inexact = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isSafeInteger(n)),
      fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }).map((n) => Number(n)),
    );
    fc.assert(
      fc.property(fc.array(wireId, { maxLength: 3 }), inexact, (ids, bad) => {
        const body = { devices: [{ id: 'dev', doors: [...ids.map((id) => ({ id })), { id: bad }] }] };
        const account = parseSync(body);
        if (account instanceof Error) throw account;
        expect(account.devices[0]?.doors.map((door) => door.id)).toEqual(ids.map(readId));
        expect(account.unreadable).toHaveLength(1);
        expect(account.unsafeDoorNumbers ?? []).toEqual(Number.isInteger(bad) ? [bad] : []);
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it('keeps what it can read of a nearly valid answer, never shows a door it could not read, and reports every drop', () => {
    fc.assert(
      fc.property(nearAccountBody(true), (body) => {
        const account = parseSync(body);
        const expected = expectedSync(body);
        if (expected === 'wrong-shape') {
          expect(account).toBeInstanceOf(Error);
          return;
        }
        expect(account).not.toBeInstanceOf(Error);
        if (account instanceof Error) return;
        expectAccountMatches(account, expected);
        // Stated on its own, as the plugin relies on it: a drop is always reported, so nothing is taken as removed.
        const sentParts = isRecord(body) && Array.isArray(body.devices) ? body.devices.length : 0;
        const sentDoors = (body as { devices: unknown[] }).devices.flatMap((device) =>
          isRecord(device) && Array.isArray(device.doors) ? (device.doors as unknown[]) : [],
        );
        const keptDoors = account.devices.flatMap((device) => device.doors).length;
        if (account.devices.length < sentParts || keptDoors < sentDoors.length) {
          expect(account.unreadable.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: PURE_RUNS },
    );
  });
});

// ---- history ----

const HISTORY_FIELDS = ['door_id', 'door_name', 'door_state', 'channel', 'user', 'was_success', 'toggle_date_time'] as const;
const validHistoryEvent: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    door_id: fc.uuid(),
    door_name: wildString,
    door_state: fc.constantFrom('OPEN', 'CLOSED'),
    channel: fc.constantFrom('Keypad', 'Web Portal', 'Api'),
    user: fc.record(
      { id: fc.uuid(), first_name: wildString, last_name: wildString, email_address: fc.emailAddress() },
      { requiredKeys: [] },
    ),
    was_success: fc.boolean(),
    toggle_date_time: fc.constant('2025-01-15 08:30:00'),
  },
  { requiredKeys: [] },
);

function expectedHistory(body: unknown): ToggleEvent[] | 'wrong-shape' {
  if (!isRecord(body) || !isRecord(body.data) || !Array.isArray(body.data.toggle_events)) {
    return 'wrong-shape';
  }
  return (body.data.toggle_events as unknown[]).filter(isRecord).map((e) => {
    const user = isRecord(e.user) ? e.user : undefined;
    const success = e.was_success;
    return {
      doorId: textOrUndefined(e.door_id),
      doorName: textOrUndefined(e.door_name),
      doorState: textOrUndefined(e.door_state),
      channel: textOrUndefined(e.channel),
      userName: [textOrUndefined(user?.first_name), textOrUndefined(user?.last_name)].filter(Boolean).join(' ') || undefined,
      user: user
        ? {
            firstName: textOrUndefined(user.first_name),
            lastName: textOrUndefined(user.last_name),
            email: textOrUndefined(user.email_address),
          }
        : undefined,
      wasSuccess: typeof success === 'boolean' ? success : undefined,
      at: textOrUndefined(e.toggle_date_time),
    };
  });
}

describe('parseHistory', () => {
  const nearHistory = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        success: fc.boolean(),
        data: fc.record({ toggle_events: fc.array(nearly(validHistoryEvent, HISTORY_FIELDS, true), { maxLength: 6 }) }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ data: junk(true) }) },
    { weight: 1, arbitrary: fc.record({ data: fc.record({ toggle_events: junk(true) }) }) },
    { weight: 1, arbitrary: junk(true) },
  );

  it('never throws, and reads every event it can exactly, skipping the rest', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.anything({ withNullPrototype: true, withBigInt: true, withBoxedValues: true }), fc.jsonValue(), nearHistory),
        (body) => {
          const events = parseHistory(body);
          const expected = expectedHistory(body);
          if (expected === 'wrong-shape') {
            expect(events).toBeInstanceOf(Error);
          } else {
            expect(events).toStrictEqual(expected);
          }
        },
      ),
      { numRuns: PURE_RUNS },
    );
  });
});

// ---- toggle answer ----

describe('toggleResponseSchema', () => {
  it('never throws; reads any object, the message as text (a number too), and refuses anything else', () => {
    const toggleBody = fc.oneof(
      fc.record({ success: junk(false), message: junk(false), timestamp: junk(false) }, { requiredKeys: [] }),
      fc.record({ success: fc.boolean(), message: fc.oneof(wildString, fc.integer()) }),
      fc.jsonValue(),
      fc.anything({ withNullPrototype: true, withBigInt: true }),
    );
    fc.assert(
      fc.property(toggleBody, (body) => {
        const parsed = toggleResponseSchema.safeParse(body);
        expect(parsed.success).toBe(isRecord(body));
        if (!parsed.success || !isRecord(body)) return;
        const message = body.message;
        expect(parsed.data.message).toBe(
          typeof message === 'string' ? message : finiteOrUndefined(message) === undefined ? undefined : String(message),
        );
        expect(parsed.data.success).toBe(typeof body.success === 'boolean' ? body.success : undefined);
      }),
      { numRuns: PURE_RUNS },
    );
  });
});

// ---- webhook events ----

/** The webhook parser's reading of a text field: a trimmed non-empty string, or a number as text. */
function webhookText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  // A whole number JSON cannot hold exactly is missing (issue 42.5): as an id it would read as another door's.
  const unsafe = typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
  return typeof value === 'number' && Number.isFinite(value) && !unsafe ? String(value) : undefined;
}

const WEBHOOK_FIELDS = [
  'id',
  'eventType',
  'doorID',
  'doorId',
  'deviceID',
  'deviceId',
  'toggleID',
  'doorOwnerUserID',
  'doorState',
  'channel',
  'eventOccurred',
  'eventOccurredUTC',
  'userThatToggled',
] as const;

interface ValidWebhook {
  body: Record<string, unknown>;
  expected: Omit<WebhookEvent, 'summary' | 'kind' | 'doorNumber'>;
}

const validWebhook: fc.Arbitrary<ValidWebhook> = fc
  .record({
    id: fc.uuid(),
    doorId: fc.uuid(),
    deviceId: fc.uuid(),
    toggleId: fc.uuid(),
    ownerId: fc.uuid(),
    state: fc.constantFrom('OPEN', 'CLOSED'),
    seconds: fc.integer({ min: 1_000_000_000, max: 4_000_000_000 }),
    secondsAsText: fc.boolean(),
    exampleSpelling: fc.boolean(),
    channel: fc.constantFrom('Keypad', 'Web Portal', 'App', 'Remote'),
    firstName: fc.string({ unit: 'grapheme', maxLength: 12 }),
    lastName: fc.string({ unit: 'grapheme', maxLength: 12 }),
    email: fc.option(fc.emailAddress(), { nil: undefined }),
  })
  .map((g) => {
    const user: Record<string, string> = { firstName: g.firstName, lastName: g.lastName };
    if (g.email !== undefined) user.emailAddress = g.email;
    const body: Record<string, unknown> = {
      id: g.id,
      eventType: 'door_state_change',
      [g.exampleSpelling ? 'doorID' : 'doorId']: g.doorId,
      [g.exampleSpelling ? 'deviceID' : 'deviceId']: g.deviceId,
      [g.exampleSpelling ? 'toggleID' : 'toggleId']: g.toggleId,
      doorOwnerUserID: g.ownerId,
      doorState: g.state,
      channel: g.channel,
      eventOccurred: g.secondsAsText ? String(g.seconds) : g.seconds,
      eventOccurredUTC: new Date(g.seconds * 1000).toISOString(),
      userThatToggled: user,
    };
    const firstName = webhookText(g.firstName);
    const lastName = webhookText(g.lastName);
    const expectedUser = { ...(firstName ? { firstName } : {}), ...(lastName ? { lastName } : {}), ...(g.email ? { email: g.email } : {}) };
    return {
      body,
      expected: {
        id: g.id,
        eventType: 'door_state_change',
        doorId: g.doorId,
        deviceId: g.deviceId,
        doorState: g.state,
        occurredAtMs: g.seconds * 1000,
        channel: g.channel,
        toggleId: g.toggleId,
        ownerUserId: g.ownerId,
        user: Object.keys(expectedUser).length > 0 ? expectedUser : undefined,
      },
    };
  });

const nearWebhookBody = nearly(
  validWebhook.map((v) => v.body),
  WEBHOOK_FIELDS,
  true,
);
const webhookEventTypes = fc.oneof(
  fc.constantFrom(
    'door_state_change',
    'door1_open',
    'DOOR2_CLOSE',
    'door99999999999999999999_closed',
    'door_opened',
    'user_added',
    'user_access',
    'unauthorized_access',
    'vehicle_removed',
    '',
  ),
  wildString,
);

describe('parseWebhookEvent', () => {
  it('gives a WebhookEvent for every JSON object and { error } for anything else JSON can hold', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const result = parseWebhookEvent(body);
        if (isRecord(body)) {
          expect(result).not.toHaveProperty('error');
          expect(typeof (result as WebhookEvent).summary).toBe('string');
        } else {
          expect(result).toEqual({ error: expect.stringMatching(/^the body is not a JSON object/) as unknown });
        }
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it('never throws on anything at all', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withNullPrototype: true,
          withBigInt: true,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withDate: true,
          withSparseArray: true,
        }),
        (body) => {
          const result = parseWebhookEvent(body);
          expect('error' in result ? typeof result.error : typeof result.summary).toBe('string');
        },
      ),
      { numRuns: PURE_RUNS },
    );
  });

  it('reads each field the way the contract spells it; the summary is one bounded line without control characters', () => {
    const body = fc.tuple(nearWebhookBody, fc.option(webhookEventTypes, { nil: undefined })).map(([b, eventType]) => {
      if (eventType !== undefined && isRecord(b)) withKey(b, 'eventType', eventType);
      return b;
    });
    fc.assert(
      fc.property(body, (b) => {
        const result = parseWebhookEvent(b);
        if (!isRecord(b)) {
          expect(result).toHaveProperty('error');
          return;
        }
        expect(result).not.toHaveProperty('error');
        const event = result as WebhookEvent;
        expect(event.summary).not.toMatch(LINE_BREAKING);
        // Three fields of at most 80 characters each, plus the words around them.
        expect(event.summary.length).toBeLessThanOrEqual(3 * 80 + 40);
        expect(event.id).toBe(webhookText(b.id));
        expect(event.eventType).toBe(webhookText(b.eventType) ?? '');
        expect(event.doorId).toBe(webhookText(b.doorID) ?? webhookText(b.doorId));
        expect(event.deviceId).toBe(webhookText(b.deviceID) ?? webhookText(b.deviceId));
        expect(event.channel).toBe(webhookText(b.channel));
        expect(['door-state', 'access', 'management', 'enforcer', 'unknown']).toContain(event.kind);
        const sentState = webhookText(b.doorState)?.toUpperCase();
        if (sentState === 'OPEN' || sentState === 'CLOSED') {
          expect(event.doorState).toBe(sentState);
        } else {
          expect([undefined, 'OPEN', 'CLOSED']).toContain(event.doorState);
        }
        expect(event.occurredAtMs === undefined || Number.isFinite(event.occurredAtMs)).toBe(true);
        if (event.kind !== 'door-state') {
          expect(event.doorNumber).toBeUndefined();
        }
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it('reads a valid door event exactly, in either spelling', () => {
    fc.assert(
      fc.property(validWebhook, ({ body, expected }) => {
        const event = parseWebhookEvent(body);
        expect(event).toMatchObject({ ...expected, kind: 'door-state', doorNumber: undefined });
        expect((event as WebhookEvent).summary.startsWith(`door_state_change: ${expected.doorState}`)).toBe(true);
      }),
      { numRuns: PURE_RUNS },
    );
  });
});

// ---- config ----

const hex96 = fc.string({ unit: fc.constantFrom(...Array.from('0123456789abcdefABCDEF')), minLength: 96, maxLength: 96 });
const blankPad = fc.constantFrom('', ' ', '\t', ' \n');
const padded = (text: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.tuple(blankPad, text, blankPad).map(([a, s, b]) => a + s + b);
const nonBlank = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');
/** What an HTTP header can carry (printable ASCII and Latin-1): the only tokens the config accepts (issue 12.9). */
const headerSafeChar = fc
  .integer({ min: 0x20, max: 0xff })
  .filter((c) => c < 0x7f || c >= 0xa0)
  .map((c) => String.fromCharCode(c));
const headerSafeText = fc.string({ unit: headerSafeChar, minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');
/** Anything a header cannot carry: C0 and C1 controls, DEL, and every character past Latin-1. */
const headerUnsafeChar = fc
  .oneof(
    fc.integer({ min: 0, max: 0x1f }),
    fc.integer({ min: 0x7f, max: 0x9f }),
    fc.integer({ min: 0x100, max: 0x10ffff }).filter((c) => c < 0xd800 || c > 0xdfff),
  )
  .map((c) => String.fromCodePoint(c));

interface ValidConfig {
  raw: Record<string, unknown>;
  expected: Record<string, unknown>;
}

const validWebhookBlock = fc
  .record(
    {
      enabled: fc.constant(true),
      port: fc.integer({ min: 1, max: 65_535 }),
      host: padded(fc.constantFrom('127.0.0.1', '::', 'localhost', '0.0.0.0')),
      apiKey: padded(hex96),
      path: padded(fc.constantFrom('/', '/webhook', '/hooks/access-control')),
      headerName: padded(fc.stringMatching(/^[A-Za-z0-9-]{1,30}$/)),
      tls: fc.tuple(nonBlank, nonBlank),
      reconcileInterval: fc.integer({ min: 30, max: 3_600 }),
      unknownSetting: junk(false),
    },
    { requiredKeys: ['port', 'apiKey'] },
  )
  .map(({ tls, ...rest }) => {
    const raw: Record<string, unknown> = { ...rest };
    if (tls) {
      raw.tlsCertFile = tls[0];
      raw.tlsKeyFile = tls[1];
    }
    const trimmed = (key: string): Record<string, string> => (typeof raw[key] === 'string' ? { [key]: raw[key].trim() } : {});
    const expected: Record<string, unknown> = {
      ...(raw.enabled === true ? { enabled: true } : {}),
      port: raw.port,
      ...trimmed('host'),
      apiKey: (raw.apiKey as string).trim(),
      ...trimmed('path'),
      headerName: typeof raw.headerName === 'string' ? raw.headerName.trim() : DEFAULT_WEBHOOK_HEADER_NAME,
      ...trimmed('tlsCertFile'),
      ...trimmed('tlsKeyFile'),
      reconcileInterval: raw.reconcileInterval ?? DEFAULT_RECONCILE_INTERVAL_S,
    };
    return { raw, expected };
  });

const validConfig: fc.Arbitrary<ValidConfig> = fc
  .record(
    {
      platform: fc.constant('AccessControl'),
      name: padded(nonBlank),
      // Deliberate change (issue 12.9): a token a header cannot carry is now refused, so valid ones are header-safe.
      accessToken: padded(headerSafeText),
      baseUrl: fc.tuple(blankPad, fc.webUrl(), fc.constantFrom('', '/', '//')).map(([pad, url, slashes]) => pad + url + slashes),
      pollInterval: fc.integer({ min: 5, max: 3_600 }),
      transitionTimeout: fc.integer({ min: 10, max: 600 }),
      lowBatteryThreshold: fc.integer({ min: 0, max: 100 }),
      webhook: fc.oneof(
        validWebhookBlock,
        fc.constant({ raw: { enabled: false, port: 'not checked' }, expected: undefined }),
        fc.constant({ raw: { port: '', apiKey: '' }, expected: undefined }),
        fc.constant({ raw: { headerName: 'X-Service-API-Key', reconcileInterval: 300 }, expected: undefined }),
      ),
      _bridge: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: ['accessToken', 'baseUrl'] },
  )
  .map(({ webhook, ...rest }) => {
    const raw: Record<string, unknown> = { ...rest };
    if (webhook) raw.webhook = webhook.raw;
    const expected: Record<string, unknown> = {
      ...rest,
      name: typeof rest.name === 'string' ? rest.name.trim() : 'Access Control',
      accessToken: rest.accessToken.trim(),
      baseUrl: rest.baseUrl.trim().replace(/\/+$/, ''),
      pollInterval: rest.pollInterval ?? optionSpec('pollInterval').default,
      transitionTimeout: rest.transitionTimeout ?? optionSpec('transitionTimeout').default,
      lowBatteryThreshold: rest.lowBatteryThreshold ?? optionSpec('lowBatteryThreshold').default,
      webhook: webhook?.expected,
    };
    return { raw, expected };
  });

/** A realistic secret: long enough never to occur in a message by chance. */
const secretToken = fc
  .string({
    unit: fc.constantFrom(...Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_')),
    minLength: 24,
    maxLength: 64,
  })
  .map((s) => `tok_${s}`);

describe('parseConfig', () => {
  it('never throws, whatever config.json holds: a block it reads runs on a token and an address that work, one it refuses says why', () => {
    const junk = fc.anything({ withNullPrototype: true, withBigInt: true, withBoxedValues: true, withMap: true });
    // A valid block with junk beside and over its settings, so the accepting branch is taken too, not only refusals.
    const nearlyValid = fc
      .tuple(validConfig, fc.dictionary(fc.constantFrom('pollInterval', 'readOnly', 'showAs', 'webhook', 'doors', 'people', 'x'), junk))
      .map(([{ raw }, extra]) => ({ ...raw, ...extra }));
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(junk, fc.jsonValue(), nearlyValid), (raw) => {
        const result = parseConfig(raw);
        if (result.ok) {
          accepted += 1;
          // What the plugin then sends every request with: a header-safe token without padding, an http(s) address
          // to which it appends its paths (no query, fragment or trailing slash), a poll interval it allows.
          expect(typeof raw === 'object' && raw !== null && !Array.isArray(raw)).toBe(true);
          expect(result.config.accessToken).toMatch(/^[\x21-\x7e\xa0-\xff](?:[\x20-\x7e\xa0-\xff]*[\x21-\x7e\xa0-\xff])?$/);
          expect(result.config.baseUrl).toMatch(/^https?:\/\/[^?#]*[^/?#]$/);
          expect(result.config.pollInterval).toBeGreaterThanOrEqual(optionSpec('pollInterval').min);
        } else {
          expect(result.problems.length).toBeGreaterThan(0);
          for (const problem of result.problems) expect(problem.trim()).not.toBe('');
        }
      }),
      { numRuns: PURE_RUNS },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it('reads a valid config to its trimmed, defaulted shape', () => {
    fc.assert(
      fc.property(validConfig, ({ raw, expected }) => {
        const result = parseConfig(raw);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        // Other settings may join the schema; the ones known here must read exactly so.
        const { webhook, ...rest } = expected;
        expect(result.config).toMatchObject(rest);
        expect(result.config.webhook).toStrictEqual(webhook);
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it('never repeats the access token in a problem, wherever the token was put', () => {
    const broken = secretToken.chain((token) => {
      // The token where it belongs but malformed, or pasted into the wrong field, or next to junk.
      const tokenish = fc.constantFrom<unknown>(token, ` ${token} `, [token], { token }, `ftp://${token}`, `${token}/x`, `https:/${token}`);
      const value = fc.oneof(tokenish, junk(false));
      const webhook = fc.record(
        {
          enabled: value,
          port: value,
          apiKey: value,
          host: value,
          path: value,
          headerName: value,
          tlsCertFile: value,
          reconcileInterval: value,
        },
        { requiredKeys: [] },
      );
      return fc.tuple(
        fc.constant(token),
        fc.record(
          {
            name: value,
            accessToken: value,
            baseUrl: value,
            pollInterval: value,
            transitionTimeout: value,
            lowBatteryThreshold: value,
            webhook: fc.oneof(webhook, value),
          },
          { requiredKeys: [] },
        ),
      );
    });
    fc.assert(
      fc.property(broken, ([token, raw]) => {
        const result = parseConfig(raw);
        if (!result.ok) {
          expect(result.problems.length).toBeGreaterThan(0);
          for (const problem of result.problems) {
            expect(problem).not.toContain(token);
          }
        } else {
          // A config that runs reports its other mistakes as ignored sentences (issue 8 C): those never quote it either.
          for (const sentence of result.ignored) {
            expect(sentence).not.toContain(token);
          }
        }
      }),
      { numRuns: PURE_RUNS },
    );
  });

  it('refuses a token a header cannot carry, naming accessToken and only that, wherever the bad character sits', () => {
    const unsafeToken = fc
      .tuple(secretToken, headerUnsafeChar, fc.nat())
      .map(([token, bad, at]) => {
        const cut = 4 + (at % (token.length - 3));
        return token.slice(0, cut) + bad + token.slice(cut);
      })
      // Trimming takes ordinary white space off the ends; one kept inside the token is what must be refused.
      .filter((token) => token.trim() === token);
    fc.assert(
      fc.property(unsafeToken, (accessToken) => {
        const result = parseConfig({ accessToken, baseUrl: 'https://api.example.com' });
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.problems).toHaveLength(1);
        expect(result.problems[0]).toMatch(/^accessToken holds a character that cannot be sent in an HTTP header/);
        expect(result.problems[0]).not.toContain(accessToken.slice(4));
      }),
      { numRuns: PURE_RUNS },
    );
  });
});

// ---- the client over real HTTP ----

const TOKEN = `tok-${randomBytes(16).toString('hex')}`;
const CLIENT_TIMEOUTS = { connectMs: 2_000, headersMs: 2_000, bodyMs: 2_000 };

type Outcome = { ok: Account } | { error: unknown };

async function outcomeOf(promise: Promise<Account>): Promise<Outcome> {
  return promise.then(
    (ok) => ({ ok }),
    (error: unknown) => ({ error }),
  );
}

/** Only a ServiceError, and none that shows the token in any form a log or a crash report could. */
function expectServiceError(error: unknown): ServiceError {
  expect(error).toBeInstanceOf(ServiceError);
  const e = error as ServiceError;
  for (const view of [String(e), e.stack ?? '', JSON.stringify(e), inspect(e, { depth: 4 })]) {
    expect(view).not.toContain(TOKEN);
  }
  return e;
}

/** The kind the status alone decides; a 2xx other than 200 may also be read as an invalid answer when its body is broken. */
function kindsFor(status: number): ServiceErrorKind[] {
  if (status === 401 || status === 403) return ['auth'];
  if (status === 429) return ['rate-limited'];
  if (status === 200) return ['invalid-response'];
  return status < 300 ? ['http', 'invalid-response'] : ['http'];
}

/** Text a sync answer might hold: an account, a nearly valid one, JSON of any shape, text, or nesting too deep to stringify. */
const syncText = fc.oneof(
  { weight: 3, arbitrary: validAccountBody.map((body) => JSON.stringify(body)) },
  { weight: 3, arbitrary: nearAccountBody(false).map((body) => JSON.stringify(body)) },
  { weight: 2, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: wildString },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 2_000, max: 30_000 })
      .map((depth) => `{"devices":[{"id":"d","doors":[{"id":"x","state":${'['.repeat(depth)}${']'.repeat(depth)}}]}]}`),
  },
);

const errorStatus = fc.oneof(
  { weight: 4, arbitrary: fc.constant(200) },
  { weight: 3, arbitrary: fc.constantFrom(201, 204, 301, 304, 400, 401, 403, 404, 418, 429, 500, 502, 503) },
  { weight: 2, arbitrary: fc.integer({ min: 200, max: 599 }) },
);

describe('the client against the simulator serving generated answers', () => {
  let sim: AccessControlSimulator;
  let client: AccessControlClient;

  beforeAll(async () => {
    sim = new AccessControlSimulator({ accessToken: TOKEN });
    await sim.start();
    client = new AccessControlClient({ baseUrl: sim.baseUrl, accessToken: TOKEN, timeouts: CLIENT_TIMEOUTS });
  });

  afterAll(async () => {
    await client.close();
    await sim.stop();
  });

  it('resolves with exactly the account the body holds, or rejects with the ServiceError its status calls for', async () => {
    // Not 204 or 304: the simulator announces a Content-Length for them with no body, which undici rightly calls a broken answer.
    const status = errorStatus.filter((code) => code !== 204 && code !== 304);
    const answer = fc.record({ status, body: syncText, retryAfterS: fc.option(fc.integer({ min: 0, max: 86_400 }), { nil: undefined }) });
    await fc.assert(
      fc.asyncProperty(answer, async ({ status, body, retryAfterS }) => {
        sim.setFault('sync', { kind: 'status', status, body, retryAfterS }, { times: 1 });
        const outcome = await outcomeOf(client.sync());
        let parsed: unknown;
        try {
          // The client trims before parsing, as here.
          parsed = body.trim() === '' ? undefined : (JSON.parse(body.trim()) as unknown);
        } catch {
          parsed = undefined;
        }
        const expected = status === 200 ? expectedSync(parsed) : 'wrong-shape';
        if ('ok' in outcome) {
          expect(status).toBe(200);
          expect(expected).not.toBe('wrong-shape');
          if (expected !== 'wrong-shape') expectAccountMatches(outcome.ok, expected);
          return;
        }
        const error = expectServiceError(outcome.error);
        expect(kindsFor(status)).toContain(error.kind);
        if (status === 200) expect(expected).toBe('wrong-shape');
        if (status !== 200) expect(error.status).toBe(status);
        if (status === 429) expect(error.retryAfterMs).toBe(retryAfterS === undefined ? undefined : retryAfterS * 1000);
      }),
      { numRuns: HTTP_RUNS },
    );
  });
});

type Encoding = 'none' | 'identity' | 'gzip' | 'x-gzip' | 'deflate' | 'br' | 'gzip-lie' | 'deflate-lie' | 'gzip, deflate';

interface RawAnswer {
  status: number;
  text: string;
  /** Raw bytes instead of text, sent as they are. */
  bytes: Uint8Array | undefined;
  encoding: Encoding;
  contentType: string | undefined;
  retryAfter: string | undefined;
  /** Where the server repeats the Authorization header it got, as a careless proxy might. */
  echo: 'none' | 'body' | 'header';
  close: boolean;
}

function encode(body: Buffer, encoding: Encoding): { payload: Buffer; header: string | undefined } {
  switch (encoding) {
    case 'none':
      return { payload: body, header: undefined };
    case 'gzip':
    case 'x-gzip':
      return { payload: gzipSync(body), header: encoding };
    case 'deflate':
      return { payload: deflateSync(body), header: 'deflate' };
    case 'br':
      return { payload: brotliCompressSync(body), header: 'br' };
    case 'gzip-lie':
      return { payload: body, header: 'gzip' };
    case 'deflate-lie':
      return { payload: body, header: 'deflate' };
    default:
      return { payload: body, header: encoding };
  }
}

describe('the client against a raw HTTP server answering anything', () => {
  let server: Server;
  let client: AccessControlClient;
  let next: RawAnswer | undefined;

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      const answer = next;
      if (!answer) {
        res.writeHead(500).end();
        return;
      }
      const auth = req.headers.authorization ?? '';
      const text = answer.echo === 'body' ? `${answer.text} ${JSON.stringify({ message: `refused ${auth}` })}` : answer.text;
      const { payload, header } = encode(answer.bytes ? Buffer.from(answer.bytes) : Buffer.from(text, 'utf8'), answer.encoding);
      const headers: Record<string, string> = {};
      if (header !== undefined) headers['content-encoding'] = header;
      if (answer.contentType !== undefined) headers['content-type'] = answer.contentType;
      if (answer.retryAfter !== undefined) headers['retry-after'] = answer.retryAfter;
      if (answer.echo === 'header') headers['www-authenticate'] = `Bearer error="invalid_token", token="${auth}"`;
      if (answer.close) headers.connection = 'close';
      res.writeHead(answer.status, headers).end(payload);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    client = new AccessControlClient({ baseUrl: `http://127.0.0.1:${port}`, accessToken: TOKEN, timeouts: CLIENT_TIMEOUTS });
  });

  afterAll(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('only ever resolves with an Account or rejects with the ServiceError the status calls for, never showing the token', async () => {
    const answer: fc.Arbitrary<RawAnswer> = fc.record({
      status: errorStatus,
      text: syncText,
      bytes: fc.option(fc.uint8Array({ maxLength: 2_000 }), { nil: undefined, freq: 5 }),
      encoding: fc.constantFrom<Encoding>(
        'none',
        'none',
        'gzip',
        'gzip',
        'identity',
        'x-gzip',
        'deflate',
        'br',
        'gzip-lie',
        'deflate-lie',
        'gzip, deflate',
      ),
      contentType: fc.option(
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/html', 'text/plain; charset=latin1'),
        { nil: undefined },
      ),
      retryAfter: fc.option(
        fc.oneof(
          fc.nat({ max: 100_000 }).map(String),
          fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
          fc.string({ unit: 'grapheme-ascii' }),
        ),
        {
          nil: undefined,
        },
      ),
      echo: fc.constantFrom('none', 'none', 'body', 'header'),
      close: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(answer, async (a) => {
        next = a;
        const outcome = await outcomeOf(client.sync());
        if ('ok' in outcome) {
          expect(a.status).toBe(200);
          expect(Array.isArray(outcome.ok.devices) && Array.isArray(outcome.ok.unreadable)).toBe(true);
          return;
        }
        const error = expectServiceError(outcome.error);
        expect(kindsFor(a.status)).toContain(error.kind);
        // An honest answer holding a readable account must be read.
        const honest = a.bytes === undefined && a.echo === 'none' && ['none', 'identity', 'gzip', 'x-gzip', 'deflate'].includes(a.encoding);
        if (honest && a.status === 200) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(a.text) as unknown;
          } catch {
            return;
          }
          expect(expectedSync(parsed)).toBe('wrong-shape');
        }
      }),
      { numRuns: HTTP_RUNS },
    );
  });
});

describe('the client against a TCP server answering arbitrary bytes', () => {
  let server: TcpServer;
  let port = 0;
  let next: Uint8Array = new Uint8Array();
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      let head = '';
      const onData = (chunk: Buffer): void => {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n')) {
          socket.off('data', onData);
          socket.end(next);
        }
      };
      socket.on('data', onData);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('only ever resolves with an Account or rejects with a ServiceError', async () => {
    const headLine = fc.tuple(
      fc.constantFrom('HTTP/1.1', 'HTTP/1.0', 'HTTP/2', 'HTTP/1.1 ', ''),
      fc.integer({ min: 0, max: 1_000 }),
      fc.string({ unit: 'binary-ascii', maxLength: 10 }),
    );
    const headerLine = fc.oneof(
      fc.constantFrom(
        'Content-Length: 0',
        'Content-Length: 5',
        'Content-Length: -1',
        'Content-Length: 99999999999999999999',
        'Transfer-Encoding: chunked',
        'Content-Encoding: gzip',
        'Connection: close',
        'Retry-After: 3',
      ),
      fc.string({ unit: 'binary-ascii', maxLength: 40 }),
    );
    const response = fc
      .tuple(headLine, fc.array(headerLine, { maxLength: 5 }), fc.oneof(syncText, fc.constant('')), fc.nat())
      .map(([[version, status, reason], headers, body, cut]) => {
        const whole = Buffer.from(`${version} ${status} ${reason}\r\n${headers.join('\r\n')}\r\n\r\n${body}`, 'latin1');
        // One in three is cut short anywhere, head included.
        return new Uint8Array(cut % 3 === 0 ? whole.subarray(0, cut % (whole.length + 1)) : whole);
      });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 3_000 }), response), async (bytes) => {
        next = bytes;
        // A fresh client each time: a connection left in a broken state must not decide the next run.
        const client = new AccessControlClient({ baseUrl: `http://127.0.0.1:${port}`, accessToken: TOKEN, timeouts: CLIENT_TIMEOUTS });
        try {
          const outcome = await outcomeOf(client.sync());
          if ('error' in outcome) {
            expectServiceError(outcome.error);
          } else {
            expect(Array.isArray(outcome.ok.devices)).toBe(true);
          }
        } finally {
          await client.close();
        }
      }),
      { numRuns: RAW_TCP_RUNS },
    );
  });
});

// ---- what a hostile service's values become: timers, the doors shown, log text ----

describe('hostile values', () => {
  const retryAfterText = fc.oneof(
    fc.bigInt({ min: 0n, max: 10n ** 400n }).map(String),
    fc.double({ min: 0, noNaN: true }).map(String),
    fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
    wildString,
  );

  it('no Retry-After, however long or odd, asks for a wait past the longest or one a timer cannot hold', () => {
    fc.assert(
      fc.property(
        retryAfterText,
        fc.integer({ min: 1, max: 50 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (text, failedSyncs, random) => {
          const retryAfterMs = parseRetryAfter(text);
          if (retryAfterMs !== undefined) {
            expect(retryAfterMs).toBeGreaterThanOrEqual(0);
          }
          const delay = nextSyncDelayMs({ pollIntervalMs: 15_000, failedSyncs, retryAfterMs, doorMoving: false, random });
          expect(Number.isFinite(delay)).toBe(true);
          expect(delay).toBeLessThanOrEqual(Math.max(MAX_RETRY_AFTER_MS, MAX_BACKOFF_MS * (1 + BACKOFF_JITTER_RATIO)));
        },
      ),
      { numRuns: PURE_RUNS },
    );
  });

  it('every delay a timer is given fits what a timer holds', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer()), (delay) => {
        const clamped = timerDelayMs(delay);
        expect(clamped).toBeGreaterThanOrEqual(0);
        expect(clamped).toBeLessThanOrEqual(MAX_TIMER_DELAY_MS);
      }),
      { numRuns: PURE_RUNS },
    );
  });

  /** Controllers listing doors, with ids drawn from a few, so the same door id often sits under several. */
  const listing = fc.array(
    fc.record({
      deviceId: fc.constantFrom('ctl-a', 'ctl-b', 'ctl-c', 'Ctl-A', '0'),
      doorIds: fc.array(fc.constantFrom('d1', 'd2', 'd3', 'd4'), { maxLength: 4 }),
    }),
    { maxLength: 6 },
  );

  function doorsOf(devices: { deviceId: string; doorIds: string[] }[]) {
    return devices.flatMap(({ deviceId, doorIds }) => {
      const device = {
        id: deviceId,
        active: true,
        softwareVersion: undefined,
        ownerName: undefined,
        timeBeforeDoorOpenAlert: undefined,
        doors: [],
      };
      return doorIds.map((id) => ({ device, door: { id } as Door }));
    });
  }

  it('a door listed more than once is kept once, under the same controller whatever order the service lists them in', () => {
    fc.assert(
      fc.property(
        listing.chain((devices) => fc.tuple(fc.constant(devices), fc.shuffledSubarray(devices, { minLength: devices.length }))),
        ([devices, shuffled]) => {
          const { kept, duplicates } = keepFirstOfEachDoor(doorsOf(devices));
          const ids = kept.map(({ door }) => door.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(new Set(ids)).toEqual(new Set(devices.flatMap((d) => d.doorIds)));
          const choice = (entries: typeof kept) => Object.fromEntries(entries.map(({ door, device }) => [door.id, device.id]));
          expect(choice(keepFirstOfEachDoor(doorsOf(shuffled)).kept)).toEqual(choice(kept));
          for (const { doorId, deviceIds } of duplicates) {
            expect(deviceIds.length).toBeGreaterThan(1);
            expect(deviceIds[0]).toBe(choice(kept)[doorId]);
          }
        },
      ),
      { numRuns: PURE_RUNS },
    );
  });

  it('outside text in a log line is one bounded line, alone or in a list', () => {
    fc.assert(
      fc.property(fc.array(wildString, { maxLength: 12 }), (values) => {
        for (const value of values) {
          expect(oneLine(value)).not.toMatch(LINE_BREAKING);
          expect(Array.from(oneLine(value)).length).toBeLessThanOrEqual(MAX_LOG_FIELD_CHARS);
        }
        const list = listForLog(values);
        expect(list).not.toMatch(LINE_BREAKING);
        expect(list.length).toBeLessThanOrEqual(MAX_LOG_LIST_ITEMS * (2 * MAX_LOG_FIELD_CHARS + 2) + 20);
      }),
      { numRuns: PURE_RUNS },
    );
  });
});

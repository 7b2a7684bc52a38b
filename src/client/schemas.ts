// zod schemas for the service's answers, liberal where the contract says "not shown": unknown fields pass, odd values fall back.
import * as z from '../util/zod.js';

import { canonicalId } from '../util/canonical-id.js';
import { fallbackDoorName } from './fallback-name.js';

/** What the log says of a door id JSON could not read exactly. */
const UNSAFE_ID =
  'is a number that is not a whole number JSON can hold exactly (beyond 2^53 it reads as another), so no command may name it';
import type { Account, Device, Door, ToggleEvent } from './types.js';

/**
 * Ids are strings in the contract, kept exactly as sent (a command carries the id the service sent); compared only in
 * canonical form (src/util/canonical-id.ts). A numeric id is read as its text only when it is exact: JSON reads
 * 9007199254740993 as ...992, another door's id.
 */
const id = z.pipe(
  z.union([z.string(), z.number()], { error: 'must be an id (text)' }).check(
    z.refine((value) => (typeof value === 'string' ? canonicalId(value) !== '' : Number.isSafeInteger(value)), {
      error: (issue) => (typeof issue.input === 'number' ? UNSAFE_ID : 'must not be blank'),
    }),
  ),
  z.transform(String),
);
const optionalText = z.missingIfNot(z.string());
const flag = (fallback: boolean) =>
  z.pipe(
    z.missingIfNot(z.boolean()),
    z.transform((v: boolean | undefined) => v ?? fallback),
  );
const optionalNumber = z.missingIfNot(z.number());

const doorSchema = z.looseObject({
  id,
  name: optionalText,
  entity_number: optionalNumber,
  active: flag(true),
  state: z.optional(z.unknown()),
  user_relationship: optionalText,
  bluetooth_sensor: flag(false),
  bluetooth_sensor_battery_level: optionalNumber,
  door_auto_close_enabled: flag(false),
  door_auto_close_delay: optionalNumber,
  last_toggled: optionalText,
});

const deviceSchema = z.looseObject({
  id,
  active: flag(true),
  software_version: optionalText,
  owner_first_name: optionalText,
  owner_last_name: optionalText,
  time_before_door_open_alert: optionalNumber,
  doors: z.array(z.unknown()),
});

const syncSchema = z.looseObject({ devices: z.array(z.unknown()) });

function readState(raw: unknown): Door['state'] {
  const text = typeof raw === 'string' ? raw.trim().toUpperCase() : undefined;
  return text === 'OPEN' || text === 'CLOSED' ? text : null;
}

/** The state as sent, as text for the log; never throws (JSON.stringify overflows its stack on a few thousand nested arrays). */
function stateText(raw: unknown): string | undefined {
  if (raw === undefined || typeof raw === 'string') {
    return raw;
  }
  try {
    return JSON.stringify(raw);
  } catch {
    return '(a value too deeply nested to show)';
  }
}

function toDoor(raw: z.output<typeof doorSchema>): Door {
  return {
    id: raw.id,
    name: raw.name?.trim() || fallbackDoorName(raw.id),
    entityNumber: raw.entity_number,
    active: raw.active,
    state: readState(raw.state),
    rawState: stateText(raw.state),
    relationship: raw.user_relationship,
    hasBluetoothSensor: raw.bluetooth_sensor,
    batteryLevel: raw.bluetooth_sensor_battery_level,
    autoCloseEnabled: raw.door_auto_close_enabled,
    autoCloseDelay: raw.door_auto_close_delay ?? 0,
    lastToggled: raw.last_toggled?.trim() || undefined,
  };
}

function where(path: string, error: z.core.$ZodError): string {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
  return `${path}${field}: ${issue?.message ?? 'unreadable'}`;
}

/** Reads a sync answer: returns (never throws) the ZodError when the whole shape is wrong; a bad device or door is skipped and reported. */
export function parseSync(body: unknown): Account | z.core.$ZodError {
  const top = syncSchema.safeParse(body);
  if (!top.success) {
    return top.error;
  }
  const unreadable: string[] = [];
  const unsafeDoorNumbers: number[] = [];
  const devices: Device[] = [];
  top.data.devices.forEach((rawDevice, d) => {
    const device = deviceSchema.safeParse(rawDevice);
    if (!device.success) {
      unreadable.push(where(`devices.${d}`, device.error));
      return;
    }
    const doors: Door[] = [];
    device.data.doors.forEach((rawDoor, i) => {
      const door = doorSchema.safeParse(rawDoor);
      if (door.success) {
        doors.push(toDoor(door.data));
        return;
      }
      unreadable.push(where(`devices.${d}.doors.${i}`, door.error));
      const number = typeof rawDoor === 'object' && rawDoor !== null ? (rawDoor as { id?: unknown }).id : undefined;
      if (typeof number === 'number' && Number.isInteger(number) && !Number.isSafeInteger(number)) unsafeDoorNumbers.push(number);
    });
    const owner = [device.data.owner_first_name, device.data.owner_last_name].filter(Boolean).join(' ');
    devices.push({
      id: device.data.id,
      active: device.data.active,
      softwareVersion: device.data.software_version,
      ownerName: owner || undefined,
      timeBeforeDoorOpenAlert: device.data.time_before_door_open_alert,
      doors,
    });
  });
  return { devices, unreadable, ...(unsafeDoorNumbers.length > 0 ? { unsafeDoorNumbers } : {}) };
}

/** The toggle answer; only `message` matters, and it is optional because error bodies are not to be trusted. */
export const toggleResponseSchema = z.looseObject({
  success: z.missingIfNot(z.boolean()),
  message: z.missingIfNot(z.union([z.string(), z.pipe(z.number(), z.transform(String))])),
});

const historyEventSchema = z.looseObject({
  door_id: optionalText,
  door_name: optionalText,
  door_state: optionalText,
  channel: optionalText,
  user: z.missingIfNot(z.looseObject({ first_name: optionalText, last_name: optionalText, email_address: optionalText })),
  was_success: z.missingIfNot(z.boolean()),
  toggle_date_time: optionalText,
});

const historySchema = z.looseObject({
  data: z.looseObject({ toggle_events: z.array(z.unknown()) }),
});

/** Reads a toggle-history answer; events that do not fit are skipped. */
export function parseHistory(body: unknown): ToggleEvent[] | z.core.$ZodError {
  const top = historySchema.safeParse(body);
  if (!top.success) {
    return top.error;
  }
  return top.data.data.toggle_events.flatMap((raw) => {
    const event = historyEventSchema.safeParse(raw);
    if (!event.success) {
      return [];
    }
    const e = event.data;
    const userName = [e.user?.first_name, e.user?.last_name].filter(Boolean).join(' ');
    return [
      {
        doorId: e.door_id,
        doorName: e.door_name,
        doorState: e.door_state,
        channel: e.channel,
        userName: userName || undefined,
        user: e.user ? { firstName: e.user.first_name, lastName: e.user.last_name, email: e.user.email_address } : undefined,
        wasSuccess: e.was_success,
        at: e.toggle_date_time,
      },
    ];
  });
}

/** `value`'s fields named in `keys` alone, as a new object; anything not an object as it is. */
function fieldsOf(value: unknown, keys: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const fields = value as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => Object.hasOwn(fields, key)).map((key) => [key, fields[key]]));
}

const listOf = (value: unknown, each: (item: unknown) => unknown): unknown => (Array.isArray(value) ? value.map(each) : value);

const DOOR_KEYS = Object.keys(doorSchema.shape);
const DEVICE_KEYS = Object.keys(deviceSchema.shape);
const EVENT_KEYS = Object.keys(historyEventSchema.shape);

/**
 * A sync answer with only the fields parseSync reads: what is cleaned of secrets, so fields the plugin never reads (a
 * door's image, 6 MB of them) cost nothing.
 */
export function syncFieldsRead(body: unknown): unknown {
  const top = fieldsOf(body, ['devices']);
  if (typeof top !== 'object' || top === null) return top;
  const devices = listOf((top as { devices?: unknown }).devices, (device) => {
    const read = fieldsOf(device, DEVICE_KEYS);
    if (typeof read !== 'object' || read === null || Array.isArray(read)) return read;
    const fields = read as Record<string, unknown>;
    return 'doors' in fields ? { ...fields, doors: listOf(fields.doors, (door) => fieldsOf(door, DOOR_KEYS)) } : fields;
  });
  return devices === undefined ? {} : { devices };
}

/** A history answer with only the fields parseHistory reads (see syncFieldsRead). */
export function historyFieldsRead(body: unknown): unknown {
  const top = fieldsOf(body, ['data']);
  if (typeof top !== 'object' || top === null) return top;
  const data = fieldsOf((top as { data?: unknown }).data, ['toggle_events']);
  if (typeof data !== 'object' || data === null) return { data };
  const events = listOf((data as { toggle_events?: unknown }).toggle_events, (event) => fieldsOf(event, EVENT_KEYS));
  return { data: events === undefined ? {} : { toggle_events: events } };
}

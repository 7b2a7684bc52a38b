// Reads a webhook message body (contract 6.2) liberally into a WebhookEvent: both field spellings, unknown fields and types pass.
import * as z from '../util/zod.js';

import { oneLine } from '../util/log-text.js';

import type { DoorState } from '../client/types.js';

export type WebhookEventKind = 'door-state' | 'access' | 'management' | 'enforcer' | 'unknown';

export interface WebhookUser {
  firstName?: string;
  lastName?: string;
  email?: string;
  /** A whole name, when the body gives one instead of first and last names. */
  name?: string;
}

/** The vehicle of an enforcer event (an unauthorized vehicle at a gate); the contract does not show its fields. */
export interface WebhookVehicle {
  licensePlate?: string;
  make?: string;
  model?: string;
  color?: string;
}

export interface WebhookEvent {
  id: string | undefined;
  /** As sent (trimmed); '' when the body had none. */
  eventType: string;
  kind: WebhookEventKind;
  doorId: string | undefined;
  deviceId: string | undefined;
  /** N of a door-numbered event type (`door1_open` → 1). */
  doorNumber: number | undefined;
  doorState: DoorState | undefined;
  occurredAtMs: number | undefined;
  channel: string | undefined;
  toggleId: string | undefined;
  /** `doorOwnerUserID`: the user who owns the device. */
  ownerUserId: string | undefined;
  /** `userThatToggled` (or, in bodies the contract does not show, `user`). */
  user: WebhookUser | undefined;
  /** A vehicle named by an enforcer event (`vehicle`, or a top-level `licensePlate`). */
  vehicle?: WebhookVehicle | undefined;
  /** One human line for logs, e.g. `door_state_change: OPEN by Ada Lovelace (Keypad)`; free of control characters. */
  summary: string;
}

/**
 * Text fields: a string (trimmed, '' read as missing) or a number read as text; anything else is missing, and so is a
 * whole number too large to read exactly (an id beyond 2^53 would read as another door's).
 */
const text = z.pipe(
  z.catch(
    z.optional(
      z.union([
        z.string(),
        z.pipe(
          z.number(),
          z.transform((n: number) => (Number.isInteger(n) && !Number.isSafeInteger(n) ? '' : String(n))),
        ),
      ]),
    ),
    undefined,
  ),
  z.transform((value: string | undefined) => value?.trim() || undefined),
);

const userSchema = z.missingIfNot(
  z.looseObject({
    firstName: text,
    lastName: text,
    first_name: text,
    last_name: text,
    emailAddress: text,
    email: text,
    name: text,
    fullName: text,
  }),
);

/** An object that names something by id (a nested `door`, `accessPoint` or `device`); anything else is missing. */
const idHolderSchema = z.missingIfNot(z.looseObject({ id: text, doorID: text, doorId: text, deviceID: text, deviceId: text }));

const vehicleSchema = z.missingIfNot(
  z.looseObject({ licensePlate: text, plate: text, licensePlateNumber: text, make: text, model: text, color: text, colour: text }),
);

// Both spellings of each id: the example body says doorID, the field table doorId (contract 6.2).
const bodySchema = z.looseObject({
  id: text,
  eventType: text,
  doorID: text,
  doorId: text,
  deviceID: text,
  deviceId: text,
  toggleID: text,
  toggleId: text,
  doorOwnerUserID: text,
  doorOwnerUserId: text,
  doorState: text,
  channel: text,
  eventOccurred: z.optional(z.unknown()),
  eventOccurredUTC: text,
  userThatToggled: userSchema,
  // Enforcer bodies are not shown in the contract (6.2): the likely spellings of where and who, read liberally.
  door_id: text,
  door: idHolderSchema,
  accessPoint: idHolderSchema,
  accessPointID: text,
  accessPointId: text,
  device_id: text,
  device: idHolderSchema,
  user: userSchema,
  vehicle: vehicleSchema,
  licensePlate: text,
  plate: text,
});

/** `door1_open`, `door2_close`, `door3_closed` (and a liberal `opened`, or no number at all). */
const DOOR_NUMBERED_TYPE = /^door(\d*)_(open|opened|close|closed)$/i;
/** A seconds value this large is past year 5000: the sender must have meant milliseconds. */
const MILLISECONDS_THRESHOLD = 1e11;
const MAX_SUMMARY_FIELD_CHARS = 80;

/** Reads one message body; `{ error }` only when the body is not a JSON object. Never throws. */
export function parseWebhookEvent(body: unknown): WebhookEvent | { error: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { error: `the body is not a JSON object (got ${describe(body)})` };
  }
  let parsed: ReturnType<typeof bodySchema.safeParse>;
  try {
    parsed = bodySchema.safeParse(body);
  } catch (error) {
    // Only an exotic object (a throwing getter) gets here; JSON.parse never builds one.
    return { error: `the body could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!parsed.success) {
    return { error: `the body could not be read: ${parsed.error.issues[0]?.message ?? 'unreadable'}` };
  }
  const raw = parsed.data;
  const eventType = raw.eventType ?? '';
  const numbered = DOOR_NUMBERED_TYPE.exec(eventType);
  const kind: WebhookEventKind = numbered ? 'door-state' : classify(eventType);
  const doorState = readDoorState(raw.doorState) ?? (numbered ? stateFromSuffix(numbered[2]) : undefined);
  const user = readUser(raw.userThatToggled) ?? readUser(raw.user);
  const vehicle = readVehicle(raw.vehicle, raw.licensePlate ?? raw.plate);
  const event: Omit<WebhookEvent, 'summary'> = {
    id: raw.id,
    eventType,
    kind,
    doorId:
      raw.doorID ??
      raw.doorId ??
      raw.door_id ??
      nestedId(raw.door, 'door') ??
      raw.accessPointID ??
      raw.accessPointId ??
      nestedId(raw.accessPoint, 'door'),
    deviceId: raw.deviceID ?? raw.deviceId ?? raw.device_id ?? nestedId(raw.device, 'device'),
    doorNumber: numbered?.[1] ? toSafeInteger(numbered[1]) : undefined,
    doorState,
    occurredAtMs: readSeconds(raw.eventOccurred) ?? readIsoUtc(raw.eventOccurredUTC),
    channel: raw.channel,
    toggleId: raw.toggleID ?? raw.toggleId,
    ownerUserId: raw.doorOwnerUserID ?? raw.doorOwnerUserId,
    user,
    vehicle,
  };
  return { ...event, summary: summarize(event) };
}

/**
 * The contract names the categories (6.1) but not the event types. Enforcer comes first because an
 * "unauthorized access" is an enforcer event; added/removed before access because adding a user to the
 * access list is a management event; a bare user_/vehicle_ prefix is management last so `user_access` stays access.
 */
function classify(eventType: string): WebhookEventKind {
  const type = eventType.toLowerCase();
  if (type === 'door_state_change') {
    return 'door-state';
  }
  if (/enforcer|unauthori[sz]ed/.test(type)) {
    return 'enforcer';
  }
  if (/added|removed|management/.test(type)) {
    return 'management';
  }
  if (type.includes('access')) {
    return 'access';
  }
  if (/user_|vehicle_/.test(type)) {
    return 'management';
  }
  return 'unknown';
}

function readDoorState(value: string | undefined): DoorState | undefined {
  const state = value?.toUpperCase();
  return state === 'OPEN' || state === 'CLOSED' ? state : undefined;
}

function stateFromSuffix(suffix: string | undefined): DoorState | undefined {
  return suffix?.toLowerCase().startsWith('open') ? 'OPEN' : suffix ? 'CLOSED' : undefined;
}

/** `eventOccurred`: UNIX seconds as a number or a numeric string. */
function readSeconds(value: unknown): number | undefined {
  const seconds = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(seconds) || seconds <= 0) {
    return undefined;
  }
  return Math.round(seconds >= MILLISECONDS_THRESHOLD ? seconds : seconds * 1000);
}

/** `eventOccurredUTC`: ISO 8601; a time without a zone is UTC (contract 6.2), never the bridge's local time. */
function readIsoUtc(value: string | undefined): number | undefined {
  if (!value) {
    return undefined;
  }
  let iso = value.replace(' ', 'T');
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(iso)) {
    iso += 'Z';
  }
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

function readUser(raw: z.output<typeof userSchema>): WebhookUser | undefined {
  if (!raw) {
    return undefined;
  }
  const user: WebhookUser = {};
  const firstName = raw.firstName ?? raw.first_name;
  const lastName = raw.lastName ?? raw.last_name;
  if (firstName) user.firstName = firstName;
  if (lastName) user.lastName = lastName;
  const email = raw.emailAddress ?? raw.email;
  if (email) user.email = email;
  const name = raw.name ?? raw.fullName;
  if (name) user.name = name;
  return Object.keys(user).length > 0 ? user : undefined;
}

/** The id in a nested `{ id }` (or `{ doorID }` / `{ deviceID }`) object. */
function nestedId(holder: z.output<typeof idHolderSchema>, what: 'door' | 'device'): string | undefined {
  if (!holder) {
    return undefined;
  }
  return holder.id ?? (what === 'door' ? (holder.doorID ?? holder.doorId) : (holder.deviceID ?? holder.deviceId));
}

function readVehicle(raw: z.output<typeof vehicleSchema>, topLevelPlate: string | undefined): WebhookVehicle | undefined {
  const vehicle: WebhookVehicle = {};
  const plate = raw?.licensePlate ?? raw?.plate ?? raw?.licensePlateNumber ?? topLevelPlate;
  if (plate) vehicle.licensePlate = plate;
  if (raw?.make) vehicle.make = raw.make;
  if (raw?.model) vehicle.model = raw.model;
  const color = raw?.color ?? raw?.colour;
  if (color) vehicle.color = color;
  return Object.keys(vehicle).length > 0 ? vehicle : undefined;
}

/** "Ada Lovelace", else the whole name, else the e-mail address: who, for a log line (not yet cleaned). */
function personOf(user: WebhookUser | undefined): string | undefined {
  if (!user) {
    return undefined;
  }
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.name || user.email;
}

/** "Mallory Doe (mallory@example.com)": the person and, when there is both, the address. */
function personWithEmail(user: WebhookUser | undefined): string | undefined {
  const person = personOf(user);
  return person && user?.email && person !== user.email ? `${clean(person)} (${clean(user.email)})` : person;
}

/** "vehicle AB-123 (red Ford Transit)", cleaned for a log line. */
function describeVehicle(vehicle: WebhookVehicle): string {
  const looks = [vehicle.color, vehicle.make, vehicle.model]
    .filter(Boolean)
    .map((part) => clean(part ?? ''))
    .join(' ');
  const plate = vehicle.licensePlate ? clean(vehicle.licensePlate) : 'without a plate';
  return `vehicle ${plate}${looks ? ` (${looks})` : ''}`;
}

function summarize(event: Omit<WebhookEvent, 'summary'>): string {
  // For an unauthorized person the address tells who it was when a name is shared or missing.
  const who = event.kind === 'enforcer' ? personWithEmail(event.user) : personOf(event.user);
  const door = event.doorNumber !== undefined ? `door ${event.doorNumber} ` : '';
  let line = clean(event.eventType || '(no eventType)');
  if (event.doorState) {
    line += `: ${door}${event.doorState}`;
  }
  if (who) {
    line += ` by ${clean(who)}`;
  }
  if (event.vehicle) {
    line += `${who ? ',' : ':'} ${describeVehicle(event.vehicle)}`;
  }
  if (event.channel) {
    line += ` (${clean(event.channel)})`;
  }
  return line;
}

/** Text from the network made safe for one log line. */
export function clean(value: string): string {
  return oneLine(value, MAX_SUMMARY_FIELD_CHARS);
}

function toSafeInteger(digits: string): number | undefined {
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : undefined;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

// The simulator's types in one file that its modules import and that imports none of them: the account's data model,
// the constructor's options, history, webhook and account-state shapes, so no two of its modules import each other.

export type SimDoorState = 'OPEN' | 'CLOSED';

/** A person as the service shows them in history (`user`) and webhooks (`userThatToggled`). */
export interface SimUser {
  id: string;
  firstName: string;
  lastName: string;
  emailAddress: string;
}

export interface SimDoor {
  id: string;
  name: string;
  entityNumber: number;
  active: boolean;
  state: SimDoorState;
  lastToggled: Date;
  userRelationship: string;
  image: string;
  light: boolean;
  sensor: boolean;
  bluetoothSensor: boolean;
  bluetoothSensorMac: string;
  batteryLevel: number;
  autoCloseEnabled: boolean;
  autoCloseDelayS: number;
}

export interface SimDevice {
  id: string;
  active: boolean;
  registered: boolean;
  /** Not in the sync response; used as the webhook's `doorOwnerUserID`. */
  ownerUserId: string;
  ownerFirstName: string;
  ownerLastName: string;
  lastContact: Date;
  bluetoothOnboard: boolean;
  bluetoothMac: string;
  timeBeforeDoorOpenAlertS: number;
  blackboxCode: string;
  softwareVersion: string;
  doors: SimDoor[];
}

/**
 * How the toggle history is written, where the contract leaves it open: the order of its entries (newest first by
 * default, oldest first, or shuffled), whether `toggle_date_time` carries a time of day (`date-time`,
 * `YYYY-MM-DD HH:MM:SS`, by default), the date alone (`date-only`, `YYYY-MM-DD`) or ISO 8601 with its zone (`iso`,
 * `YYYY-MM-DDTHH:MM:SS+01:00`, `Z` in UTC), the zone of the service's clock, and whether it gives a controller's history.
 */
export interface HistoryShape {
  order?: 'newest-first' | 'oldest-first' | 'shuffled';
  dates?: 'date-time' | 'date-only' | 'iso';
  /**
   * Minutes east of UTC of the service's clock (default 0): the history's times and the sync's `last_toggled` are its
   * wall clock, as a service keeping local time writes them.
   */
  zoneOffsetMinutes?: number;
  /** false: `history_type=device` is answered 400, as by a service that takes only the parameter table's door and user. */
  deviceHistory?: boolean;
}

export interface SimulatorOptions {
  accessToken: string;
  /** Default: sampleAccount(). The simulator mutates these objects. */
  devices?: SimDevice[];
  /** Default 3000 ms. */
  travelTimeMs?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** 0 (default) = an ephemeral port. */
  port?: number;
  webhook?: WebhookTarget;
  /** Clock for timestamps (ms since the epoch); timers still run on real time. */
  now?: () => number;
  /** Demand every header the contract lists, as the real service does (default true). */
  strictHeaders?: boolean;
  /** Fills `$hardware_name` in toggle messages (default 'Gate Controller'). */
  hardwareName?: string;
  /** The token holder, recorded as the user of API toggles (default Ada Lovelace). */
  accountUser?: SimUser;
  /** How the toggle history is written (default: newest first, with a time of day). */
  history?: HistoryShape;
}

export interface ExternalChange {
  /** Default 'Keypad'. */
  channel?: string;
  /** Default: the account user. */
  user?: SimUser;
  /** Change the door without sending a webhook (e.g. to test polling). */
  silent?: boolean;
  /** The history entry's `toggle_date_time` written as this text, whatever the shape (a form the plugin may not read). */
  dateText?: string;
}

export interface SeedHistoryEvent {
  doorId: string;
  doorState: SimDoorState;
  at: Date;
  channel?: string;
  user?: SimUser;
  wasSuccess?: boolean;
  /** `toggle_date_time` written as this text, whatever the shape. */
  dateText?: string;
}

export interface SimHistoryEvent {
  doorId: string;
  deviceId: string;
  doorName: string;
  doorState: SimDoorState;
  channel: string;
  user: SimUser;
  wasSuccess: boolean;
  at: Date;
  /** `toggle_date_time` as this text, whatever the history's shape (a form a client may not read). */
  dateText?: string;
}

/** Which events a toggle-history request selects; days are `YYYY-MM-DD`, inclusive, UTC. */
export interface HistoryFilter {
  doorId?: string;
  deviceId?: string;
  startDay?: string;
  endDay?: string;
}

/** 'example' = doorID/deviceID as in the example body; 'table' = doorId/deviceId as in the field table. */
export type WebhookSpelling = 'example' | 'table';

export type WebhookEvent = Record<string, unknown>;

export interface WebhookEventInput {
  toggleId: string;
  doorId: string;
  doorState: SimDoorState;
  channel: string;
  deviceId: string;
  at: Date;
  ownerUserId: string;
  user: SimUser;
}

export interface WebhookTarget {
  /** http or https; self-signed https certificates are accepted. */
  url: string;
  apiKey: string;
  /** Default 'X-Service-API-Key'. */
  headerName?: string;
  /** Default 'example' (doorID/deviceID). */
  spelling?: WebhookSpelling;
}

export interface WebhookDelivery {
  body: WebhookEvent;
  /** Receiver's HTTP status, when it answered. */
  status?: number;
  /** Why the delivery failed without a status (connection refused, timeout, ...). */
  error?: string;
}

export interface RawWebhookResponse {
  status: number;
  body: string;
}

/** Extra headers for a raw webhook; `null` removes a default header (e.g. the key). */
export type RawWebhookHeaders = Record<string, string | null>;

export interface DoorLocation {
  device: SimDevice;
  door: SimDoor;
}

/** A completed state change, handed to the listener that sends webhooks. */
export interface DoorChange extends DoorLocation {
  state: SimDoorState;
  channel: string;
  user: SimUser;
  toggleId: string;
  at: Date;
  silent: boolean;
}

export interface ExternalChangeOptions {
  channel: string;
  user: SimUser;
  silent: boolean;
  /** The history entry's date as this text, whatever the shape. */
  dateText?: string | undefined;
}

export interface PendingTravelInfo {
  doorId: string;
  target: SimDoorState;
  dueAtMs: number;
}

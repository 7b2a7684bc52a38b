// Option and argument types of AccessControlSimulator's constructor and control methods.
import type { SimDevice, SimDoorState, SimUser } from './account.js';
import type { WebhookTarget } from './webhook-sender.js';

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

// Option and argument types of AccessControlSimulator's constructor and control methods.
import type { SimDevice, SimDoorState, SimUser } from './account.js';
import type { WebhookTarget } from './webhook-sender.js';

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
}

export interface ExternalChange {
  /** Default 'Keypad'. */
  channel?: string;
  /** Default: the account user. */
  user?: SimUser;
  /** Change the door without sending a webhook (e.g. to test polling). */
  silent?: boolean;
}

export interface SeedHistoryEvent {
  doorId: string;
  doorState: SimDoorState;
  at: Date;
  channel?: string;
  user?: SimUser;
  wasSuccess?: boolean;
}

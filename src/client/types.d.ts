// The account as the plugin understands it: what a sync says, normalised and free of the wire's spellings.

export type DoorState = 'OPEN' | 'CLOSED';

export interface Door {
  id: string;
  name: string;
  /** The door's number on its controller; webhooks may name a door by it (door1_open). */
  entityNumber: number | undefined;
  /** Whether the service says the door is in use; an inactive door still shows, but as "No Response". */
  active: boolean;
  /** `null` when the service sent a state the plugin does not know: the door keeps its last known state. */
  state: DoorState | null;
  /** What the service sent as state, kept to log an unknown value once. */
  rawState: string | undefined;
  relationship: string | undefined;
  hasBluetoothSensor: boolean;
  /** Percent, only meaningful with a bluetooth sensor. */
  batteryLevel: number | undefined;
  autoCloseEnabled: boolean;
  autoCloseDelay: number;
  /**
   * When the door last moved, as the service writes it (its own clock and zone, so only ever compared with itself): a
   * value that changed since a command proves the door moved, even when no sync saw it away from where it was.
   */
  lastToggled?: string | undefined;
}

export interface Device {
  id: string;
  /** An inactive controller cannot move its doors, so they show "No Response". */
  active: boolean;
  softwareVersion: string | undefined;
  ownerName: string | undefined;
  timeBeforeDoorOpenAlert: number | undefined;
  doors: Door[];
}

export interface Account {
  devices: Device[];
  /** Parts of the answer that could not be read; when not empty, missing doors must not be taken as removed. */
  unreadable: string[];
  /**
   * Door ids sent as numbers too large to read exactly (beyond 2^53), as JSON read them: such a door is left out (no
   * command may carry an id the plugin could not read exactly), and a door whose id reads as one of them is read-only.
   */
  unsafeDoorNumbers?: number[];
}

export interface ToggleEvent {
  doorId: string | undefined;
  doorName: string | undefined;
  doorState: string | undefined;
  channel: string | undefined;
  userName: string | undefined;
  /** Who, as the history names them: the person sensors match on these. */
  user?: { firstName?: string | undefined; lastName?: string | undefined; email?: string | undefined };
  wasSuccess: boolean | undefined;
  at: string | undefined;
}

// Which of the account's doors HomeKit shows: those the options let in, each door once, and no more than one bridge holds.
import type { Device, Door } from '../client/types.js';
import type { PluginConfig } from '../config/index.js';
import { NO_PROTECTION } from '../config/protection.js';
import type { Protection } from '../config/protection.js';
import { keepFirstOfEachDoor } from '../door/duplicates.js';
import type { DoorOfDevice, DuplicateDoor } from '../door/duplicates.js';
import { exclusionReason } from '../config/door-options.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../settings.js';

/**
 * A controller and the doors it lists, as far as the rule reads them: ids and relationships. The plugin passes the
 * account's devices; the settings page its summary of them (src/ui/shared/check-config.ts), so both count the same doors.
 */
interface Listing {
  id: string;
  doors: readonly Pick<Door, 'id' | 'relationship'>[];
}

type DoorOf<V extends Listing> = V['doors'][number];

/** A door the options keep out of HomeKit, and why. */
interface ExcludedDoor<D> {
  door: D;
  reason: string;
}

export interface ShownDoors<V extends Listing = Device> {
  /** The doors to show, in the account's order, or by door id when cut to what one bridge holds. */
  shown: DoorOfDevice<DoorOf<V>, V>[];
  /** Doors the options keep out, except a door shown under another controller. */
  excluded: ExcludedDoor<DoorOf<V>>[];
  /** Door ids listed under more than one controller (each shown once). */
  duplicates: DuplicateDoor[];
  /** How many doors would be shown, when that is more than one bridge holds. */
  overLimit: number | undefined;
  /** The doors the options let in that the bridge has no room for (empty when all fit). */
  leftOut: DoorOfDevice<DoorOf<V>, V>[];
}

/** What the cap works with beside the config: the room left, and the doors Home shows now (they keep their place). */
export interface CapPlan {
  /** Doors the bridge has room for; doorCap(config) by default. */
  room?: number;
  /** Ids of the doors Home shows now: they stay before any door new to Home, so a new door never displaces one. */
  inHome?: ReadonlySet<string>;
}

/**
 * Every door of every device the options let in, capped at what one bridge can hold, in a stable order. `protection`: what
 * settings that name no door exactly could mean (src/config/protection.ts).
 */
export function shownDoors<V extends Listing>(
  account: { devices: readonly V[] },
  config: PluginConfig,
  protection: Protection = NO_PROTECTION,
  plan: CapPlan = {},
): ShownDoors<V> {
  // The person sensors are accessories of the same bridge: the doors get what they leave.
  const cap = plan.room ?? doorCap(config);
  const shown: DoorOfDevice<DoorOf<V>, V>[] = [];
  const excluded: ExcludedDoor<DoorOf<V>>[] = [];
  for (const device of account.devices) {
    for (const door of device.doors) {
      const reason = exclusionReason(config, door, device.id, protection);
      if (reason === undefined) {
        shown.push({ door, device });
      } else {
        excluded.push({ door, reason });
      }
    }
  }
  const { kept, duplicates } = keepFirstOfEachDoor(shown);
  // A door shown under one controller is not removed for being filtered out under another.
  const keptIds = new Set(kept.map(({ door }) => door.id));
  const stillExcluded = excluded.filter(({ door }) => !keptIds.has(door.id));
  return { ...capDoors(kept, cap, plan.inHome), excluded: stillExcluded, duplicates };
}

/**
 * The doors that fit in `room`, in the account's order when all do. Else doors already in Home first (a new door never
 * takes the place of one with automations), then by door id in character order (not the locale's), so the same doors
 * stay shown whatever order the service lists them in.
 */
export function capDoors<T extends { door: { id: string } }>(
  doors: T[],
  room: number,
  inHome: ReadonlySet<string> = new Set<string>(),
): { shown: T[]; leftOut: T[]; overLimit: number | undefined } {
  if (doors.length <= room) {
    return { shown: doors, leftOut: [], overLimit: undefined };
  }
  const sorted = [...doors].sort(
    (a, b) => Number(inHome.has(b.door.id)) - Number(inHome.has(a.door.id)) || byDoorIdOrder(a.door.id, b.door.id),
  );
  return { shown: sorted.slice(0, room), leftOut: sorted.slice(room), overLimit: doors.length };
}

/** Door ids in the order of their UTF-16 code units: the same on every machine, whatever its locale. */
export function byDoorIdOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Doors the bridge has room for: its cap less the plugin's `others` accessories (person sensors). */
export function doorRoom(others: number): number {
  return Math.max(0, MAX_ACCESSORIES_PER_BRIDGE - others);
}

/** How many doors one bridge shows: what its cap leaves beside the platform entry's person sensors. */
export function doorCap(config: Pick<PluginConfig, 'people'>): number {
  return doorRoom(config.people.length);
}

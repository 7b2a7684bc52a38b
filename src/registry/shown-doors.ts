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
}

/**
 * Every door of every device the options let in, capped at what one bridge can hold, in a stable order. `protection`: what
 * settings that name no door exactly could mean (src/config/protection.ts).
 */
export function shownDoors<V extends Listing>(
  account: { devices: readonly V[] },
  config: PluginConfig,
  protection: Protection = NO_PROTECTION,
): ShownDoors<V> {
  // The person sensors are accessories of the same bridge: the doors get what they leave.
  const cap = doorCap(config);
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
  if (kept.length <= cap) {
    return { shown: kept, excluded: stillExcluded, duplicates, overLimit: undefined };
  }
  // Cut by door id, so the same doors stay shown whatever order the service lists them in.
  kept.sort((a, b) => a.door.id.localeCompare(b.door.id));
  return { shown: kept.slice(0, cap), excluded: stillExcluded, duplicates, overLimit: kept.length };
}

/** How many doors one bridge shows: what its cap leaves beside the platform entry's person sensors. */
export function doorCap(config: Pick<PluginConfig, 'people'>): number {
  return Math.max(0, MAX_ACCESSORIES_PER_BRIDGE - config.people.length);
}

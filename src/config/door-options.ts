// Which doors appear in HomeKit and with what: the global door options merged with each door's own settings.
import type { Door } from '../client/types.js';
import type { PluginConfig, ReadOnlyLock } from './index.js';
import { couldBeNumber } from './values.js';
import { canonicalId } from '../util/canonical-id.js';
import { NO_PROTECTION } from './protection.js';
import type { Protection } from './protection.js';
import { doorReads, OPTIONS, perDoor } from '../option-catalog.js';
import type { AutomationSwitchMode, DoorOption, ShowAs } from '../option-catalog.js';
import { resolved } from '../option-values.js';
import type { Resolved } from '../option-values.js';

// Where the door's other modules have always found it.
export type { AutomationSwitchMode };

/** Each option's value for a door, under its catalog key, its default applied (option-values.ts). */
type DoorOptionValues = { [O in DoorOption as O['key']]: Resolved<O> };

/** One door's options: its own where its entry sets them, else the ones for all doors (see the catalog for each). */
export interface DoorOptions extends Omit<DoorOptionValues, 'showAs'> {
  /** Name shown in HomeKit instead of the service's, when the user set one. */
  name: string | undefined;
  /** Undefined: the setting that chooses it could not be read, so the door keeps the kind Home shows now. */
  showAs: ShowAs | undefined;
}

/** The catalog's options that become a value of each door (option-catalog.ts, `applies`). */
const DOOR_OPTIONS = OPTIONS.filter(doorReads);

/** Each option: the door's own value where its entry sets one, else the one for all doors, else its default. */
function valuesOf(own: Partial<Record<string, unknown>>, global: Partial<Record<string, unknown>>): DoorOptionValues {
  return Object.fromEntries(
    DOOR_OPTIONS.map((option) => [option.key, resolved(option, (perDoor(option) ? own[option.key] : undefined) ?? global[option.key])]),
  ) as DoorOptionValues;
}

/**
 * A door's options when nothing sets them: each the catalog's default, no name of its own. What a door runs a kept
 * extra with while the settings cannot be read (its extras and kind stay as cached, door-accessory.ts).
 */
export const DEFAULT_DOOR_OPTIONS: DoorOptions = { ...valuesOf({}, {}), name: undefined };

type OptionsConfig = Pick<PluginConfig, 'doors' | 'readOnlyLock' | 'includeDoors' | DoorOption['key']> & {
  keptAsCached?: PluginConfig['keptAsCached'];
};
type FilterConfig = OptionsConfig & Pick<PluginConfig, 'includeDeviceIds' | 'excludeDeviceIds' | 'includeDoorIds' | 'excludeDoorIds'>;

/**
 * Whether a protective setting that could not be read keeps this door read-only; an unknown controller counts as
 * unnamed. The lock's ids are in canonicalId form (the parser's); the service's are compared in it.
 */
function locked(lock: ReadOnlyLock, doorId: string, deviceId: string | undefined): boolean {
  const door = canonicalId(doorId);
  const device = deviceId === undefined ? undefined : canonicalId(deviceId);
  return (
    lock.all ||
    (lock.openableDoorIds !== undefined && !lock.openableDoorIds.includes(door)) ||
    (lock.openableDeviceIds !== undefined && (device === undefined || !lock.openableDeviceIds.includes(device))) ||
    (lock.doorNumbers ?? []).some((number) => couldBeNumber(door, number)) ||
    (device !== undefined && (lock.deviceNumbers ?? []).some((number) => couldBeNumber(device, number)))
  );
}

export function doorOptions(config: OptionsConfig, doorId: string, deviceId?: string): DoorOptions {
  // The entries' ids are in canonicalId form (the parser's): the service's id is compared in it.
  const entry = config.doors.find((door) => door.id === canonicalId(doorId));
  const own: Partial<Record<string, unknown>> = entry ?? {};
  const values = valuesOf(own, config);
  const kept = config.keptAsCached;
  // A kind that could not be read (the door's own, or, without one, the one for all doors) keeps the cached kind.
  const kindUnread = kept !== undefined && (kept.showAsDoorIds.includes(canonicalId(doorId)) || (own.showAs === undefined && kept.showAs));
  return {
    ...values,
    showAs: kindUnread ? undefined : values.showAs,
    name: entry?.name,
    readOnly: locked(config.readOnlyLock, doorId, deviceId) || values.readOnly,
  };
}

/** Whether an include list leaves `id` out (an empty list includes all). */
const outOf = (list: readonly string[], id: string): boolean => list.length > 0 && !list.includes(id);

/** Whether the controller filters let a controller's doors in: the one rule, for the plugin and the page's controller ticks. */
export function controllerLetIn(config: Pick<PluginConfig, 'includeDeviceIds' | 'excludeDeviceIds'>, deviceId: string): boolean {
  const id = canonicalId(deviceId);
  return !outOf(config.includeDeviceIds, id) && !config.excludeDeviceIds.includes(id);
}

/**
 * Whether a setting that names this door in a form the plugin could not read exactly keeps it read-only (protection.ts):
 * read at each command, since which doors those settings name is known only once the account is.
 */
export function guarded(protection: Protection, doorId: string): boolean {
  return guardReason(protection, doorId) !== undefined;
}

/**
 * Why such a setting keeps this door read-only, as the refusal of a command says it, or undefined. It names the setting,
 * never "read-only in the plugin settings": the user would look for that in the door's entry and not find it.
 */
export function guardReason(protection: Protection, doorId: string): string | undefined {
  if (protection.everyDoor) return 'every door is read-only until the plugin has read which doors the settings name';
  const why = protection.readOnly.get(canonicalId(doorId));
  return why === undefined ? undefined : `it is read-only until a setting is fixed: ${why}`;
}

/**
 * Why a door stays out of HomeKit, or undefined when it is shown. Reads only a door's id and relationship: the settings
 * page runs it on the doors it shows (src/ui/shared/check-config.ts). `protection`: what settings that name no door exactly
 * could mean (a door an exclusion could mean is left out; one an include list could mean is let in, read-only).
 */
export function exclusionReason(
  config: FilterConfig,
  door: Pick<Door, 'id' | 'relationship'>,
  deviceId: string,
  protection: Protection = NO_PROTECTION,
): string | undefined {
  const [doorId, controllerId] = [canonicalId(door.id), canonicalId(deviceId)];
  if (config.doors.some((own) => own.id === doorId && own.hide === true)) {
    return 'it is hidden in the plugin settings';
  }
  const leftOut = protection.leftOut.get(doorId);
  if (leftOut !== undefined) {
    return `${leftOut}; fix that setting to show it again`;
  }
  const letIn = protection.letIn.has(doorId);
  if (config.excludeDeviceIds.includes(controllerId) || (!letIn && outOf(config.includeDeviceIds, controllerId))) {
    return 'its controller is filtered out in the plugin settings';
  }
  if ((!letIn && outOf(config.includeDoorIds, doorId)) || config.excludeDoorIds.includes(doorId)) {
    return 'it is filtered out in the plugin settings';
  }
  // A door whose relationship the service did not send is kept: hiding it would be a guess.
  if (config.includeDoors === 'owned' && door.relationship !== undefined && door.relationship.toLowerCase() !== 'owner') {
    return `only owned doors are included and this one is "${door.relationship}"`;
  }
  return undefined;
}

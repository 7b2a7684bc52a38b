// Which doors appear in HomeKit and with what: the global door options merged with each door's own settings.
import type { Door } from '../client/types.js';
import type { PluginConfig, ReadOnlyLock } from '../config.js';

/** What the automation switch does: none; on opens and it turns itself off again; on opens and off closes. */
export type AutomationSwitchMode = 'off' | 'open' | 'open-close';

/** The mode a config value means: `true` (the value of older configs) is open only, the safe choice. */
export function automationSwitchMode(value: boolean | AutomationSwitchMode): AutomationSwitchMode {
  return value === true ? 'open' : value === false ? 'off' : value;
}

export interface DoorOptions {
  /** Name shown in HomeKit instead of the service's, when the user set one. */
  name: string | undefined;
  readOnly: boolean;
  automationSwitch: AutomationSwitchMode;
  leftOpenSensor: boolean;
  /** Seconds open before the left-open sensor trips; undefined: the controller's own alert time. */
  leftOpenAfterS: number | undefined;
  contactSensor: boolean;
  /** No Battery service, so no level and no low-battery alarm in Home. */
  hideBattery: boolean;
  /** A motion sensor that detects for a while when an enforcer event names the door or its controller. */
  accessAlert: boolean;
  /** Seconds the access alert detects after an event (one setting for all doors). */
  accessAlertDurationS: number;
}

type OptionsConfig = Pick<
  PluginConfig,
  'doors' | 'readOnlyLock' | 'includeDoors' | 'readOnly' | 'automationSwitch' | 'leftOpenSensor' | 'leftOpenAfter' | 'contactSensor' | 'hideBattery' | 'accessAlert' | 'accessAlertDuration'
>;
type FilterConfig = OptionsConfig &
  Pick<PluginConfig, 'includeDeviceIds' | 'excludeDeviceIds' | 'includeDoorIds' | 'excludeDoorIds'>;

/** Whether a protective setting that could not be read keeps this door read-only; an unknown controller counts as unnamed. */
function locked(lock: ReadOnlyLock, doorId: string, deviceId: string | undefined): boolean {
  return (
    lock.all ||
    (lock.openableDoorIds !== undefined && !lock.openableDoorIds.includes(doorId)) ||
    (lock.openableDeviceIds !== undefined && (deviceId === undefined || !lock.openableDeviceIds.includes(deviceId)))
  );
}

export function doorOptions(config: OptionsConfig, doorId: string, deviceId?: string): DoorOptions {
  const own = config.doors.find((door) => door.id === doorId);
  return {
    name: own?.name,
    readOnly: locked(config.readOnlyLock, doorId, deviceId) || (own?.readOnly ?? config.readOnly),
    automationSwitch: automationSwitchMode(own?.automationSwitch ?? config.automationSwitch),
    leftOpenSensor: own?.leftOpenSensor ?? config.leftOpenSensor,
    leftOpenAfterS: own?.leftOpenAfter ?? config.leftOpenAfter,
    contactSensor: own?.contactSensor ?? config.contactSensor,
    hideBattery: own?.hideBattery ?? config.hideBattery,
    accessAlert: own?.accessAlert ?? config.accessAlert,
    accessAlertDurationS: config.accessAlertDuration,
  };
}

/** Why a door stays out of HomeKit, or undefined when it is shown. */
export function exclusionReason(config: FilterConfig, door: Door, deviceId: string): string | undefined {
  if (config.doors.some((own) => own.id === door.id && own.hide === true)) {
    return 'it is hidden in the plugin settings';
  }
  const outOf = (list: string[], id: string): boolean => list.length > 0 && !list.includes(id);
  if (outOf(config.includeDeviceIds, deviceId) || config.excludeDeviceIds.includes(deviceId)) {
    return 'its controller is filtered out in the plugin settings';
  }
  if (outOf(config.includeDoorIds, door.id) || config.excludeDoorIds.includes(door.id)) {
    return 'it is filtered out in the plugin settings';
  }
  // A door whose relationship the service did not send is kept: hiding it would be a guess.
  if (config.includeDoors === 'owned' && door.relationship !== undefined && door.relationship.toLowerCase() !== 'owner') {
    return `only owned doors are included and this one is "${door.relationship}"`;
  }
  return undefined;
}

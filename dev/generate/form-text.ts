// The words config.schema.json gives an option that the option catalog does not hold (yet): descriptions, placeholders,
// which flag shows a field, per-door titles. A catalog entry with the same field wins, so each can move into the catalog.
import type { OptionSpec } from '../../src/option-catalog.js';
import {
  ACTIVE_POLL_INTERVAL_MS,
  DEFAULT_ACCESS_ALERT_DURATION_S,
  DEFAULT_LEFT_OPEN_AFTER_S,
  DEFAULT_LOW_BATTERY_THRESHOLD_PCT,
  DEFAULT_PERSON_SENSOR_DURATION_S,
  DEFAULT_POLL_INTERVAL_S,
  DEFAULT_TRANSITION_TIMEOUT_S,
  LEFT_OPEN_REPEAT_CLEARED_MS,
  MAX_ACCESS_ALERT_DURATION_S,
  MAX_LEFT_OPEN_AFTER_S,
  MAX_LEFT_OPEN_REPEAT_MIN,
  MAX_PERSON_SENSOR_DURATION_S,
  MAX_POLL_INTERVAL_S,
  MAX_TRANSITION_TIMEOUT_S,
  MIN_ACCESS_ALERT_DURATION_S,
  MIN_LEFT_OPEN_AFTER_S,
  MIN_LEFT_OPEN_REPEAT_MIN,
  MIN_PERSON_SENSOR_DURATION_S,
  MIN_POLL_INTERVAL_S,
  MIN_TRANSITION_TIMEOUT_S,
} from '../../src/settings.js';

export interface FormText {
  /** The form's description at the top level; it must say what an empty field means (the form writes no default). */
  description?: string;
  /** The description in a door entry. */
  doorDescription?: string;
  /** A number's placeholder at the top level when it has no default to show. */
  placeholder?: string;
  /** The flag whose field this one follows: shown only while it is on, for all doors or for any door. */
  shownWith?: string;
  /** The words of each value in the form's choices (true and false for a flag, offered per door as a select). */
  valueTitles?: Record<string, string>;
}

const seconds = (ms: number): number => ms / 1000;

/** By option key. The ranges and defaults come from settings.ts, as the catalog's do, so the two cannot part. */
export const FORM_TEXT: Partial<Record<string, FormText>> = {
  name: {
    description:
      'Shown in the Homebridge log before each line of this plugin. With the platform added twice (two child bridges), give each its own name.',
  },
  pollInterval: {
    description: `How often the whole account is synced: ${MIN_POLL_INTERVAL_S} to ${MAX_POLL_INTERVAL_S} seconds, ${DEFAULT_POLL_INTERVAL_S} when empty. While a door moves, the plugin syncs every ${seconds(ACTIVE_POLL_INTERVAL_MS)} seconds.`,
  },
  transitionTimeout: {
    description: `How long Home shows Opening or Closing before it shows the door's real state again, if the door has not arrived: ${MIN_TRANSITION_TIMEOUT_S} to ${MAX_TRANSITION_TIMEOUT_S} seconds, ${DEFAULT_TRANSITION_TIMEOUT_S} when empty.`,
  },
  lowBatteryThreshold: {
    description: `Doors with a bluetooth sensor show a low-battery warning in Home at or below this level: 0 to 100 percent, ${DEFAULT_LOW_BATTERY_THRESHOLD_PCT} when empty.`,
  },
  matter: {
    description:
      "Off by default. Shows each door on Matter too, for Google Home, Alexa and SmartThings: as a contact sensor (open or closed, state only) or as a lock (unlock opens the door, lock closes it). Needs Homebridge 2 with Matter turned on for the bridge this plugin runs on (in the Homebridge UI: the plugin's child bridge settings, Matter); the plugin logs how when it is off. Apple users keep HomeKit: see docs/matter.md.",
  },
  includeDoors: {
    description:
      'Doors someone else owns and shared with you ("Has Access") are included by default, since you can open them. Choose "Only doors I own" to keep them out of Home.',
    valueTitles: { all: 'All doors I can open, owned and shared with me', owned: 'Only doors I own' },
  },
  hide: {
    valueTitles: { true: 'Yes: keep it out of Home', false: 'No' },
  },
  showAs: {
    description:
      "How each door appears in Apple Home. Garage door (the default): open and close, as a garage door or gate. Lock: unlock opens the door and lock closes it; it shows Locked when the door is closed and Unlocked when it is open, which suits an office entrance, a turnstile or a building's front door. Changing it keeps the door, its name and its room in Home, but Home automations and scenes made for the old kind must be made again.",
  },
  readOnly: {
    description: "Show the doors' state in Home but refuse to open or close them from Home. Off by default.",
  },
  automationSwitch: {
    description:
      'Add a switch per door for automations. Open only: turning it on opens the door, the switch turns itself off again after a moment, and turning it off does nothing, so a "turn everything off" or Good Night scene can never close a gate onto a car. Open and close: on opens, off closes (the only mode before; a config that says true now gets open only). Home runs automations with a switch WITHOUT asking for confirmation on your iPhone, unlike a garage door: anyone or any automation that can turn the switch on opens the door. Off by default.',
  },
  leftOpenSensor: {
    description:
      'Add an occupancy sensor per door that detects when the door has been open too long, so Home can notify you. Off by default.',
  },
  leftOpenAfter: {
    description: `How long a door may stay open before the left-open sensor trips: ${MIN_LEFT_OPEN_AFTER_S} to ${MAX_LEFT_OPEN_AFTER_S} seconds. Empty: the controller's own open-door alert time (${DEFAULT_LEFT_OPEN_AFTER_S / 60} minutes if it has none).`,
    placeholder: "controller's alert time",
    shownWith: 'leftOpenSensor',
  },
  leftOpenRepeat: {
    description: `Home notifies once when a door is left open. With a repeat, while the door stays open the left-open sensor clears for ${seconds(LEFT_OPEN_REPEAT_CLEARED_MS)} seconds and detects again this often, so Home notifies again; it stops when the door closes. ${MIN_LEFT_OPEN_REPEAT_MIN} to ${MAX_LEFT_OPEN_REPEAT_MIN} minutes. Empty or 0: once per opening.`,
    doorDescription: `${MIN_LEFT_OPEN_REPEAT_MIN} to ${MAX_LEFT_OPEN_REPEAT_MIN} minutes; 0: once per opening for this door. Empty: as for all doors.`,
    shownWith: 'leftOpenSensor',
  },
  contactSensor: {
    description:
      'Add a contact sensor per door (closed = contact), for automations that trigger when a door opens or closes. Off by default.',
  },
  hideBattery: {
    description:
      'Doors with a bluetooth door sensor show its battery level in Home, with a low-battery warning. Tick to leave the Battery service out for every door (no level, no warning). Off by default.',
  },
  accessAlert: {
    description:
      'Add a motion sensor per door, "<door> Access Alert", that detects for a short time when the service reports an unauthorized user or vehicle at the door (or at its controller, when the event names no door), so Home can notify you. Needs webhooks. Turn on the sensor\'s notifications in the Home app. Do not let it open anything in an automation. Off by default.',
  },
  accessAlertDuration: {
    description: `How long the access alert detects after an event: ${MIN_ACCESS_ALERT_DURATION_S} to ${MAX_ACCESS_ALERT_DURATION_S} seconds; another event meanwhile extends it. Empty: ${DEFAULT_ACCESS_ALERT_DURATION_S} seconds.`,
    shownWith: 'accessAlert',
  },
  personSensorDuration: {
    description: `How long each person's sensor (the people list) detects after that person opens or closes one of their doors: ${MIN_PERSON_SENSOR_DURATION_S} to ${MAX_PERSON_SENSOR_DURATION_S} seconds; another such move meanwhile starts the time again. Empty: ${DEFAULT_PERSON_SENSOR_DURATION_S} seconds.`,
  },
};

/** One form text of an option: the catalog entry's own field when it has one, else this table's. */
export function formText<F extends keyof FormText>(option: OptionSpec, field: F): FormText[F] {
  // The catalog's types hold only valueTitles of these today; the others are read should the catalog gain them.
  const own = (option as Partial<FormText>)[field];
  return own ?? FORM_TEXT[option.key]?.[field];
}

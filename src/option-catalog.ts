// The one list of the plugin's options: key, kind, titles, default, range, what replaces a value that cannot be read,
// for all doors and/or per door, and where the settings page offers it. src/config/ derives its zod schema from it,
// door/options.ts each door's options, the settings page its boxes and choices; `npm run generate` writes
// config.schema.json's option fields and layout nodes, with their words, docs/options.md and the door's extras' table
// (src/door/extras/index.ts) from it (a test fails when they are not current).
// It imports nothing but settings.ts, because the settings page (a browser module, src/ui/page/tsconfig.json) loads it too.
import {
  ACTIVE_POLL_INTERVAL_MS,
  DEFAULT_ACCESS_ALERT_DURATION_S,
  DEFAULT_LEFT_OPEN_AFTER_S,
  DEFAULT_LEFT_OPEN_REPEAT_MIN,
  DEFAULT_LOW_BATTERY_THRESHOLD_PCT,
  DEFAULT_PERSON_SENSOR_DURATION_S,
  DEFAULT_PLATFORM_NAME,
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
} from './settings.js';

/** Where the settings page draws an option: the boxes for all doors, the number row below them, or the timing section. */
export type PagePlace = 'door-boxes' | 'door-numbers' | 'timing';

/** How the settings page offers an option for all doors. */
export interface PageField {
  place: PagePlace;
  /** The page's label, often longer than the form's title: the page has no description under it. */
  label: string;
  /** Drawn after the place's other options (the catalog's order is the parser's, which says its findings in it). */
  last?: true;
  placeholder?: string;
  /** A line of help under a select. */
  help?: string;
  /** A choice drawn as one checkbox: ticked writes this value, unticked writes nothing (the default). */
  box?: string;
  /** A choice drawn as a select: the words of each value. */
  valueLabels?: Record<string, string>;
}

/** The words config.schema.json (the Homebridge UI's form) gives an option beside its title and its values' titles. */
export interface FormWords {
  /** The description at the top level; it must say what an empty field means (the form writes no default). */
  description?: string;
  /** The description in a door entry; left out, a number's says its range and empty, a choice's is `doorHelp`. */
  doorDescription?: string;
  /** A number's placeholder at the top level when it has no default to show. */
  placeholder?: string;
  /** What a number left empty at the top level means, when its default and unit do not say it: the form's "empty for …". */
  empty?: string;
  /** The flag whose field this one follows: shown only while it is on, for all doors or for any door. */
  shownWith?: string;
}

interface OptionBase {
  /** Its key in config.json: at the top level when `global`, in a `doors[]` entry when `perDoor`. */
  key: string;
  /** The form's title (config.schema.json) at the top level, and per door unless `doorTitle` says otherwise. */
  title: string;
  doorTitle?: string;
  /** The platform's general settings (log name, timing, battery level), or what the doors show and do. */
  section: 'general' | 'doors';
  /** Set for all doors (or the whole platform) at the top level. */
  global: boolean;
  /** Set for one door in its `doors[]` entry; with `global` too, the door's own value wins over the one for all doors. */
  perDoor: boolean;
  /** A value of each door's DoorOptions (door/options.ts), its own or the one for all doors. */
  doorOption: boolean;
  /** What the parser uses instead of a top-level value it cannot read, said after the problem; else from the default. */
  fallback?: string;
  /**
   * The value a value that cannot be read (and is no near miss of one that can) is read as, when leaving it out would
   * open more than the user meant: a protective value, or `as-cached`, which keeps what Home (or Matter) shows now so a
   * typo never undoes a user's setup. Left out: the value is left out (the default, or the value for all doors).
   */
  unreadable?: string | boolean;
  /** The form's words (config.schema.json); left out, the form says the least: the range, "Off by default.". */
  form?: FormWords;
  /** How the settings page offers it for all doors; left out, the page does not draw it there. */
  page?: PageField;
  /** The settings page's label of the choice per door; left out, the page offers no choice per door. */
  doorLabel?: string;
  /** What the settings page says under a door's choice once it is changed there (what the change costs). */
  doorHelp?: string;
  /**
   * When the page offers the choice per door: for every door, only for a door with a door sensor (or already set), or
   * only while the door's left-open sensor is on.
   */
  offered?: 'always' | 'with-sensor' | 'with-left-open-sensor';
  /**
   * A service the door gains in Home while the option is on (a switch, a sensor): its row and file are in src/door/extras/,
   * whose table `npm run generate` writes from these; a catalog extra without its file there does not compile.
   */
  extra?: true;
}

/** On or off; false (off) when not set. */
export interface FlagOption extends OptionBase {
  kind: 'flag';
  default: false;
  /** The short words of on and off in the form's choices per door; left out, "On" and "Off". */
  valueTitles?: { true: string; false: string };
}

/** A whole number of `unit` from `min` to `max`; without a default, absent means something else (said in `fallback`). */
export interface NumberOption extends OptionBase {
  kind: 'number';
  unit: 'seconds' | 'minutes' | 'percent';
  min: number;
  max: number;
  default?: number;
}

/** One of a few named values. */
export interface ChoiceOption extends OptionBase {
  kind: 'choice';
  values: readonly [string, ...string[]];
  /** true and false read too, as these values (a boolean option that grew modes); the default may then be false. */
  booleans?: { true: string; false: string };
  default: string | false;
  /** What a value means, said in brackets after it when the parser explains the values it takes. */
  gloss?: Record<string, string>;
  /** The short words of each value: the form's choices (schema and layout) and the page's per-door choices. */
  valueTitles?: Record<string, string>;
}

/** A line of text. */
export interface TextOption extends OptionBase {
  kind: 'text';
  default: string;
}

export type OptionSpec = FlagOption | NumberOption | ChoiceOption | TextOption;

const MS_PER_SECOND = 1000;
const SECONDS_PER_MINUTE = 60;
/** settings.ts's milliseconds in seconds, and its seconds in minutes, as the form's words say them. */
const inSeconds = (ms: number): number => ms / MS_PER_SECOND;
const inMinutes = (seconds: number): number => seconds / SECONDS_PER_MINUTE;

/**
 * Every option, in the order the parser reads (and reports) them. Not here: the account (token, address), the
 * webhook block, the door list itself with each entry's id and name, and the id filters: each has rules of its own.
 */
export const OPTIONS = [
  {
    key: 'name',
    section: 'general',
    kind: 'text',
    title: 'Name',
    global: true,
    perDoor: false,
    doorOption: false,
    default: DEFAULT_PLATFORM_NAME,
    fallback: `"${DEFAULT_PLATFORM_NAME}" is used`,
    form: {
      description:
        'Shown in the Homebridge log before each line of this plugin. With the platform added twice (two child bridges), give each its own name.',
    },
    page: { place: 'timing', label: 'Name in the log', last: true },
  },
  {
    key: 'pollInterval',
    section: 'general',
    kind: 'number',
    title: 'Poll interval (seconds)',
    global: true,
    perDoor: false,
    doorOption: false,
    unit: 'seconds',
    min: MIN_POLL_INTERVAL_S,
    max: MAX_POLL_INTERVAL_S,
    default: DEFAULT_POLL_INTERVAL_S,
    form: {
      description: `How often the whole account is synced: ${MIN_POLL_INTERVAL_S} to ${MAX_POLL_INTERVAL_S} seconds, ${DEFAULT_POLL_INTERVAL_S} when empty. While a door moves, the plugin syncs every ${inSeconds(ACTIVE_POLL_INTERVAL_MS)} seconds.`,
    },
    page: { place: 'timing', label: `Poll interval (seconds, ${MIN_POLL_INTERVAL_S} to ${MAX_POLL_INTERVAL_S})` },
  },
  {
    key: 'transitionTimeout',
    section: 'general',
    kind: 'number',
    title: 'Door travel time-out (seconds)',
    global: true,
    perDoor: false,
    doorOption: false,
    unit: 'seconds',
    min: MIN_TRANSITION_TIMEOUT_S,
    max: MAX_TRANSITION_TIMEOUT_S,
    default: DEFAULT_TRANSITION_TIMEOUT_S,
    form: {
      description: `How long Home shows Opening or Closing before it shows the door's real state again, if the door has not arrived: ${MIN_TRANSITION_TIMEOUT_S} to ${MAX_TRANSITION_TIMEOUT_S} seconds, ${DEFAULT_TRANSITION_TIMEOUT_S} when empty.`,
    },
    page: { place: 'timing', label: `Door travel time-out (seconds, ${MIN_TRANSITION_TIMEOUT_S} to ${MAX_TRANSITION_TIMEOUT_S})` },
  },
  {
    key: 'lowBatteryThreshold',
    section: 'general',
    kind: 'number',
    title: 'Low battery warning at (%)',
    global: true,
    perDoor: false,
    doorOption: false,
    unit: 'percent',
    min: 0,
    max: 100,
    default: DEFAULT_LOW_BATTERY_THRESHOLD_PCT,
    form: {
      description: `Doors with a bluetooth sensor show a low-battery warning in Home at or below this level: 0 to 100 percent, ${DEFAULT_LOW_BATTERY_THRESHOLD_PCT} when empty.`,
    },
    page: { place: 'timing', label: 'Low battery at (%)' },
  },
  {
    key: 'matter',
    section: 'general',
    kind: 'choice',
    title: 'Google Home and Alexa (Matter, Homebridge 2)',
    global: true,
    perDoor: false,
    doorOption: false,
    // Off by default: Matter costs the bridge ~100 MiB and ~2.5 s at start, and Apple users have HomeKit already.
    values: ['off', 'sensors', 'locks'],
    default: 'off',
    // A typo must not take every door off Matter (and out of the user's Google Home routines).
    unreadable: 'as-cached',
    fallback: 'the doors stay on Matter as they are now (none, if none is) until it is fixed',
    gloss: { sensors: 'each door a contact sensor', locks: 'each door a lock: unlock opens, lock closes' },
    valueTitles: { off: 'Off', sensors: 'Contact sensors (state only)', locks: 'Locks (unlock opens, lock closes)' },
    form: {
      description:
        "Off by default. Shows each door on Matter too, for Google Home, Alexa and SmartThings: as a contact sensor (open or closed, state only) or as a lock (unlock opens the door, lock closes it). Needs Homebridge 2 with Matter turned on for the bridge this plugin runs on (in the Homebridge UI: the plugin's child bridge settings, Matter); the plugin logs how when it is off. Apple users keep HomeKit: see docs/matter.md.",
    },
    page: {
      place: 'timing',
      label: 'Google Home and Alexa (Matter, needs Homebridge 2 with Matter on for this bridge)',
      valueLabels: {
        off: 'Off',
        sensors: 'Contact sensors: open or closed',
        locks: 'Locks: unlock opens, lock closes',
      },
      help: 'Turn Matter on for the bridge this plugin runs on (its child bridge settings in the Homebridge UI), then pair that bridge in Google Home or Alexa.',
    },
  },
  {
    key: 'includeDoors',
    section: 'doors',
    kind: 'choice',
    title: 'Doors to include',
    global: true,
    perDoor: false,
    doorOption: false,
    values: ['all', 'owned'],
    default: 'all',
    // Doubt fails closed: "own" must not put every shared gate in Home.
    unreadable: 'owned',
    fallback: 'only the doors you own are shown until it is fixed',
    valueTitles: { all: 'All doors I can open, owned and shared with me', owned: 'Only doors I own' },
    form: {
      description:
        'Doors someone else owns and shared with you ("Has Access") are included by default, since you can open them. Choose "Only doors I own" to keep them out of Home.',
    },
    page: { place: 'door-boxes', label: 'Only doors I own (leave out doors shared with me)', box: 'owned', last: true },
  },
  {
    key: 'hide',
    section: 'doors',
    kind: 'flag',
    title: 'Hide this door',
    // Per door only, and drawn by the page as the door's own "shown" checkbox; a hidden door gets no options at all.
    global: false,
    perDoor: true,
    doorOption: false,
    default: false,
    valueTitles: { true: 'Yes: keep it out of Home', false: 'No' },
  },
  {
    key: 'showAs',
    section: 'doors',
    kind: 'choice',
    title: 'Show in Home as',
    global: true,
    perDoor: true,
    doorOption: true,
    // The spec's doors are gates, garage doors, pedestrian doors and elevators: an office door or a turnstile reads as a lock.
    values: ['garage-door', 'lock'],
    default: 'garage-door',
    // A typo must not turn every lock into a garage door: Home would drop the automations and scenes made for it.
    unreadable: 'as-cached',
    fallback: 'each door keeps the kind Home shows now (a new door is a garage door) until it is fixed',
    valueTitles: { 'garage-door': 'Garage door', lock: 'Lock' },
    form: {
      description:
        "How each door appears in Apple Home. Garage door (the default): open and close, as a garage door or gate. Lock: unlock opens the door and lock closes it; it shows Locked when the door is closed and Unlocked when it is open, which suits an office entrance, a turnstile or a building's front door. Changing it keeps the door, its name and its room in Home, but Home automations and scenes made for the old kind must be made again.",
    },
    page: {
      place: 'door-boxes',
      label: 'Show in Home as',
      valueLabels: {
        'garage-door': 'Garage door: open and close',
        lock: 'Lock: unlock opens the door, lock closes it',
      },
      help: 'Changing it keeps the door, its name and its room in Home, but Home automations and scenes made for the old kind must be made again.',
    },
    doorLabel: 'Show in Home as',
    doorHelp: 'Home keeps the door, its name and its room, but automations and scenes made for the old kind must be made again.',
  },
  {
    key: 'readOnly',
    section: 'doors',
    kind: 'flag',
    title: 'Read-only',
    global: true,
    perDoor: true,
    doorOption: true,
    default: false,
    // Read-only exists to keep doors from being opened from Home; a value that cannot be read must not open them up.
    unreadable: true,
    fallback: 'every door is read-only until it is fixed',
    form: {
      description: "Show the doors' state in Home but refuse to open or close them from Home. Off by default.",
    },
    page: { place: 'door-boxes', label: 'Read-only (Home shows them but cannot open or close them)' },
    doorLabel: 'Read-only',
  },
  {
    key: 'automationSwitch',
    section: 'doors',
    extra: true,
    kind: 'choice',
    title: 'Automation switch',
    doorTitle: 'Automation switch (opens without confirmation)',
    global: true,
    perDoor: true,
    doorOption: true,
    // true once meant open and close; it now means open only, the safe choice, so a "turn everything off" scene can
    // never close a gate.
    values: ['off', 'open', 'open-close'],
    booleans: { true: 'open', false: 'off' },
    default: false,
    gloss: { open: 'open only', 'open-close': 'open and close' },
    valueTitles: { off: 'Off', open: 'Open only', 'open-close': 'Open and close' },
    form: {
      description:
        'Add a switch per door for automations. Open only: turning it on opens the door, the switch turns itself off again after a moment, and turning it off does nothing, so a "turn everything off" or Good Night scene can never close a gate onto a car. Open and close: on opens, off closes (the only mode before; a config that says true now gets open only). Home runs automations with a switch WITHOUT asking for confirmation on your iPhone, unlike a garage door: anyone or any automation that can turn the switch on opens the door. Off by default.',
    },
    page: {
      place: 'door-boxes',
      label: 'Automation switch (runs without confirmation on your iPhone)',
      valueLabels: {
        off: 'Off',
        open: 'Open only: on opens the door, then it turns itself off; off does nothing',
        'open-close': 'Open and close: on opens, off closes',
      },
      help: 'A setting saved as "on" by an earlier version (true) is Open only: a "turn everything off" scene can no longer close a gate.',
    },
    doorLabel: 'Automation switch',
  },
  {
    key: 'leftOpenSensor',
    section: 'doors',
    extra: true,
    kind: 'flag',
    title: 'Left-open sensor',
    global: true,
    perDoor: true,
    doorOption: true,
    default: false,
    form: {
      description:
        'Add an occupancy sensor per door that detects when the door has been open too long, so Home can notify you. Off by default.',
    },
    page: { place: 'door-boxes', label: 'Left-open sensor' },
    doorLabel: 'Left-open sensor',
  },
  {
    key: 'leftOpenAfter',
    section: 'doors',
    kind: 'number',
    title: 'Left open after (seconds)',
    global: true,
    perDoor: true,
    doorOption: true,
    unit: 'seconds',
    min: MIN_LEFT_OPEN_AFTER_S,
    max: MAX_LEFT_OPEN_AFTER_S,
    fallback: "each controller's own open-door alert time is used",
    form: {
      description: `How long a door may stay open before the left-open sensor trips: ${MIN_LEFT_OPEN_AFTER_S} to ${MAX_LEFT_OPEN_AFTER_S} seconds. Empty: the controller's own open-door alert time (${inMinutes(DEFAULT_LEFT_OPEN_AFTER_S)} minutes if it has none).`,
      placeholder: "controller's alert time",
      empty: "the controller's alert time",
      shownWith: 'leftOpenSensor',
    },
    page: {
      place: 'door-numbers',
      label: 'Left open after (seconds)',
      placeholder: `the controller's alert time, else ${DEFAULT_LEFT_OPEN_AFTER_S}`,
    },
  },
  {
    key: 'leftOpenRepeat',
    section: 'doors',
    kind: 'number',
    title: 'Repeat the left-open alert every (minutes)',
    global: true,
    perDoor: true,
    doorOption: true,
    unit: 'minutes',
    min: MIN_LEFT_OPEN_REPEAT_MIN,
    max: MAX_LEFT_OPEN_REPEAT_MIN,
    default: DEFAULT_LEFT_OPEN_REPEAT_MIN,
    fallback: 'the left-open sensor does not repeat',
    form: {
      description: `Home notifies once when a door is left open. With a repeat, while the door stays open the left-open sensor clears for ${inSeconds(LEFT_OPEN_REPEAT_CLEARED_MS)} seconds and detects again this often, so Home notifies again; it stops when the door closes. ${MIN_LEFT_OPEN_REPEAT_MIN} to ${MAX_LEFT_OPEN_REPEAT_MIN} minutes. Empty or 0: once per opening.`,
      doorDescription: `${MIN_LEFT_OPEN_REPEAT_MIN} to ${MAX_LEFT_OPEN_REPEAT_MIN} minutes; 0: once per opening for this door. Empty: as for all doors.`,
      // 0, the default, is no time: what it means says more than "0 minutes".
      empty: 'once per opening',
      shownWith: 'leftOpenSensor',
    },
    page: {
      place: 'door-numbers',
      label: 'Repeat the left-open alert every (minutes, 0 = once)',
      placeholder: `${DEFAULT_LEFT_OPEN_REPEAT_MIN}: once`,
    },
    doorLabel: 'Left-open repeat (minutes)',
    // A repeat only means something for a door whose left-open sensor is on.
    offered: 'with-left-open-sensor',
  },
  {
    key: 'contactSensor',
    section: 'doors',
    extra: true,
    kind: 'flag',
    title: 'Contact sensor',
    global: true,
    perDoor: true,
    doorOption: true,
    default: false,
    form: {
      description:
        'Add a contact sensor per door (closed = contact), for automations that trigger when a door opens or closes. Off by default.',
    },
    page: { place: 'door-boxes', label: 'Contact sensor' },
    doorLabel: 'Contact sensor',
  },
  {
    key: 'hideBattery',
    section: 'doors',
    kind: 'flag',
    title: 'Hide battery information',
    global: true,
    perDoor: true,
    doorOption: true,
    default: false,
    fallback: 'battery information is shown',
    valueTitles: { true: 'Hide', false: 'Show' },
    form: {
      description:
        'Doors with a bluetooth door sensor show its battery level in Home, with a low-battery warning. Tick to leave the Battery service out for every door (no level, no warning). Off by default.',
    },
    page: {
      place: 'door-boxes',
      label: 'Hide battery information (no level and no low-battery warning in Home for doors with a bluetooth sensor)',
    },
    doorLabel: 'Hide battery',
    // Only a door with a bluetooth sensor has battery information to hide.
    offered: 'with-sensor',
  },
  {
    key: 'accessAlert',
    section: 'doors',
    extra: true,
    kind: 'flag',
    title: 'Access alert',
    global: true,
    perDoor: true,
    doorOption: true,
    default: false,
    form: {
      description:
        'Add a motion sensor per door, "<door> Access Alert", that detects for a short time when the service reports an unauthorized user or vehicle at the door (or at its controller, when the event names no door), so Home can notify you. Needs webhooks. Turn on the sensor\'s notifications in the Home app. Do not let it open anything in an automation. Off by default.',
    },
    page: {
      place: 'door-boxes',
      label: 'Access alert (a motion sensor that detects when the service reports an unauthorized user or vehicle; needs webhooks)',
    },
    doorLabel: 'Access alert',
  },
  {
    key: 'accessAlertDuration',
    section: 'doors',
    kind: 'number',
    title: 'Access alert time (seconds)',
    global: true,
    perDoor: false,
    doorOption: true,
    unit: 'seconds',
    min: MIN_ACCESS_ALERT_DURATION_S,
    max: MAX_ACCESS_ALERT_DURATION_S,
    default: DEFAULT_ACCESS_ALERT_DURATION_S,
    form: {
      description: `How long the access alert detects after an event: ${MIN_ACCESS_ALERT_DURATION_S} to ${MAX_ACCESS_ALERT_DURATION_S} seconds; another event meanwhile extends it. Empty: ${DEFAULT_ACCESS_ALERT_DURATION_S} seconds.`,
      shownWith: 'accessAlert',
    },
    page: { place: 'door-numbers', label: 'Access alert time (seconds)' },
  },
  {
    key: 'personSensorDuration',
    section: 'general',
    kind: 'number',
    title: 'Person sensor time (seconds)',
    global: true,
    perDoor: false,
    doorOption: false,
    unit: 'seconds',
    min: MIN_PERSON_SENSOR_DURATION_S,
    max: MAX_PERSON_SENSOR_DURATION_S,
    default: DEFAULT_PERSON_SENSOR_DURATION_S,
    form: {
      description: `How long each person's sensor (the people list) detects after that person opens or closes one of their doors: ${MIN_PERSON_SENSOR_DURATION_S} to ${MAX_PERSON_SENSOR_DURATION_S} seconds; another such move meanwhile starts the time again. Empty: ${DEFAULT_PERSON_SENSOR_DURATION_S} seconds.`,
    },
  },
] as const satisfies readonly OptionSpec[];

export type Option = (typeof OPTIONS)[number];
export type OptionKey = Option['key'];
export type OptionOf<K extends OptionKey> = Extract<Option, { key: K }>;

/** The options set at the top level, and those a door entry may set. */
export type GlobalOption = Extract<Option, { global: true }>;
export type PerDoorOption = Extract<Option, { perDoor: true }>;
/** The options that add a service to each door while on: one row each in src/door/extras/. */
export type ExtraKey = Extract<Option, { extra: true }>['key'];

/** What a value of an option is, once read: the boolean of an option that reads booleans stays a boolean. */
export type ValueOf<O> = O extends { kind: 'flag' }
  ? boolean
  : O extends { kind: 'number' }
    ? number
    : O extends { kind: 'text' }
      ? string
      : O extends { values: readonly (infer V)[]; booleans: object }
        ? V | boolean
        : O extends { values: readonly (infer V)[] }
          ? V
          : never;

export const optionSpec = <K extends OptionKey>(key: K): OptionOf<K> => OPTIONS.find((option) => option.key === key) as OptionOf<K>;

/** The automation switch's modes: none, open only (on opens and it turns itself off again), open and close. */
export const AUTOMATION_SWITCH_MODES = optionSpec('automationSwitch').values;
export type AutomationSwitchMode = (typeof AUTOMATION_SWITCH_MODES)[number];

/** The mode a config value means: `true` (the value of older configs) is open only, the safe choice. */
export function automationSwitchMode(value: boolean | AutomationSwitchMode): AutomationSwitchMode {
  return typeof value === 'boolean' ? optionSpec('automationSwitch').booleans[`${value}`] : value;
}

/** How a door appears in Apple Home: its main service (door/face.ts). */
export const SHOW_AS_KINDS = optionSpec('showAs').values;
export type ShowAs = (typeof SHOW_AS_KINDS)[number];

/** What the doors are on Matter (src/matter/): nothing, contact sensors, or locks. */
export const MATTER_MODES = optionSpec('matter').values;
export type MatterMode = (typeof MATTER_MODES)[number];

/** "a", "a or b", "a, b or c". */
function either(all: string[]): string {
  return all.length <= 1 ? (all[0] ?? '') : `${all.slice(0, -1).join(', ')} or ${all[all.length - 1] ?? ''}`;
}

/** What the parser says a choice must be: each value quoted, with what it means when that is not plain. */
export function choiceProblem(option: ChoiceOption): string {
  return `must be ${either(option.values.map((value) => `"${value}"${option.gloss?.[value] ? ` (${option.gloss[value]})` : ''}`))}`;
}

/** What replaces a top-level value that cannot be read, said after its problem: the option's own words, or its default. */
export function fallbackSentence(option: OptionSpec): string {
  if (option.fallback !== undefined) return option.fallback;
  if (option.kind === 'number')
    return option.default === undefined ? 'it is ignored' : `the default, ${option.default} ${option.unit}, is used`;
  if (option.kind === 'flag' || option.default === false) return 'the default, off, is used';
  return `the default, "${option.default}", is used`;
}

/** The value the plugin uses for each top-level option left out, by key: shown by the settings page, never written. */
export function optionDefaults(): Record<string, string | number | boolean> {
  return Object.fromEntries(OPTIONS.flatMap((option) => (option.global && 'default' in option ? [[option.key, option.default]] : [])));
}

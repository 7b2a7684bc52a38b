// The one list of the plugin's options: each entry its key, kind, where it applies, one label and one help, its default
// (a number's range and unit too). option-values.ts applies the defaults for every reader; src/config/ derives its zod
// schema from it, config/door-options.ts each door's options (each under its key here), the settings page its boxes and
// choices; `npm run generate` writes config.schema.json's option fields and layout nodes,
// docs/options.md and the door's extras' table (src/door/extras/index.ts) from it (a test fails when they are not current).
// Every reader's words come from `label` and `help` through the functions at the end of this file.
// It imports nothing but settings.ts, because the settings page (a browser module, src/ui/page/tsconfig.json) loads it too.
import { ACTIVE_POLL_INTERVAL_MS, DEFAULT_LEFT_OPEN_AFTER_S, LEFT_OPEN_REPEAT_CLEARED_MS } from './settings.js';

/**
 * Where an option is set and who reads it:
 * - `platform`: at the top level, read by the platform (its log name, timing, which doors it shows), not by a door;
 * - `all-doors`: at the top level, one value every door reads (in its DoorOptions, config/door-options.ts);
 * - `per-door`: in a door's `doors[]` entry only, read where the doors are chosen (hide), not a value of DoorOptions;
 * - `both`: at the top level for all doors and in a door's entry, where the door's own value wins; every door reads it.
 */
export type Applies = 'platform' | 'all-doors' | 'per-door' | 'both';

/** Where the settings page draws an option: the boxes for all doors, the number row below them, or the timing section. */
export type PagePlace = 'door-boxes' | 'door-numbers' | 'timing';

/** What the settings page needs beside the label and help; every field is optional, and so is the whole. */
export interface PageField {
  /** Drawn after the place's other options (the catalog's order is the parser's, which says its findings in it). */
  last?: true;
  /** A line under the select for all doors: the page shows no description, so what the form says in it goes here. */
  help?: string;
  /** A choice drawn as one checkbox, labelled with this value's title: ticked writes it, unticked writes nothing (the default). */
  box?: string;
  /**
   * What each value does, for the select for all doors, where it says more than `valueTitles`: the page's select shows
   * the short titles (a phone cuts longer ones) and this line of the chosen value under it; the form and the door rows keep the titles.
   */
  valueLabels?: Record<string, string>;
}

interface OptionBase {
  /** Its key in config.json: at the top level, in a `doors[]` entry, or both (see `applies`). */
  key: string;
  applies: Applies;
  /**
   * The group of the parser's reading (src/config/index.ts): `general` for a `platform` option, `doors` for the others;
   * said only where an option is read in the other group.
   */
  section?: 'general' | 'doors';
  /** Its name: the form's title (a number's with its unit), the page's label, the docs' heading. */
  label: string;
  /** What it does, as the form's description and the docs say it (a flag's "Off by default.", a number's range added). */
  help: string;
  /**
   * A few words in brackets after the label where no help is shown: the page's control for all doors, and (as a sentence)
   * a door entry's field in the form.
   */
  hint?: string;
  /**
   * What changing it costs: the end of the form's description, a door entry's description, and the line the page shows
   * under the select for all doors and under a door's choice once it is changed.
   */
  cost?: string;
  /** What the parser uses instead of a top-level value it cannot read, said after the problem; else from the default. */
  fallback?: string;
  /**
   * The value a value that cannot be read (and is no near miss of one that can) is read as, when leaving it out would
   * open more than the user meant: a protective value, or `as-cached`, which keeps what Home (or Matter) shows now so a
   * typo never undoes a user's setup. Left out: the value is left out (the default, or the value for all doors).
   */
  unreadable?: string | boolean;
  /** The flag whose field this one follows in the form: shown only while it is on, for all doors or for any door. */
  shownWith?: string;
  /**
   * How the settings page draws it for all doors (a top-level option is drawn unless this is false), in the timing
   * section for a `platform` option, else among the doors' boxes (a number: in the row below them).
   */
  page?: PageField | false;
  /**
   * When the page offers the choice in a door's row (an option set per door is offered always): never, only for a door
   * with a door sensor, or only while the flag its `shownWith` names is on for the door (either: or already set).
   */
  offered?: 'never' | 'with-sensor' | 'with-shown-with';
  /**
   * A service the door gains in Home while the option is on (a switch, a sensor): its row and file are in src/door/extras/,
   * whose table `npm run generate` writes from these; a catalog extra without its file there does not compile.
   */
  extra?: true;
}

/** On or off; off when not set, but for a flag whose default says on (the Eve history, which costs nothing to set up). */
export interface FlagOption extends OptionBase {
  kind: 'flag';
  default: boolean;
  /** The short words of on and off in the form's choices per door; left out, "On" and "Off". */
  valueTitles?: { true: string; false: string };
}

/** A whole number of `unit` from `min` to `max`; without a default, absent means something else (said in `empty`). */
export interface NumberOption extends OptionBase {
  kind: 'number';
  unit: 'seconds' | 'minutes' | 'percent';
  min: number;
  max: number;
  default?: number;
  /** What the field left empty means, when its default and unit do not say it ("empty for …"). */
  empty?: string;
  /** The empty field's words in the form and on the page, when the default alone does not say it. */
  placeholder?: string;
}

/** A number's range and unit in one line of its entry (`...within(5, 3600, 'seconds')`): the fields its readers read. */
const within = <Unit extends NumberOption['unit']>(min: number, max: number, unit: Unit): { min: number; max: number; unit: Unit } => ({
  min,
  max,
  unit,
});

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
 * The kinds of "Show in Home as" (`showAs`), one entry each in the order the form offers them: the words a user reads
 * for the kind, its title, what its choice on the page says, and what it is for. The option's values, choices and help
 * are written from here, so a kind added here is offered and explained wherever the option is (issue 53); its face in
 * Home is its row of FACES (src/door/face.ts), which has one row per value here or does not compile.
 */
const SHOW_AS_WORDS = {
  'garage-door': { title: 'Garage door', choice: 'open and close', about: 'open and close, as a garage door or gate.' },
  // The spec's doors are gates, garage doors, pedestrian doors and elevators: an office door or a turnstile reads as a lock.
  lock: {
    title: 'Lock',
    choice: 'unlock opens the door, lock closes it',
    about:
      "unlock opens the door and lock closes it; it shows Locked when the door is closed and Unlocked when it is open, which suits an office entrance, a turnstile or a building's front door.",
  },
} as const satisfies Record<string, { title: string; choice: string; about: string }>;
type ShowAsKind = keyof typeof SHOW_AS_WORDS;
const SHOW_AS_VALUES = Object.keys(SHOW_AS_WORDS) as [ShowAsKind, ...ShowAsKind[]];
const SHOW_AS_DEFAULT: ShowAsKind = 'garage-door';

/** One value per kind, read from its words. */
function eachKind(pick: (words: (typeof SHOW_AS_WORDS)[ShowAsKind]) => string): Record<ShowAsKind, string> {
  return Object.fromEntries(SHOW_AS_VALUES.map((kind) => [kind, pick(SHOW_AS_WORDS[kind])])) as Record<ShowAsKind, string>;
}

/** Each kind said in turn, the default marked: "Garage door (the default): open and close, …. Lock: unlock opens …". */
function showAsHelp(): string {
  return SHOW_AS_VALUES.map((kind) => {
    const { title, about } = SHOW_AS_WORDS[kind];
    return `${title}${kind === SHOW_AS_DEFAULT ? ' (the default)' : ''}: ${about}`;
  }).join(' ');
}

/**
 * Every option, in the order the parser reads (and reports) them. Not here: the account (token, address), the
 * webhook block, the door list itself with each entry's id and name, and the id filters: each has rules of its own.
 */
export const OPTIONS = [
  {
    key: 'name',
    kind: 'text',
    applies: 'platform',
    label: 'Name in the log',
    help: 'Shown in the Homebridge log before each line of this plugin. With the platform added twice (two child bridges), give each its own name.',
    default: 'Access Control',
    page: { last: true },
  },
  {
    key: 'pollInterval',
    kind: 'number',
    applies: 'platform',
    label: 'Poll interval',
    help: `How often the whole account is synced. While a door moves, the plugin syncs every ${inSeconds(ACTIVE_POLL_INTERVAL_MS)} seconds.`,
    ...within(5, 3600, 'seconds'),
    default: 15,
  },
  {
    key: 'transitionTimeout',
    kind: 'number',
    applies: 'platform',
    label: 'Door travel time-out',
    help: "How long Home shows Opening or Closing before it shows the door's real state again, if the door has not arrived.",
    ...within(10, 600, 'seconds'),
    default: 60,
  },
  {
    key: 'lowBatteryThreshold',
    kind: 'number',
    applies: 'platform',
    label: 'Low battery warning at',
    help: 'Doors with a bluetooth sensor show a low-battery warning in Home at or below this level.',
    ...within(0, 100, 'percent'),
    default: 20,
  },
  {
    key: 'matter',
    kind: 'choice',
    applies: 'platform',
    label: 'Google Home and Alexa (Matter, Homebridge 2)',
    hint: 'needs Matter on for this bridge',
    help: "Off by default. Shows each door on Matter too, for Google Home, Alexa and SmartThings: as a contact sensor (open or closed, state only) or as a lock (unlock opens the door, lock closes it). Needs Homebridge 2 with Matter turned on for the bridge this plugin runs on (in the Homebridge UI: the plugin's child bridge settings, Matter); the plugin logs how when it is off. Apple users keep HomeKit: see docs/matter.md.",
    // Off by default: Matter costs the bridge ~100 MiB and ~2.5 s at start, and Apple users have HomeKit already.
    values: ['off', 'sensors', 'locks'],
    default: 'off',
    // A typo must not take every door off Matter (and out of the user's Google Home routines).
    unreadable: 'as-cached',
    fallback: 'the doors stay on Matter as they are now (none, if none is) until it is fixed',
    gloss: { sensors: 'each door a contact sensor', locks: 'each door a lock: unlock opens, lock closes' },
    valueTitles: { off: 'Off', sensors: 'Contact sensors (state only)', locks: 'Locks (unlock opens, lock closes)' },
    page: {
      valueLabels: { sensors: 'Contact sensors: open or closed', locks: 'Locks: unlock opens, lock closes' },
      // The form says it in its description; the page, which has none, under the select.
      help: 'Turn Matter on for the bridge this plugin runs on (its child bridge settings in the Homebridge UI), then pair that bridge in Google Home or Alexa.',
    },
  },
  {
    key: 'includeDoors',
    kind: 'choice',
    applies: 'platform',
    // Read with the doors' settings, after the webhook block: its findings are said among theirs.
    section: 'doors',
    label: 'Doors to include',
    hint: 'leave out doors shared with me',
    help: 'Doors someone else owns and shared with you ("Has Access") are included by default, since you can open them. Choose "Only doors I own" to keep them out of Home.',
    values: ['all', 'owned'],
    default: 'all',
    // Doubt fails closed: "own" must not put every shared gate in Home.
    unreadable: 'owned',
    fallback: 'only the doors you own are shown until it is fixed',
    valueTitles: { all: 'All doors I can open, owned and shared with me', owned: 'Only doors I own' },
    page: { box: 'owned', last: true },
  },
  {
    key: 'hide',
    kind: 'flag',
    applies: 'per-door',
    label: 'Hide this door',
    help: 'Keeps this door out of Home.',
    default: false,
    valueTitles: { true: 'Yes: keep it out of Home', false: 'No' },
    // The page draws it as the door's own "Show in Home" checkbox; a hidden door gets no options at all.
    offered: 'never',
  },
  {
    key: 'showAs',
    kind: 'choice',
    applies: 'both',
    label: 'Show in Home as',
    help: `How each door appears in Apple Home. ${showAsHelp()}`,
    cost: 'Changing it keeps the door, its name and its room in Home, but Home automations and scenes made for the old kind must be made again.',
    values: SHOW_AS_VALUES,
    default: SHOW_AS_DEFAULT,
    // A typo must not turn every lock into a garage door: Home would drop the automations and scenes made for it.
    unreadable: 'as-cached',
    fallback: 'each door keeps the kind Home shows now (a new door is a garage door) until it is fixed',
    valueTitles: eachKind(({ title }) => title),
    page: { valueLabels: eachKind(({ title, choice }) => `${title}: ${choice}`) },
  },
  {
    key: 'readOnly',
    kind: 'flag',
    applies: 'both',
    label: 'Read-only',
    hint: 'Home shows the door but cannot open or close it',
    help: "Show the doors' state in Home but refuse to open or close them from Home.",
    default: false,
    // Read-only exists to keep doors from being opened from Home; a value that cannot be read must not open them up.
    unreadable: true,
    fallback: 'every door is read-only until it is fixed',
  },
  {
    key: 'automationSwitch',
    extra: true,
    kind: 'choice',
    applies: 'both',
    label: 'Automation switch',
    hint: 'runs without confirmation on your iPhone',
    help: 'Add a switch per door for automations. Open only: turning it on opens the door, the switch turns itself off again after a moment, and turning it off does nothing, so a "turn everything off" or Good Night scene can never close a gate onto a car. Open and close: on opens, off closes (the only mode before; a config that says true now gets open only). Home runs automations with a switch WITHOUT asking for confirmation on your iPhone, unlike a garage door: anyone or any automation that can turn the switch on opens the door. Off by default.',
    // true once meant open and close; it now means open only, the safe choice, so a "turn everything off" scene can
    // never close a gate.
    values: ['off', 'open', 'open-close'],
    booleans: { true: 'open', false: 'off' },
    default: false,
    gloss: { open: 'open only', 'open-close': 'open and close' },
    valueTitles: { off: 'Off', open: 'Open only', 'open-close': 'Open and close' },
    page: {
      valueLabels: {
        open: 'Open only: on opens the door, then it turns itself off; off does nothing',
        'open-close': 'Open and close: on opens, off closes',
      },
      // The form says it in its description; the page, which has none, under the select.
      help: 'A setting saved as "on" by an earlier version (true) is Open only: a "turn everything off" scene can no longer close a gate.',
    },
  },
  {
    key: 'leftOpenSensor',
    extra: true,
    kind: 'flag',
    applies: 'both',
    label: 'Left-open sensor',
    help: 'Add an occupancy sensor per door that detects when the door has been open too long, so Home can notify you.',
    default: false,
  },
  {
    key: 'leftOpenAfter',
    kind: 'number',
    applies: 'both',
    label: 'Left open after',
    help: 'How long a door may stay open before the left-open sensor trips.',
    ...within(1, 24 * 60 * 60, 'seconds'),
    empty: `the controller's own open-door alert time (${inMinutes(DEFAULT_LEFT_OPEN_AFTER_S)} minutes if it has none)`,
    placeholder: `the controller's alert time, else ${DEFAULT_LEFT_OPEN_AFTER_S}`,
    fallback: "each controller's own open-door alert time is used",
    shownWith: 'leftOpenSensor',
    // Set per door in the form or config.json; a door's row on the page stays short.
    offered: 'never',
  },
  {
    key: 'leftOpenRepeat',
    kind: 'number',
    applies: 'both',
    label: 'Repeat the left-open alert every',
    help: `Home notifies once when a door is left open. With a repeat, while the door stays open the left-open sensor clears for ${inSeconds(LEFT_OPEN_REPEAT_CLEARED_MS)} seconds and detects again this often, so Home notifies again; it stops when the door closes. 0 is once per opening.`,
    ...within(0, 24 * 60, 'minutes'),
    default: 0,
    // 0, the default, is no time: what it means says more than "0 minutes".
    empty: 'once per opening',
    placeholder: '0: once',
    fallback: 'the left-open sensor does not repeat',
    shownWith: 'leftOpenSensor',
    // A repeat only means something for a door whose left-open sensor is on.
    offered: 'with-shown-with',
  },
  {
    key: 'contactSensor',
    extra: true,
    kind: 'flag',
    applies: 'both',
    label: 'Contact sensor',
    help: 'Add a contact sensor per door (closed = contact), for automations that trigger when a door opens or closes.',
    default: false,
  },
  {
    key: 'hideBattery',
    kind: 'flag',
    applies: 'both',
    label: 'Hide battery information',
    hint: 'no level and no low-battery warning in Home for doors with a bluetooth sensor',
    help: 'Doors with a bluetooth door sensor show its battery level in Home, with a low-battery warning. Tick to leave the Battery service out for every door (no level, no warning).',
    default: false,
    fallback: 'battery information is shown',
    valueTitles: { true: 'Hide', false: 'Show' },
    // Only a door with a bluetooth sensor has battery information to hide.
    offered: 'with-sensor',
  },
  {
    key: 'accessAlert',
    extra: true,
    kind: 'flag',
    applies: 'both',
    label: 'Access alert',
    hint: 'a motion sensor that detects when the service reports an unauthorized user or vehicle; needs webhooks',
    help: 'Add a motion sensor per door, "<door> Access Alert", that detects for a short time when the service reports an unauthorized user or vehicle at the door (or at its controller, when the event names no door), so Home can notify you. Needs webhooks. Turn on the sensor\'s notifications in the Home app. Do not let it open anything in an automation.',
    default: false,
  },
  {
    key: 'eveHistory',
    extra: true,
    kind: 'flag',
    applies: 'both',
    label: 'Eve history',
    help: "Show each door's opens and closes in the Eve app, from the last seven days of the service's history on (read once at start, with the history the plugin reads anyway), then every move as it happens. It costs up to about 26 KB of memory and 13 KB of disk per door. Off removes it.",
    default: true,
  },
  {
    key: 'accessAlertDuration',
    kind: 'number',
    applies: 'all-doors',
    label: 'Access alert time',
    help: 'How long the access alert detects after an event; another event meanwhile extends it.',
    // Home notifies on the change to detected at once: the length is for whoever opens Home afterwards and for
    // automations that wait for "no motion".
    ...within(1, 60 * 60, 'seconds'),
    default: 30,
    shownWith: 'accessAlert',
  },
  {
    key: 'personSensorDuration',
    kind: 'number',
    applies: 'platform',
    label: 'Person sensor time',
    help: "How long each person's sensor (the people list) detects after that person opens or closes one of their doors; another such move meanwhile starts the time again.",
    ...within(1, 60 * 60, 'seconds'),
    default: 60,
    // Set with the people list, which the page does not edit.
    page: false,
  },
] as const satisfies readonly OptionSpec[];

export type Option = (typeof OPTIONS)[number];
export type OptionKey = Option['key'];
export type OptionOf<K extends OptionKey> = Extract<Option, { key: K }>;

/** The options set at the top level, those a door entry may set, and those each door reads (its DoorOptions). */
export type GlobalOption = Extract<Option, { applies: 'platform' | 'all-doors' | 'both' }>;
export type PerDoorOption = Extract<Option, { applies: 'per-door' | 'both' }>;
export type DoorOption = Extract<Option, { applies: 'all-doors' | 'both' }>;
/** The top-level options the parser reads in a group (src/config/index.ts): `general` for `platform` ones unless `section` says. */
type GeneralOption = Exclude<Extract<GlobalOption, { applies: 'platform' }>, { section: 'doors' }>;
export type SectionOption<S extends 'general' | 'doors'> = S extends 'general' ? GeneralOption : Exclude<GlobalOption, GeneralOption>;
/** The options that add a service to each door while on: one row each in src/door/extras/. */
export type ExtraKey = Extract<Option, { extra: true }>['key'];
/** The on/off options a field can follow (`shownWith`): flags set for all doors. */
export type ShownWithKey = Extract<GlobalOption, { kind: 'flag' }>['key'];

/** A key that must be a flag set for all doors: anything else is a type error where it is checked. */
type FlagKeyCheck<K extends ShownWithKey> = K;
/**
 * The keys the entries' `shownWith` name: the form's condition reads them as on or off, so each must be a flag set for all
 * doors. The entries cannot name their own list's type, so the check is here: naming anything else is a type error.
 */
export type ShownWith = FlagKeyCheck<Extract<Option, { shownWith: string }>['shownWith']>;

/** Whether an option is set at the top level, in a door entry, and read by each door. */
export const atTop = (option: OptionSpec): boolean => option.applies !== 'per-door';
export const perDoor = (option: OptionSpec): boolean => option.applies === 'per-door' || option.applies === 'both';
export const doorReads = (option: OptionSpec): boolean => option.applies === 'all-doors' || option.applies === 'both';
/** The group of the parser's reading an option is in. */
export const sectionOf = (option: OptionSpec): 'general' | 'doors' =>
  option.section ?? (option.applies === 'platform' ? 'general' : 'doors');

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

/**
 * The automation switch's modes: none, open only (on opens and it turns itself off again), open and close. A config's
 * true (the value of older configs) is open only, the safe choice: the entry's `booleans` say so, read in option-values.ts.
 */
export const AUTOMATION_SWITCH_MODES = optionSpec('automationSwitch').values;
export type AutomationSwitchMode = (typeof AUTOMATION_SWITCH_MODES)[number];

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
  if (option.kind === 'flag') return `the default, ${option.default ? 'on' : 'off'}, is used`;
  if (option.default === false) return 'the default, off, is used';
  // The platform's name is said as the log shows it.
  if (option.kind === 'text') return `"${option.default}" is used`;
  return `the default, "${option.default}", is used`;
}

/** The value the plugin uses for each top-level option left out, by key: shown by the settings page, never written. */
export function optionDefaults(): Record<string, string | number | boolean> {
  return Object.fromEntries(OPTIONS.flatMap((option) => (atTop(option) && 'default' in option ? [[option.key, option.default]] : [])));
}

// The words each reader shows, all from `label`, `help`, `hint` and `cost`.

/** A unit as a title says it in brackets: "(seconds)", "(%)". */
const UNIT_IN_TITLE: Record<NumberOption['unit'], string> = { seconds: 'seconds', minutes: 'minutes', percent: '%' };

/** The option's title: the form's (top level and door entry), the docs' and a door row's on the page; a number's says its unit. */
export function titleOf(option: OptionSpec): string {
  return option.kind === 'number' ? `${option.label} (${UNIT_IN_TITLE[option.unit]})` : option.label;
}

/** `words` said in the title's brackets, or in brackets of their own: "Poll interval (seconds, 5 to 3600)". */
function withAside(title: string, words: string | undefined): string {
  if (words === undefined) return title;
  return title.endsWith(')') ? `${title.slice(0, -1)}, ${words})` : `${title} (${words})`;
}

/**
 * The page's label of the control for all doors, which has no description under it: the title with the hint (a number's
 * range), or for a choice drawn as a box, the title of the value it writes.
 */
export function pageLabel(option: OptionSpec): string {
  const box = option.page === false ? undefined : option.page?.box;
  const title = option.kind === 'choice' && box !== undefined ? (option.valueTitles?.[box] ?? box) : titleOf(option);
  return withAside(title, option.kind === 'number' ? `${option.min} to ${option.max}` : option.hint);
}

/** Where the page draws an option for all doors, or undefined when it does not (a per-door option, or `page: false`). */
export function pagePlace(option: OptionSpec): PagePlace | undefined {
  if (!atTop(option) || option.page === false) return undefined;
  if (sectionOf(option) === 'general') return 'timing';
  return option.kind === 'number' ? 'door-numbers' : 'door-boxes';
}

/** The line the page shows under the select for all doors: its own words, else what a change costs. */
export const pageHelp = (option: OptionSpec): string | undefined => (option.page === false ? undefined : option.page?.help) ?? option.cost;

/** Whether the page offers the option in a door's row. */
export const inDoorRow = (option: OptionSpec): boolean => perDoor(option) && option.offered !== 'never';

/** A hint as a sentence of its own. */
const sentence = (words: string): string => `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;

/**
 * The description of a door entry's field in the form (a flag or choice; a number's says its range): what a change
 * costs, else the hint; a per-door option has no top-level description, so its help is said here.
 */
export function doorDescription(option: OptionSpec): string | undefined {
  if (option.applies === 'per-door') return option.help;
  return option.cost ?? (option.hint === undefined ? undefined : sentence(option.hint));
}

/** What a number left empty at the top level means: the catalog's words, else its default with its unit. */
export function emptyMeaning(option: NumberOption): string {
  if (option.empty !== undefined) return option.empty;
  if (option.default === undefined) throw new Error(`${option.key}: a number without a default needs empty`);
  return `${option.default} ${option.unit}`;
}

/** A number's range and what an empty field means, one sentence: the form's description ends with it, its message says it. */
export const rangeSentence = (option: NumberOption, empty: string): string =>
  `From ${option.min} to ${option.max} ${option.unit}; empty for ${empty}.`;

/** The form's description at the top level, which must say what an empty field means (the form writes no default). */
export function formDescription(option: OptionSpec): string {
  switch (option.kind) {
    case 'flag':
      return `${option.help} ${option.default ? 'On' : 'Off'} by default.`;
    case 'number':
      return `${option.help} ${rangeSentence(option, emptyMeaning(option))}`;
    default:
      return option.cost === undefined ? option.help : `${option.help} ${option.cost}`;
  }
}

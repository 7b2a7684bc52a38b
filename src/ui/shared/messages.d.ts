// The shapes the settings page and its server process exchange; types only, shared by both sides. A declaration file, so
// neither build emits an empty messages.js that nothing loads at run time (imports of it are `import type` only).

/** Values the plugin uses when a field is absent; the page shows them as placeholders and never writes them. */
export type Defaults = Record<string, string | number | boolean>;

export interface ControllerSummary {
  id: string;
  /** The service gives controllers no name; the owner's name tells a shared one apart. */
  owner: string | undefined;
  active: boolean;
  softwareVersion: string | undefined;
}

export interface DoorSummary {
  id: string;
  name: string;
  controllerId: string;
  state: 'OPEN' | 'CLOSED' | null;
  active: boolean;
  /** true: the account owns it; false: shared with it ("Has Access"); undefined: the service did not say. */
  owned: boolean | undefined;
  relationship: string | undefined;
  sensor: boolean;
  batteryPct: number | undefined;
}

export interface AccountSummary {
  controllers: ControllerSummary[];
  doors: DoorSummary[];
  /** Parts of the answer the plugin could not read, as the log would name them. */
  unreadable: string[];
}

/**
 * Why "Sign in" failed, for the page's wording: a field to fix, the token refused, a host name not found, nothing
 * answering, no answer in time, an answer that is not the service's, a redirect, or the settings server itself failing.
 */
export type SignInFailure = 'fields' | 'refused' | 'not-found' | 'no-answer' | 'timeout' | 'bad-answer' | 'redirect' | 'server';

/** Never holds the token. `message` is in words; `detail` is the raw reason (codes, HTTP status), shown only behind "Details". */
export type SignInAnswer = { ok: true; account: AccountSummary } | { ok: false; kind: SignInFailure; message: string; detail?: string };

export interface ShownCount {
  /** Doors this entry would put in HomeKit before the bridge's cap. */
  count: number;
  /** Doors in the account. */
  total: number;
  /** Doors one bridge shows: its accessories less the entry's person sensors (the runtime's doorCap). */
  limit: number;
  /** The entry's person sensors, each one of the bridge's accessories. */
  people: number;
}

/** A part of the block the page keeps exactly as written and offers no edit of. */
export type KeptPart = 'webhook' | 'doors' | 'includeDeviceIds' | 'excludeDeviceIds' | 'includeDoorIds' | 'excludeDoorIds';

export interface ConfigCheck {
  /** Mistakes that stop syncing (token, address): Save would give zero doors. */
  problems: string[];
  /** Mistakes in optional parts: the plugin logs each and goes on without that part (often fail-closed: read-only). */
  ignored: string[];
  /** Keys or values read as what they nearly are, and keys the plugin does not know: said, but the settings run as read. */
  warnings: string[];
  /** Known once the account was read by "Sign in". */
  shown: ShownCount | undefined;
  /** Why a door of the account stays out of HomeKit, by door id; absent: it is shown. A Map: ids are outside text ("__proto__"). */
  excluded: ReadonlyMap<string, string>;
  /** Doors (by the service's id) a setting keeps read-only though it names them in a form not read exactly, and why. */
  guarded?: ReadonlyMap<string, string>;
  /** The ids of the doors HomeKit would show, after the bridge's cap too; known once "Sign in" read the account. */
  inHome?: ReadonlySet<string>;
  /** The parts kept as written, each with the plugin's sentences about it in the page's words. */
  kept: ReadonlyMap<KeptPart, string>;
  /**
   * How many of `ignored` are about a part kept as written: the page cannot fix those, and Save keeps them as they are,
   * so they do not keep Save off (the others, parts the page can fix, do).
   */
  ignoredKept: number;
  /** Keys written as near misses ("readonly"), each read as its setting: a one-click fix rewrites it under that key. */
  fixes: KeyFix[];
}

/** A key written as a near miss of a setting, and where: `parent` "" for the block, "webhook", or "doors.2". */
export interface KeyFix {
  parent: string;
  written: string;
  key: string;
}

export interface PageInfo {
  /** What the plugin uses for an absent field, by path ("webhook.reconcileInterval"). */
  defaults: Defaults;
  /** This machine's network addresses, for the URL a proxy or tunnel points at. */
  addresses: string[];
  platform: string;
}

export interface Message {
  ok: boolean;
  message: string;
}

/** Someone the toggle history names, cleaned: a one-line name, and their e-mail address when the service gave a plausible one. */
export interface PersonSeen {
  name: string;
  email: string | undefined;
}

/**
 * One entry of a door's history, cleaned and bounded by the settings server. `outcome`: 'done' (was_success true),
 * 'refused' (was_success false), 'unauthorized' (an enforcer or unauthorized entry), 'unknown' (the service did not say).
 */
export interface ActivityEntry {
  /** The time as the service wrote it, one line; `atMs` when it could be read (UTC). */
  at: string | undefined;
  atMs: number | undefined;
  state: 'OPEN' | 'CLOSED' | undefined;
  outcome: 'done' | 'refused' | 'unauthorized' | 'unknown';
  /** How: the history's `channel`. */
  channel: string | undefined;
  person: PersonSeen | undefined;
}

/** Someone the history names, and how often over every entry read: `refused` of `times` were refused or unauthorized. */
export interface PersonCount {
  person: PersonSeen;
  times: number;
  refused: number;
}

/**
 * One door's last days: its entries newest first (at most ACTIVITY_ENTRIES_PER_DOOR_MAX, `more` left out) and the counts
 * over every entry read in the days asked (`total`, `refused`, `people`), or why it could not be read.
 */
export type DoorActivity =
  | { doorId: string; ok: true; entries: ActivityEntry[]; more: number; total: number; refused: number; people: PersonCount[] }
  | { doorId: string; ok: false; message: string; detail?: string };

/** The settings server's answer to "/activity": one result per door asked, in the order asked, or one sentence for the whole request. */
export type ActivityAnswer = { ok: true; doors: DoorActivity[] } | { ok: false; message: string };

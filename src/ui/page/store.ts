// The settings page's state: the plugin's config entries, the one being edited, and what the server said of them.
import { canonicalId } from '../../util/canonical-id.js';
import { appliedField, configuredDoorIds, getField } from '../shared/block.js';
import type { Block } from '../shared/block.js';
import type { AccountSummary, ConfigCheck, Defaults, DoorSummary, PageInfo, SignInAnswer } from '../shared/messages.js';

/** What one "Sign in" answered, and for which entry, address and token. */
export interface SignInRecord {
  /** The entry on screen when it was pressed: a stale record says "this entry has another address" or "changed". */
  index: number;
  baseUrl: unknown;
  accessToken: unknown;
  result: SignInAnswer;
}

/** A sign-in in flight: the entry, address and token it tries. Its answer counts only while all three are still on screen. */
export interface SignInTicket {
  readonly index: number;
  readonly baseUrl: unknown;
  readonly accessToken: unknown;
}

/**
 * Where the last "Sign in" stands for the entry on screen, for its status line: in flight; answered for this address and
 * token; left unanswered because the address or token was edited, or another entry chosen, while it ran; made for other
 * settings (edited since, or another entry's); never pressed.
 */
export type SignInState =
  | { kind: 'signing-in' }
  | { kind: 'answered'; result: SignInAnswer }
  | { kind: 'abandoned'; by: 'edit' | 'entry' }
  | { kind: 'stale'; by: 'edit' | 'entry' }
  | { kind: 'none' };

/** A door in Homebridge's accessory cache, with the `name` of the entry that showed it (absent in older caches). */
export interface CachedDoor {
  entry: string | undefined;
  door: DoorSummary;
}

/** A door the settings name that the list does not show (gone from the account, or typed by hand): a row of its own. */
const configuredOnly = (id: string): DoorSummary => ({
  id,
  name: id,
  controllerId: '',
  state: null,
  active: false,
  owned: undefined,
  relationship: undefined,
  sensor: false,
  batteryPct: undefined,
});

export class Store {
  /** Every platform block of this plugin, as the Homebridge UI will save them. */
  entries: Block[];
  private shownIndex = 0;
  /** Doors from Homebridge's accessory cache, each with the entry that showed it (see cachedDoors). */
  cached: CachedDoor[] = [];
  check: ConfigCheck | undefined;
  /** The last "Sign in"'s answer; it speaks for the current settings only while their address and token are the ones it tried. */
  signedIn: SignInRecord | undefined;
  /** The sign-in in flight, if any: an edit of its address or token, or another entry chosen, leaves it unanswered. */
  private pending: SignInTicket | undefined;
  /** Why the last sign-in was left unanswered, until the next one starts. */
  private abandoned: 'edit' | 'entry' | undefined;
  /**
   * The user changed a field or pressed Sign in (or the entry was saved before): only then does the summary list
   * problems, so a fresh page does not greet the user with red. The page cannot see the Homebridge UI's Save button.
   */
  touched: boolean;
  /** The entries changed on this page: Save writes every entry, so each one edited must be fit to save, not only the one on screen. */
  readonly edited = new Set<number>();
  /** What "Add an entry for the rest" carried into each entry it made, by entry, for the summary. */
  readonly splitNotes = new Map<number, string>();
  /** Webhook port of each entry as saved, whose listener may be running now. */
  readonly savedPorts: (number | undefined)[];
  private readonly listeners: (() => void)[] = [];

  constructor(
    entries: Block[],
    readonly info: PageInfo,
  ) {
    this.entries = entries.length > 0 ? entries : [{ platform: info.platform }];
    this.savedPorts = this.entries.map((entry) => {
      const webhook = entry.webhook;
      const port = typeof webhook === 'object' && webhook !== null ? (webhook as Record<string, unknown>).port : undefined;
      return typeof port === 'number' ? port : undefined;
    });
    // A saved entry's problems are the saved setup's: worth saying at once.
    this.touched = getField(this.block, 'baseUrl') !== undefined || getField(this.block, 'accessToken') !== undefined;
  }

  /** The entry on screen (its place in `entries`). */
  get index(): number {
    return this.shownIndex;
  }

  /** Shows another entry: a sign-in still in flight was for the one left, and its answer will not count. */
  showEntry(index: number): void {
    if (index === this.shownIndex) return;
    this.shownIndex = index;
    this.abandon('entry');
  }

  /** Whether the address and token on screen are the ones `tried` holds. */
  private tries(tried: { baseUrl: unknown; accessToken: unknown }): boolean {
    return tried.baseUrl === getField(this.block, 'baseUrl') && tried.accessToken === getField(this.block, 'accessToken');
  }

  /**
   * The last sign-in's answer if it was for this entry and the address and token in its fields now; undefined: not tried,
   * edited since, or made for another entry (one with the same address and token included: the rule the page states).
   */
  get signIn(): SignInAnswer | undefined {
    const record = this.signedIn;
    return record?.index === this.shownIndex && this.tries(record) ? record.result : undefined;
  }

  /**
   * The account the last sign-in read, only while the entry on screen has the address and token it read it with: its
   * doors are listed, its ids are the ones the check names the closest of. Another account's never are.
   */
  get account(): AccountSummary | undefined {
    const result = this.signIn;
    return result?.ok === true ? result.account : undefined;
  }

  /** A sign-in starts with the entry, address and token on screen; an earlier one still in flight no longer counts. */
  beginSignIn(): SignInTicket {
    const ticket: SignInTicket = {
      index: this.shownIndex,
      baseUrl: getField(this.block, 'baseUrl'),
      accessToken: getField(this.block, 'accessToken'),
    };
    this.pending = ticket;
    this.abandoned = undefined;
    this.touched = true;
    return ticket;
  }

  /**
   * The answer to the sign-in `ticket` started: kept only when it is the sign-in in flight and its entry, address and
   * token are still the ones on screen (it speaks for them alone); true when kept, false when discarded.
   */
  finishSignIn(ticket: SignInTicket, result: SignInAnswer): boolean {
    if (this.pending !== ticket) return false;
    this.pending = undefined;
    if (ticket.index !== this.shownIndex || !this.tries(ticket)) {
      this.abandoned = ticket.index !== this.shownIndex ? 'entry' : 'edit';
      return false;
    }
    this.signedIn = { ...ticket, result };
    return true;
  }

  /** Whether a sign-in is in flight for the entry, address and token on screen. */
  get signingIn(): boolean {
    return this.pending !== undefined;
  }

  /** Where the sign-in stands for the entry on screen (see SignInState). */
  get signInState(): SignInState {
    if (this.pending !== undefined) return { kind: 'signing-in' };
    const result = this.signIn;
    if (result !== undefined) return { kind: 'answered', result };
    if (this.abandoned !== undefined) return { kind: 'abandoned', by: this.abandoned };
    if (this.signedIn !== undefined) return { kind: 'stale', by: this.signedIn.index === this.shownIndex ? 'edit' : 'entry' };
    return { kind: 'none' };
  }

  private abandon(by: 'edit' | 'entry'): void {
    if (this.pending === undefined) return;
    this.pending = undefined;
    this.abandoned = by;
  }

  /**
   * The cached doors of the entry on screen, shown while it is not signed in: those the plugin marked with its name
   * (DoorContext.entry) when no other entry has that name; an unmarked door (a cache of an older version) only while
   * there is one entry. A door is never listed under an entry that did not show it.
   */
  get cachedDoors(): DoorSummary[] {
    const name = this.entryName(this.shownIndex);
    const alone = this.entries.filter((_, index) => this.entryName(index) === name).length === 1;
    return this.cached.flatMap(({ entry, door }) =>
      (entry === undefined ? this.entries.length === 1 : alone && entry === name) ? [door] : [],
    );
  }

  /** The name the plugin runs the entry under (its `name`, else the plugin's), as it marks its cached doors. */
  private entryName(index: number): string {
    const entry = this.entries[index];
    const name = entry === undefined ? undefined : appliedField(entry, 'name');
    return typeof name === 'string' ? name : String(this.defaults.name);
  }

  get defaults(): Defaults {
    return this.info.defaults;
  }

  get block(): Block {
    return this.entries[this.shownIndex] ?? { platform: this.info.platform };
  }

  /** Replaces the edited block; listeners hand it to the Homebridge UI and ask the server to check it. */
  set(next: Block): void {
    this.entries[this.shownIndex] = next;
    this.edited.add(this.shownIndex);
    // An address or token edited while a sign-in tries the old one: its answer would be for settings no longer on screen.
    if (this.pending !== undefined && !this.tries(this.pending)) this.abandon('edit');
    for (const listener of this.listeners) {
      listener();
    }
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * The doors to list: the account's once signed in, else the cache's; each door once, as Home shows it once
   * (registry/shown-doors.ts), under the first controller that lists it. A door is one door by its id as sent, as the
   * plugin keeps them apart: two ids that differ only in case (or invisible marks) are two doors in Home, so two rows
   * (the plugin keeps both read-only, src/config/protection.ts; their rows say so).
   */
  get doors(): DoorSummary[] {
    const seen = new Set<string>();
    return (this.account?.doors ?? this.cachedDoors).filter((door) => !seen.has(door.id) && seen.add(door.id));
  }

  /**
   * The rows of the door list: the listed doors, then one for each door the settings name that none of them is, by the
   * plugin's reading of ids (an entry written "abc" is the row of the door the service sends as "ABC", never a second
   * row whose "Back to all-doors settings" would remove that door's own settings).
   */
  get rows(): DoorSummary[] {
    const listed = this.doors;
    const known = new Set(listed.map((door) => canonicalId(door.id)));
    return [
      ...listed,
      ...configuredDoorIds(this.block)
        .filter((id) => !known.has(id))
        .map(configuredOnly),
    ];
  }
}

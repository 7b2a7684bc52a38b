// The settings page's state: the plugin's config entries, the one being edited, and what the server said of them.
import { canonicalId } from '../../util/canonical-id.js';
import { configuredDoorIds, getField } from './model.js';
import type { Block, Defaults } from './model.js';
import type { AccountView, ConfigCheck, DoorView, PageInfo, SignInView } from './views.js';

/** What one "Sign in" answered, and for which address and token. */
export interface SignInRecord {
  baseUrl: unknown;
  accessToken: unknown;
  result: SignInView;
}

/** A door the settings name that the list does not show (gone from the account, or typed by hand): a row of its own. */
const configuredOnly = (id: string): DoorView => ({
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
  index = 0;
  account: AccountView | undefined;
  /** Doors from Homebridge's accessory cache, shown while the service cannot be reached. */
  cachedDoors: DoorView[] = [];
  check: ConfigCheck | undefined;
  /** The last "Sign in"'s answer; it speaks for the current settings only while their address and token are the ones it tried. */
  signedIn: SignInRecord | undefined;
  /**
   * The user changed a field or pressed Sign in (or the entry was saved before): only then does the summary list
   * problems, so a fresh page does not greet the user with red. The page cannot see the Homebridge UI's Save button.
   */
  touched: boolean;
  /** The entries changed on this page: Save writes every entry, so each one edited must be fit to save, not only the one on screen. */
  readonly edited = new Set<number>();
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

  /** The last sign-in's answer if it was for the address and token in the fields now; undefined: not tried, or edited since. */
  get signIn(): SignInView | undefined {
    const record = this.signedIn;
    return record !== undefined &&
      record.baseUrl === getField(this.block, 'baseUrl') &&
      record.accessToken === getField(this.block, 'accessToken')
      ? record.result
      : undefined;
  }

  get defaults(): Defaults {
    return this.info.defaults;
  }

  get block(): Block {
    return this.entries[this.index] ?? { platform: this.info.platform };
  }

  /** Replaces the edited block; listeners hand it to the Homebridge UI and ask the server to check it. */
  set(next: Block): void {
    this.entries[this.index] = next;
    this.edited.add(this.index);
    for (const listener of this.listeners) {
      listener();
    }
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * The doors to list: the account's once signed in, else the cache's; each door once, as Home shows it once
   * (registry/shown-doors.ts), under the first controller that lists it. A door is one door whatever case or invisible
   * marks its id is sent with (canonicalId, as the plugin compares ids): two rows of one door would draw its controls
   * twice, with the same settings behind them, and read its activity twice.
   */
  get doors(): DoorView[] {
    const seen = new Set<string>();
    return (this.account?.doors ?? this.cachedDoors).filter((door) => {
      const key = canonicalId(door.id);
      return !seen.has(key) && seen.add(key);
    });
  }

  /**
   * The rows of the door list: the listed doors, then one for each door the settings name that none of them is, by the
   * plugin's reading of ids (an entry written "abc" is the row of the door the service sends as "ABC", never a second
   * row whose "Back to all-doors settings" would remove that door's own settings).
   */
  get rows(): DoorView[] {
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

// The settings page's state: the plugin's config entries, the one being edited, and what the server said of them.
import type { Block, Defaults } from './model.js';
import type { AccountView, ConfigCheck, DoorView, PageInfo } from './views.js';

export class Store {
  /** Every platform block of this plugin, as the Homebridge UI will save them. */
  entries: Block[];
  index = 0;
  account: AccountView | undefined;
  /** Doors from Homebridge's accessory cache, shown while the service cannot be reached. */
  cachedDoors: DoorView[] = [];
  check: ConfigCheck | undefined;
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
    for (const listener of this.listeners) {
      listener();
    }
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** The doors to list: the account's once signed in, else the cache's. */
  get doors(): DoorView[] {
    return this.account?.doors ?? this.cachedDoors;
  }
}

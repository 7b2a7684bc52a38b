// Which name a door shows and where its names come from: the user's choice (plugin settings, then Home app), else the
// account's; renames in the account are followed, quietly once they keep coming.
import { fallbackDoorName } from '../../client/fallback-name.js';
import type { Door } from '../../client/types.js';
import { ACCOUNT_RENAME_QUIET_WINDOW_MS, ACCOUNT_RENAMES_BEFORE_QUIET } from '../../settings.js';
import type { DoorContext } from './context.js';
import { homeKitName } from '../../util/homekit-name.js';
import type { DoorLog } from './log.js';
import { RenameRate } from './rename-rate.js';

/** Who chose the name a door shows. */
export type NameSource = 'settings' | 'home' | 'account';

export interface ShownName {
  name: string;
  source: NameSource;
}

/**
 * The name a door should show now. The plugin never overwrites a name the user chose: the settings' "Name in Home" wins,
 * then a name given in the Home app; otherwise the door follows its name in the account.
 */
export function shownName(context: DoorContext, settingsName: string | undefined): ShownName {
  // A cache of an older version has no account name until the first sync; its shown name was the account's when added.
  const accountName = context.accountName ?? context.name;
  if (settingsName !== undefined) {
    return { name: homeKitName(settingsName, accountName), source: 'settings' };
  }
  if (context.homeName !== undefined) {
    return { name: context.homeName, source: 'home' };
  }
  return { name: accountName, source: 'account' };
}

/** Where a name the plugin kept comes from, for the log. */
export function describeSource(source: NameSource): string {
  return source === 'settings' ? 'the plugin settings' : source === 'home' ? 'the Home app' : 'the account';
}

/**
 * Cached names pass the rule of names from the account and the Home app: an older version or an edited cache may hold a
 * name of any length or text, which HAP-NodeJS would quote whole into the log. One that leaves nothing is dropped.
 */
export function cleanCachedNames(context: DoorContext): void {
  const accountName = typeof context.accountName === 'string' ? homeKitName(context.accountName, '') : '';
  if (accountName === '') {
    delete context.accountName;
  } else {
    context.accountName = accountName;
  }
  const homeName = typeof context.homeName === 'string' ? homeKitName(context.homeName, '') : '';
  if (homeName === '') {
    delete context.homeName;
  } else {
    context.homeName = homeName;
  }
  context.name = homeKitName(context.name, context.accountName ?? fallbackDoorName(context.doorId));
}

export interface DoorNamesDeps {
  log: DoorLog;
  now: () => number;
  /** The door's settings, its "Name in Home" among them; undefined when the config could not be read (the names then stay). */
  options: { name?: string | undefined } | undefined;
  /** The shown name changed from `before` to `name`: the face shows it wherever HomeKit reads the door's name. */
  onRename: (before: string, name: string) => void;
}

/** The names of one door, kept in its cache record: which one it shows, and what each rename (account, Home app) means. */
export class DoorNames {
  /** How often the account renames the door: a name that keeps changing is followed quietly. */
  private readonly accountRenames = new RenameRate(ACCOUNT_RENAMES_BEFORE_QUIET, ACCOUNT_RENAME_QUIET_WINDOW_MS);
  /** The cached name before this version's rules cleaned it, for start(). */
  private readonly cachedName: string;

  constructor(
    private readonly context: DoorContext,
    private readonly deps: DoorNamesDeps,
  ) {
    this.cachedName = context.name;
    cleanCachedNames(context);
  }

  /**
   * Once the face shows the door: a cached name the rules of this version cut or cleaned reaches HomeKit too, and a name
   * set, changed or removed in the plugin settings since the last start is shown, with one line.
   */
  start(): void {
    const context = this.context;
    if (context.name !== this.cachedName) {
      this.deps.onRename(this.cachedName, context.name);
    }
    const before = this.show();
    if (before !== undefined) {
      this.deps.log.info(`${before} is now named ${context.name}, from ${this.source()}.`);
    }
  }

  /** Who chose the name shown now, for the log. */
  private source(): string {
    return describeSource(shownName(this.context, this.deps.options?.name).source);
  }

  /**
   * Takes the door's name in the account from a sync. A rename there renames the door in HomeKit unless the user named
   * it in the plugin settings or the Home app; either way one line says so, once per rename in the account.
   */
  followAccount(door: Door): void {
    const context = this.context;
    const accountName = homeKitName(door.name, fallbackDoorName(door.id));
    const previous = context.accountName;
    const nowMs = this.deps.now();
    this.accountRenames.settle(nowMs);
    if (previous === accountName) {
      return;
    }
    context.accountName = accountName;
    const before = this.show();
    if (previous === undefined) {
      // A cache of an older version learns the account's name; a settings name removed meanwhile gives way to it now.
      if (before !== undefined) {
        this.deps.log.info(`${before} is now named ${context.name}, from ${this.source()}.`);
      }
      return;
    }
    const verdict = this.accountRenames.record(nowMs);
    const say = (line: string) => (verdict === 'say' ? this.deps.log.info(line) : this.deps.log.debug(line));
    if (before !== undefined) {
      say(`${before} was renamed ${context.name} in the account; renamed in Home.`);
    } else {
      say(`${context.name} was renamed ${accountName} in the account; it keeps the name given in ${this.source()}.`);
    }
    if (verdict === 'goes-quiet') {
      this.deps.log.info(`${context.name}'s name keeps changing in the account; further renames are logged at debug level.`);
    }
  }

  /**
   * The cached context as text, for the platform to tell whether the accessory cache needs writing. While the door's
   * name keeps changing in the account, its names are left out (HomeKit follows them, the SD card is spared): they reach
   * the cache with the next write for another reason, or once the name has held (the text then differs again).
   */
  cacheSnapshot(): string {
    const context = this.context;
    if (!this.accountRenames.quiet) {
      return JSON.stringify(context);
    }
    return JSON.stringify({ ...context, name: undefined, accountName: undefined, homeName: undefined });
  }

  /**
   * The user renamed the door in the Home app to `value`. The name is the user's from now on, kept across renames in the
   * account and restarts; renaming it back to the account's name in Home makes it follow the account again. True when
   * the accessory cache must be written; false when nothing is new (Home wrote back the name it was shown).
   */
  renamedInHome(value: string): boolean {
    const context = this.context;
    const name = homeKitName(value, '');
    const accountName = context.accountName ?? context.name;
    if (name === '' || name === context.homeName || (context.homeName === undefined && name === context.name)) {
      return false;
    }
    const before = context.name;
    if (name === accountName) {
      delete context.homeName;
      this.deps.log.info(`${before} was renamed ${name} in the Home app, its name in the account: it follows the account's name again.`);
    } else {
      context.homeName = name;
      this.deps.log.info(`${before} was renamed ${name} in the Home app; the plugin keeps that name.`);
    }
    this.show();
    return true;
  }

  /**
   * Shows the name the door should have now (see shownName), when it differs from the one shown: the face is told, and
   * the name it had then returned; undefined when nothing changed. Without a readable config the names stay.
   */
  private show(): string | undefined {
    const options = this.deps.options;
    const context = this.context;
    if (!options) {
      return undefined;
    }
    const before = context.name;
    const { name } = shownName(context, options.name);
    if (name === before) {
      return undefined;
    }
    context.name = name;
    this.deps.onRename(before, name);
    return before;
  }
}

// Which name a door shows and where its names come from: the user's choice (plugin settings, then Home app), else the account's.
import type { DoorContext } from '../context.js';
import { homeKitName } from '../homekit-name.js';

/** Characters of a door id the fallback name shows. */
const FALLBACK_ID_CHARACTERS = 8;

/**
 * The name of a door the service sent without one (or whose name leaves nothing HomeKit accepts). Cut between
 * characters: half of an emoji's surrogate pair in an odd id would be text no font shows and no JSON parser takes back.
 */
export function fallbackDoorName(doorId: string): string {
  return `Door ${Array.from(doorId).slice(0, FALLBACK_ID_CHARACTERS).join('')}`;
}

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

// Which kind a door shows in Home (its main service): the settings' showAs, else the kind the cache holds, else the
// catalog's default; the cached service of another kind goes, and a kind replaced is said in one line.
import type { HAP, Logging, PlatformAccessory } from 'homebridge';

import type { ShowAs } from '../option-catalog.js';
import { OPTION_DEFAULTS } from '../option-values.js';
import { cachedKind, findKindService, strayKindServices } from './face.js';
import type { FaceTable } from './face.js';

export interface KindChoice {
  kind: ShowAs;
  /**
   * True when this start replaced the cached main service by another kind, or removed a door-kind service of another
   * kind from the cache: the accessory cache must be written.
   */
  kindChanged: boolean;
}

/**
 * Chooses the door's kind and clears the cache of services of other kinds. `showAs` is the settings' (undefined: not set,
 * or the settings cannot be read); `name` names the door in the line said when its kind is replaced.
 */
export function chooseKind(
  hap: HAP,
  accessory: PlatformAccessory,
  showAs: ShowAs | undefined,
  faces: FaceTable,
  log: Logging,
  name: string,
): KindChoice {
  // Without readable settings a cached door keeps the kind it has: a typo must not break automations.
  const cached = cachedKind(hap, accessory, showAs, faces);
  const kind = showAs ?? cached ?? OPTION_DEFAULTS.showAs;
  const replaced = cached !== undefined && cached !== kind;
  if (cached !== undefined && replaced) {
    warnKindReplaced(log, name, faces[kind].words, faces[cached].words);
  }
  // The service of another kind (the one replaced, or a cache that holds two) would take Home's writes with no handler:
  // it goes. Found by what marks it as a kind, so an extra of the same type (the automation switch) stays.
  const strays = strayKindServices(hap, accessory, findKindService(hap, accessory, kind, faces), faces);
  for (const stray of strays) {
    accessory.removeService(stray);
  }
  return { kind, kindChanged: replaced || strays.length > 0 };
}

/**
 * The settings show the door as another kind than the cache holds: only the main service changes (the old one goes
 * with the strays). The accessory (its UUID, so its name and room in Home) and its extras stay; automations made for
 * the old service cannot follow.
 */
function warnKindReplaced(log: Logging, name: string, now: string, before: string): void {
  log.warn(
    `${name} is now shown in Home as ${now} instead of ${before} ("Show in Home as" in the plugin settings). ` +
      `It keeps its name and room, but Home automations and scenes made for ${before} must be made again.`,
  );
}

// The extras of one door, built from the table (index.ts): each on or off as the door's options say, on the same
// accessory, so its HomeKit identity stays.
import type { API, PlatformAccessory } from 'homebridge';

import type { ExtraKey } from '../../option-catalog.js';
import { DEFAULT_DOOR_OPTIONS } from '../../config/door-options.js';
import type { DoorOptions } from '../../config/door-options.js';
import { hasExtra, removeExtra } from './extra.js';
import type { DoorExtra, ExtraDeps, ExtraDoor } from './extra.js';
import { EXTRAS } from './index.js';

/** Every extra, in the table's order: the order their services are added in. */
const EXTRA_KEYS = Object.keys(EXTRAS) as ExtraKey[];

/** Each extra's name suffix by its subtype: a renamed door renames the extras named after it (homekit/door-name.ts). */
export const EXTRA_SUFFIXES: ReadonlyMap<string, string> = new Map(EXTRA_KEYS.map((key) => [EXTRAS[key].subtype, EXTRAS[key].suffix]));

/** One extra by its option: built when its value is on, its service removed when off. */
function build<K extends ExtraKey>(key: K, options: Pick<DoorOptions, K> | undefined, deps: ExtraDeps): DoorExtra | undefined {
  const spec = EXTRAS[key];
  const { hap } = deps.api;
  // Unreadable settings keep what the accessory has, in the extra's safe value.
  const value = options === undefined ? (hasExtra(hap, deps.accessory, spec) ? spec.kept : spec.off) : options[key];
  if (value === spec.off) {
    removeExtra(hap, deps.accessory, spec);
    spec.remove?.(hap, deps.accessory);
    return undefined;
  }
  return spec.create(deps, value);
}

/** Adds the extras a door's options ask for and removes the others. */
export class DoorExtras {
  private readonly extras: DoorExtra[];
  /** Set when the door stops (shutdown, or it leaves HomeKit): a late answer or event must not start a timer again. */
  private disposed = false;

  constructor(
    api: API,
    accessory: PlatformAccessory,
    doorName: string,
    /** Undefined: keep whatever extras the accessory already has (the config could not be read). */
    options: DoorOptions | undefined,
    door: ExtraDoor,
  ) {
    const deps: ExtraDeps = { api, accessory, doorName, door, options: options ?? DEFAULT_DOOR_OPTIONS };
    this.extras = EXTRA_KEYS.flatMap((key) => build(key, options, deps) ?? []);
  }

  /** An enforcer event named the door: its access alert detects. False when the door has none. */
  alertAccess(): boolean {
    const alerts = this.extras.filter((extra) => extra.alertAccess !== undefined);
    if (!this.disposed) {
      for (const extra of alerts) extra.alertAccess?.();
    }
    return alerts.length > 0;
  }

  update(): void {
    if (this.disposed) {
      return;
    }
    for (const extra of this.extras) extra.update?.();
  }

  dispose(): void {
    this.disposed = true;
    for (const extra of this.extras) extra.dispose?.();
  }
}

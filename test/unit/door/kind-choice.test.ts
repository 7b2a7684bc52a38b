// Which kind a door shows (src/door/kind-choice.ts): the settings' choice, else the cached one (a typo in the settings
// must not break automations), else the default; the cached service of another kind goes, and a replaced kind is said
// once, in the words of the kinds' table. Real HAP-NodeJS and Homebridge's PlatformAccessory.
import * as hap from 'hap-nodejs';
import type { HAP, PlatformAccessory } from 'homebridge';
import { describe, expect, it } from 'vitest';

import { FACES, kindService } from '../../../src/door/face.js';
import { chooseKind } from '../../../src/door/kind-choice.js';
import type { ShowAs } from '../../../src/option-catalog.js';
import { OPTION_DEFAULTS } from '../../../src/option-values.js';
import { frontGateAccessory } from '../../support/door-fixtures.js';
import { captureLog } from '../../support/log.js';

const H = hap as unknown as HAP;
const { Service: S } = hap;

/** A cached door that shows `kinds` (one service each, as the plugin added them), plus an automation switch. */
function cachedAs(...kinds: ShowAs[]): PlatformAccessory {
  const accessory = frontGateAccessory();
  for (const kind of kinds) {
    kindService(H, accessory, kind, 'Front Gate');
  }
  accessory.addService(S.Switch, 'Front Gate Switch', 'automation-switch');
  return accessory;
}

const choose = (accessory: PlatformAccessory, showAs: ShowAs | undefined) => {
  const log = captureLog();
  return { ...chooseKind(H, accessory, showAs, FACES, log, 'Front Gate'), log };
};

const serviceTypes = (accessory: PlatformAccessory): string[] => accessory.services.map((service) => service.constructor.name);

describe("choosing a door's kind", () => {
  it('takes the default for a new door without settings, the settings’ kind for a new door with them, and says nothing', () => {
    const bare = choose(frontGateAccessory(), undefined);
    expect([bare.kind, bare.kindChanged]).toEqual([OPTION_DEFAULTS.showAs, false]);
    const lock = choose(frontGateAccessory(), 'lock');
    expect([lock.kind, lock.kindChanged]).toEqual(['lock', false]);
    expect([...bare.log.lines, ...lock.log.lines]).toEqual([]);
  });

  it('keeps the cached kind when the settings cannot be read, and when they choose the same', () => {
    for (const showAs of [undefined, 'lock'] as const) {
      const accessory = cachedAs('lock');
      const { kind, kindChanged, log } = choose(accessory, showAs);
      expect([kind, kindChanged, log.lines]).toEqual(['lock', false, []]);
      expect(serviceTypes(accessory)).toEqual(['AccessoryInformation', 'LockMechanism', 'Switch']);
    }
  });

  it('replaces a cached kind the settings changed: the old service goes, the extras stay, and one warning says so', () => {
    const accessory = cachedAs('garage-door');
    const { kind, kindChanged, log } = choose(accessory, 'lock');
    expect([kind, kindChanged]).toEqual(['lock', true]);
    expect(serviceTypes(accessory)).toEqual(['AccessoryInformation', 'Switch']);
    expect(log.lines).toEqual([
      {
        level: 'warn',
        text:
          'Front Gate is now shown in Home as a lock instead of a garage door ("Show in Home as" in the plugin settings). ' +
          'It keeps its name and room, but Home automations and scenes made for a garage door must be made again.',
      },
    ]);
  });

  it('clears a cache that holds two kinds down to the one shown, silently, and marks the cache to be written', () => {
    const accessory = cachedAs('garage-door', 'lock');
    const { kind, kindChanged, log } = choose(accessory, 'lock');
    expect([kind, kindChanged, log.lines]).toEqual(['lock', true, []]);
    expect(serviceTypes(accessory)).toEqual(['AccessoryInformation', 'LockMechanism', 'Switch']);
  });
});

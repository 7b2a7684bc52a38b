// The door's extras' table (src/door/extras/): one row per option the catalog marks `extra`, checked by the compiler (a
// missing or unknown row is a type error, proven below with @ts-expect-error, which `npm run typecheck` checks), and
// what every row does in Home, walked row by row so a new extra is held to the same rules without a test of its own.
import { existsSync, readFileSync } from 'node:fs';

import * as hap from 'hap-nodejs';
import { describe, expect, it } from 'vitest';

import { extraFileOf, generateExtrasTable } from '../../../../dev/generate/extras-table.js';
import { EXTRAS } from '../../../../src/door/extras/index.js';
import type { ExtraSpec, ExtraTable } from '../../../../src/door/extras/extra.js';
import { OPTIONS } from '../../../../src/option-catalog.js';
import type { ExtraKey } from '../../../../src/option-catalog.js';
import type { DoorOptions } from '../../../../src/config/door-options.js';
import { doorRig, NO_EXTRAS, reportedDevice, reportedDoor } from '../../../support/door-fixtures.js';
import type { DoorRig } from '../../../support/door-fixtures.js';

const C = hap.Characteristic;
const KEYS = Object.keys(EXTRAS) as ExtraKey[];

/** Every value of an extra's option that turns it on: true for a flag, each mode but off for a choice. */
function onValues(key: ExtraKey): unknown[] {
  const option = OPTIONS.find((entry) => entry.key === key);
  return option?.kind === 'choice' ? option.values.filter((value) => value !== EXTRAS[key].off) : [true];
}

const withExtra = (key: ExtraKey, value: unknown): DoorOptions => ({ ...NO_EXTRAS, [key]: value });

/** The extras' services an accessory holds, as "subtype: name". */
function extrasOn(accessory: DoorRig['accessory']): string[] {
  return KEYS.flatMap((key) => {
    const service = accessory.getServiceById(EXTRAS[key].service(hap), EXTRAS[key].subtype);
    return service ? [`${EXTRAS[key].subtype}: ${JSON.stringify(service.getCharacteristic(C.Name).value)}`] : [];
  });
}

describe('the extras table', () => {
  it('has a row for exactly the options the catalog marks extra, in its order', () => {
    expect(KEYS).toEqual(OPTIONS.filter((option) => 'extra' in option && option.extra).map((option) => option.key));
  });

  it('is what npm run generate writes from the catalog, each row from its own file named after its key', () => {
    const onDisk = readFileSync(new URL('../../../../src/door/extras/index.ts', import.meta.url), 'utf8');
    expect(generateExtrasTable(OPTIONS), 'src/door/extras/index.ts is stale: run npm run generate').toBe(onDisk);
    for (const key of KEYS) {
      expect(existsSync(new URL(`../../../../src/door/extras/${extraFileOf(key)}.ts`, import.meta.url))).toBe(true);
    }
    expect(extraFileOf('contactSensor')).toBe('contact-sensor');
  });

  it('gains a row, and an import of its file, for an option newly marked extra', () => {
    const marked = OPTIONS.map((option) => (option.key === 'hideBattery' ? { ...option, extra: true as const } : option));
    const table = generateExtrasTable(marked);
    expect(table).toContain("import { hideBattery } from './hide-battery.js';");
    // Its row stands where the catalog has it.
    const rows = [...table.matchAll(/^ {2}(\w+),$/gm)].map(([, key]) => key);
    expect(rows).toEqual(marked.filter((option) => 'extra' in option && option.extra).map((option) => option.key));
    expect(rows).toContain('hideBattery');
  });

  it('does not compile without a row for every extra, nor with a row of no extra', () => {
    // @ts-expect-error a table without the access alert's row is not an ExtraTable
    const missing: ExtraTable = {
      automationSwitch: EXTRAS.automationSwitch,
      leftOpenSensor: EXTRAS.leftOpenSensor,
      contactSensor: EXTRAS.contactSensor,
    };
    const row: ExtraSpec<boolean> = EXTRAS.contactSensor;
    // @ts-expect-error a row for an option the catalog does not mark extra
    const unknown: ExtraTable = { ...EXTRAS, readOnly: row };
    expect([missing, unknown]).toHaveLength(2);
  });

  it('gives every extra its own service and subtype, so none takes another one cached', () => {
    const services = KEYS.map((key) => `${EXTRAS[key].service(hap).UUID}/${EXTRAS[key].subtype}`);
    expect(new Set(services).size).toBe(KEYS.length);
    expect(new Set(KEYS.map((key) => EXTRAS[key].suffix)).size).toBe(KEYS.length);
  });
});

describe.each(KEYS)('the %s extra', (key) => {
  const spec = EXTRAS[key];

  it.each(onValues(key))('is added when set to %s, named after its door, and nothing else is', (value) => {
    const t = doorRig({ options: withExtra(key, value) });
    expect(extrasOn(t.accessory)).toEqual([`${spec.subtype}: "Front Gate${spec.suffix}"`]);
    // iOS 16 and later show a service without a ConfiguredName under the accessory's name.
    const service = t.accessory.getServiceById(spec.service(hap), spec.subtype);
    expect(service?.getCharacteristic(C.ConfiguredName).value).toBe(`Front Gate${spec.suffix}`);
    t.door.dispose();
  });

  it('goes when turned off, on the same accessory (its name and room in Home stay)', () => {
    const t = doorRig({ options: withExtra(key, onValues(key)[0]) });
    t.door.dispose();
    const again = doorRig({ options: NO_EXTRAS }, t.accessory);
    expect(extrasOn(t.accessory)).toEqual([]);
    expect(t.accessory.UUID).toBe(hap.uuid.generate('door-1'));
    again.door.dispose();
  });

  it('is kept while the settings cannot be read, in its safe value, and never added then', () => {
    const t = doorRig({ options: withExtra(key, onValues(key)[0]) });
    t.door.dispose();
    const unread = doorRig({ options: undefined }, t.accessory);
    expect(extrasOn(t.accessory)).toEqual([`${spec.subtype}: "Front Gate${spec.suffix}"`]);
    expect(spec.kept).not.toBe(spec.off);
    unread.door.dispose();
    const fresh = doorRig({ options: undefined });
    expect(extrasOn(fresh.accessory)).toEqual([]);
    fresh.door.dispose();
  });

  it('follows a rename of its door in the account', () => {
    const t = doorRig({ options: withExtra(key, onValues(key)[0]) });
    t.door.update(reportedDoor({ name: 'Back Gate' }), reportedDevice);
    expect(extrasOn(t.accessory)).toEqual([`${spec.subtype}: "Back Gate${spec.suffix}"`]);
    t.door.dispose();
  });
});

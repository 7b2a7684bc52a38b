// The option catalog and config.schema.json (the Homebridge UI's form and the plugin catalog's) say the same of every
// option: title, type, default, range or values, for all doors and per door; the form has no option the catalog lacks.
// The form's option fields and layout nodes are generated (dev/generate/, generated-files.test.ts holds the file to it):
// this checks what the generator writes, fact by fact, the layout's choices among it.
import { describe, expect, it } from 'vitest';

import { DOOR_NOT_OPTIONS, NOT_OPTIONS } from '../../dev/generate/schema.js';
import { configSchema } from '../../src/config/index.js';
import { atTop, OPTIONS, perDoor, titleOf } from '../../src/option-catalog.js';
import type { ChoiceOption, OptionSpec } from '../../src/option-catalog.js';
import { pageInfo } from '../../src/ui/server/page-info.js';
import { doorFieldsOf, layoutNode, readConfigForm } from '../support/config-schema.js';
import type { SchemaField as JsonField } from '../support/config-schema.js';

const form = readConfigForm();
const top = form.schema.properties;
const doorFields = doorFieldsOf(form);
const options: readonly OptionSpec[] = OPTIONS;

const choicesOf = (key: string) => layoutNode(form, key)?.titleMap;

const JSON_TYPE: Record<OptionSpec['kind'], string> = { flag: 'boolean', number: 'integer', choice: 'string', text: 'string' };

/** What the form must say of an option, at the top level or in a door entry. */
function expectedField(option: OptionSpec, where: 'top' | 'door'): Record<string, unknown> {
  const base = { title: titleOf(option), type: JSON_TYPE[option.kind] };
  switch (option.kind) {
    case 'flag':
      // The form writes no default (issue 8 B); at the top level the description says it, per door the choices are on and off.
      return where === 'top' ? { ...base, saysDefault: option.default ? 'On' : 'Off' } : { ...base, values: [true, false] };
    case 'number':
      // The minimum only (with a maximum the form draws a slider); the description gives the whole range.
      return {
        ...base,
        minimum: option.min,
        maximum: undefined,
        saysRange: true,
        ...(where === 'top' && option.default !== undefined ? { placeholder: option.placeholder ?? String(option.default) } : {}),
      };
    case 'choice':
      return { ...base, values: [...option.values].sort(), ...(option.valueTitles ? { valueTitles: option.valueTitles } : {}) };
    case 'text':
      return { ...base, default: option.default };
  }
}

/** The same facts, read from the form's field. */
function actualField(option: OptionSpec, field: JsonField | undefined, where: 'top' | 'door'): Record<string, unknown> {
  if (field === undefined) return { missing: true };
  const base = { title: field.title, type: field.type };
  const values = field.oneOf?.map((choice) => choice.enum[0]);
  switch (option.kind) {
    case 'flag':
      return where === 'top' ? { ...base, saysDefault: /(On|Off) by default\.$/u.exec(field.description ?? '')?.[1] } : { ...base, values };
    case 'number':
      return {
        ...base,
        minimum: field.minimum,
        maximum: field.maximum,
        saysRange: (field.description ?? '').includes(`${option.min} to ${option.max}`),
        ...(where === 'top' && option.default !== undefined ? { placeholder: field.placeholder } : {}),
      };
    case 'choice':
      return {
        ...base,
        values: [...(values ?? [])].sort(),
        ...(option.valueTitles
          ? { valueTitles: Object.fromEntries((field.oneOf ?? []).map((choice) => [choice.enum[0], choice.title])) }
          : {}),
      };
    case 'text':
      return { ...base, default: field.default };
  }
}

describe('the option catalog and config.schema.json', () => {
  it('has every option for all doors in the form, with its title, type, default and range or values', () => {
    for (const option of options.filter(atTop)) {
      expect({ key: option.key, field: actualField(option, top[option.key], 'top') }).toEqual({
        key: option.key,
        field: expectedField(option, 'top'),
      });
    }
  });

  it("has every per-door option in the form's door entry, likewise, offered as a select whose first choice writes nothing", () => {
    for (const option of options.filter(perDoor)) {
      expect({ key: option.key, field: actualField(option, doorFields[option.key], 'door') }).toEqual({
        key: option.key,
        field: expectedField(option, 'door'),
      });
      if (option.kind !== 'number') {
        expect({ key: option.key, first: choicesOf(`doors[].${option.key}`)?.[0]?.value }).toEqual({ key: option.key, first: null });
      }
    }
  });

  it("says which choice is the default: the form's first choice, which writes nothing, is named after it", () => {
    for (const option of options.filter((o): o is ChoiceOption => atTop(o) && o.kind === 'choice')) {
      const choices = choicesOf(option.key) ?? [];
      const first = choices[0];
      const defaultValue = option.default === false ? option.booleans?.false : option.default;
      // "Off (the default)" for the value "off" (titled "Off"); "All doors I can open, owned and shared with me (the default)" for "all".
      const said = /^(.+) \(the default\)$/.exec(first?.name ?? '')?.[1];
      const namesDefault = said !== undefined && choices.some((choice) => choice.value === defaultValue && choice.name.startsWith(said));
      expect({ key: option.key, first: first?.value, namesDefault }).toEqual({ key: option.key, first: null, namesDefault: true });
    }
  });

  it("keeps an option out of the form's top level or door entry where the catalog does not offer it", () => {
    for (const option of options) {
      // A door entry's name is its name in Home, not the platform's name in the log.
      const inDoor = option.key in doorFields && !DOOR_NOT_OPTIONS.includes(option.key);
      expect({ key: option.key, top: option.key in top, door: inDoor }).toEqual({
        key: option.key,
        top: atTop(option),
        door: perDoor(option),
      });
    }
  });

  it('shows a field with a flag of the catalog set for all doors (shownWith; its type allows no other key)', () => {
    for (const option of options.filter((o) => o.shownWith !== undefined)) {
      const flag = options.find((o) => o.key === option.shownWith);
      expect({ key: option.key, kind: flag?.kind, top: flag && atTop(flag) }).toEqual({ key: option.key, kind: 'flag', top: true });
    }
    expect(options.filter((o) => o.shownWith !== undefined).map((o) => o.key)).toEqual([
      'leftOpenAfter',
      'leftOpenRepeat',
      'accessAlertDuration',
    ]);
  });

  it('has no option in the form that the catalog lacks', () => {
    const formOptions = Object.keys(top).filter((key) => !NOT_OPTIONS.includes(key));
    expect(formOptions.sort()).toEqual(
      options
        .filter(atTop)
        .map((o) => o.key)
        .sort(),
    );
    const formDoorOptions = Object.keys(doorFields).filter((key) => !DOOR_NOT_OPTIONS.includes(key));
    expect(formDoorOptions.sort()).toEqual(
      options
        .filter(perDoor)
        .map((o) => o.key)
        .sort(),
    );
    // And the parser reads exactly the catalog's options beside the fields that are none.
    expect(
      Object.keys(configSchema.shape)
        .filter((key) => !NOT_OPTIONS.includes(key))
        .sort(),
    ).toEqual(formOptions.sort());
  });
});

describe('what the catalog gives the settings page', () => {
  it('tells the page the same defaults as before the catalog, and a default for every option that has one', () => {
    const { defaults } = pageInfo();
    for (const option of OPTIONS.filter(atTop).filter((entry) => 'default' in entry)) {
      expect({ key: option.key, value: defaults[option.key] }).toEqual({ key: option.key, value: option.default });
    }
    expect(defaults).toMatchObject({
      name: 'Access Control',
      pollInterval: 15,
      transitionTimeout: 60,
      lowBatteryThreshold: 20,
      includeDoors: 'all',
      matter: 'off',
      showAs: 'garage-door',
      readOnly: false,
      automationSwitch: false,
      leftOpenSensor: false,
      leftOpenRepeat: 0,
      contactSensor: false,
      hideBattery: false,
      accessAlert: false,
      accessAlertDuration: 30,
      personSensorDuration: 60,
      'webhook.headerName': 'X-Service-API-Key',
      'webhook.reconcileInterval': 300,
    });
  });
});

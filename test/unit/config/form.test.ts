// The settings form generated from config.schema.json (issue 8 B): what the Homebridge UI shows and, above all,
// what it writes on a save must be what the parser reads as the user meant.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import { doorOptions } from '../../../src/config/door-options.js';
import { atTop, OPTIONS, perDoor } from '../../../src/option-catalog.js';
import { doorFieldsOf, fieldsOf, layoutNode as layoutNodeOf, layoutNodes, readConfigForm } from '../../support/config-schema.js';
import type { SchemaField as JsonField } from '../../support/config-schema.js';

const form = readConfigForm();
const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const properties = form.schema.properties;
const webhook = properties.webhook as JsonField & { properties: Record<string, JsonField> };
const doorFields = doorFieldsOf(form);

const valid = { accessToken: 'tok-secret-123', baseUrl: 'https://api.example.com' };

const layoutNode = (key: string) => layoutNodeOf(form, key);

/** The catalog's per-door flags, and every per-door option offered as a choice (flags and choices): the lists the tests walk. */
const PER_DOOR_FLAGS = OPTIONS.filter((option) => perDoor(option) && option.kind === 'flag').map((option) => option.key);
const PER_DOOR_CHOICES = OPTIONS.filter((option) => perDoor(option) && (option.kind === 'flag' || option.kind === 'choice')).map(
  (option) => option.key,
);

/** A per-door or global choice drawn as a select: the layout's type and its titleMap (the UI's form reads them there). */
function choices(path: string): { name: string; value: unknown }[] | undefined {
  return layoutNode(path)?.titleMap;
}

/**
 * What the Homebridge UI (homebridge-config-ui-x 5.28, ng-formworks with returnEmptyFields false and setSchemaDefaults
 * true) writes for a field nobody touched, as read in its form code and seen in Chromium: the schema's default; false
 * for a checkbox (a boolean the layout does not draw as a select), which sets itself to false when drawn; for an
 * array, the one empty item it opens with; nothing for empty text and numbers and for a select left on its null
 * choice (null values and empty strings are dropped).
 */
function untouched(field: JsonField, path = ''): unknown {
  if ('default' in field) return field.default;
  if (field.type === 'boolean') return layoutNode(path)?.type === 'select' ? undefined : false;
  if (field.type === 'object') {
    const entries = Object.entries(field.properties ?? {}).flatMap(([key, sub]) => {
      const value = untouched(sub, path === '' ? key : `${path}.${key}`);
      return value === undefined ? [] : [[key, value] as const];
    });
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  if (field.type === 'array' && field.items) {
    const item = untouched(field.items, `${path}[]`);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

function plainSave(filledIn: Record<string, unknown>): Record<string, unknown> {
  return { platform: form.pluginAlias, ...(untouched(form.schema) as Record<string, unknown>), ...filledIn };
}

describe('config.schema.json as the Homebridge UI renders it', () => {
  it('keeps the custom settings page and allows the platform twice (two child bridges)', () => {
    expect(form.customUi).toBe(true);
    expect(form.customUiPath).toBe('./dist/ui');
    expect(form.singular).toBeUndefined();
  });

  it('writes nothing on a plain save that the parser would not read as meant: no door entry, no ignored setting', () => {
    const saved = plainSave(valid);
    // What homebridge-config-ui-x 5.28.0 wrote in Chromium for this schema after filling in the token and the address
    // and pressing Save (the door and filter lists open with one empty item each, which writes nothing), less the
    // automation switch's old checkbox: its select, left on "Off (the default)", writes nothing.
    expect(saved).toEqual({
      platform: 'AccessControl',
      name: 'Access Control',
      ...valid,
      webhook: { enabled: false },
      readOnly: false,
      leftOpenSensor: false,
      contactSensor: false,
      hideBattery: false,
      // A checkbox added since (the access alert) writes its false the same way.
      accessAlert: false,
      // As does every flag for all doors off by default, each drawn as a checkbox (the layout's plain key); one on by
      // default (the Eve history) is a select whose first choice writes nothing.
      ...Object.fromEntries(
        OPTIONS.filter((option) => atTop(option) && option.kind === 'flag' && !option.default).map((option) => [option.key, false]),
      ),
    });
    const result = parseConfig(saved);
    expect(result).toMatchObject({ ok: true, ignored: [] });
    expect(result.ok && result.config.doors).toEqual([]);
    expect(result.ok && result.config.webhook).toBeUndefined();
  });

  it('writes no default but the name, which Homebridge itself shows in the log (so defaults are not pinned)', () => {
    const withDefault = fieldsOf(properties)
      .filter(([, field]) => 'default' in field)
      .map(([path]) => path);
    expect(withDefault).toEqual(['name']);
  });

  it('draws every number as a box to type in, never a slider (no integer with both a minimum and a maximum)', () => {
    const sliders = fieldsOf(properties).filter(([, field]) => field.type === 'integer' && 'minimum' in field && 'maximum' in field);
    expect(sliders.map(([path]) => path)).toEqual([]);
    for (const [path, field] of fieldsOf(properties).filter(([, f]) => f.type === 'integer')) {
      // The bounds the form cannot show are in the words instead.
      expect({ path, says: /\d+ to \d+/.test(String(field.description)) }).toEqual({ path, says: true });
    }
  });

  it('says in the description what an empty field means', () => {
    for (const key of ['pollInterval', 'transitionTimeout', 'lowBatteryThreshold', 'leftOpenAfter']) {
      expect({ key, description: properties[key]?.description }).toEqual({ key, description: expect.stringMatching(/empty/i) as unknown });
    }
    for (const key of ['headerName', 'reconcileInterval']) {
      expect({ key, description: webhook.properties[key]?.description }).toEqual({
        key,
        description: expect.stringMatching(/when empty/) as unknown,
      });
    }
    // Every option for all doors that is off by default says so.
    const offByDefault = OPTIONS.filter(
      (option) => atTop(option) && 'default' in option && (option.default === false || option.default === 'off'),
    );
    for (const key of offByDefault.map((option) => option.key)) {
      expect({ key, description: properties[key]?.description }).toEqual({
        key,
        description: expect.stringMatching(/Off by default/) as unknown,
      });
    }
  });

  it('offers the automation switch as a select of its modes, globally and per door, the first writing nothing', () => {
    const modes = [
      // The catalog's words of each mode, as the settings page says them per door; the description explains them.
      { name: 'Open only', value: 'open' },
      { name: 'Open and close', value: 'open-close' },
      { name: 'Off', value: 'off' },
    ];
    expect({ type: layoutNode('automationSwitch')?.type, choices: choices('automationSwitch') }).toEqual({
      type: 'select',
      choices: [{ name: 'Off (the default)', value: null }, ...modes],
    });
    expect({ type: layoutNode('doors[].automationSwitch')?.type, choices: choices('doors[].automationSwitch') }).toEqual({
      type: 'select',
      choices: [{ name: 'As for all doors', value: null }, ...modes],
    });
    for (const field of [properties.automationSwitch, doorFields.automationSwitch]) {
      // In the catalog's order (the form is generated from it); the layout's titleMap orders the select.
      expect(field?.oneOf?.map((choice) => choice.enum[0])).toEqual(['off', 'open', 'open-close']);
      expect(field?.enum).toBeUndefined();
    }
    expect(properties.automationSwitch?.description).toMatch(/true now gets open only/);
    for (const { value } of choices('automationSwitch') ?? []) {
      const result = parseConfig({ ...valid, ...(value === null ? {} : { automationSwitch: value }) });
      if (!result.ok) throw new Error(result.problems.join('; '));
      expect({ value, ignored: result.ignored, mode: doorOptions(result.config, 'door-1').automationSwitch }).toEqual({
        value,
        ignored: [],
        mode: value ?? 'off',
      });
    }
  });

  it('offers each per-door flag as a select of "As for all doors" and its two values, the first writing nothing', () => {
    for (const key of PER_DOOR_FLAGS) {
      // The UI draws a boolean as a checkbox (which writes false) unless the layout says select.
      const offered = choices(`doors[].${key}`);
      // The default last, as in every select: off for most, on for the Eve history.
      const onByDefault = OPTIONS.some((option) => option.key === key && option.kind === 'flag' && option.default);
      expect({ key, type: layoutNode(`doors[].${key}`)?.type, values: offered?.map((choice) => choice.value) }).toEqual({
        key,
        type: 'select',
        values: [null, !onByDefault, onByDefault],
      });
      // A flag also set for all doors inherits it when left empty (hide, a door's own only, reads "No").
      if (OPTIONS.some((option) => option.key === key && atTop(option))) expect(offered?.[0]?.name).toBe('As for all doors');
      // The schema itself lists the values that can be saved, for the UI's validator and anyone editing JSON.
      expect(doorFields[key]?.oneOf?.map((choice) => choice.enum[0])).toEqual([true, false]);
    }
    // Most read On and Off; hide and hideBattery say what they do.
    expect(choices('doors[].readOnly')?.map((choice) => choice.name)).toEqual(['As for all doors', 'On', 'Off']);
  });

  it("keeps null out of the schema: the UI's form stops drawing at the first one (it reads $ref of every value)", () => {
    expect(JSON.stringify(form.schema)).not.toContain('null');
  });

  it('offers every choice of the catalog, for all doors and per door, and nothing the catalog lacks', () => {
    for (const option of OPTIONS) {
      const values: unknown[] = option.kind === 'flag' ? [true, false] : option.kind === 'choice' ? [...option.values] : [];
      if (values.length === 0) continue;
      const places = [
        ...(perDoor(option) ? [`doors[].${option.key}`] : []),
        ...(atTop(option) && option.kind === 'choice' ? [option.key] : []),
      ];
      for (const place of places) {
        const offered = (choices(place) ?? []).map((choice) => choice.value).filter((value) => value !== null);
        expect({ place, offered: offered.map(String).sort() }).toEqual({ place, offered: values.map(String).sort() });
      }
    }
  });

  it('has zod read exactly what each per-door choice writes', () => {
    for (const key of PER_DOOR_CHOICES) {
      for (const { value } of choices(`doors[].${key}`) ?? []) {
        // The form drops a null value, so "As for all doors" saves the entry without the key.
        const entry = { id: 'door-1', ...(value === null ? {} : { [key]: value }) };
        const result = parseConfig({ ...valid, doors: [entry] });
        expect({ key, value, result }).toMatchObject({ key, value, result: { ok: true, ignored: [], config: { doors: [entry] } } });
      }
    }
  });

  it('keeps a global Read-only for a door whose entry only renames it (the safety defect of issue 8)', () => {
    const entry = {
      ...(untouched(properties.doors?.items ?? {}, 'doors[]') as Record<string, unknown> | undefined),
      id: 'door-1',
      name: 'Street Gate',
    };
    const result = parseConfig(plainSave({ ...valid, readOnly: true, doors: [entry] }));
    if (!result.ok) throw new Error(result.problems.join('; '));
    expect(doorOptions(result.config, 'door-1')).toMatchObject({ name: 'Street Gate', readOnly: true });
  });

  it('offers "Doors to include" without writing the default', () => {
    expect(choices('includeDoors')?.map((choice) => choice.value)).toEqual([null, 'owned', 'all']);
    // No enum beside the choices: the UI would drop the null one and add a "None" of its own.
    expect(properties.includeDoors?.enum).toBeUndefined();
    expect(properties.includeDoors?.oneOf?.map((choice) => choice.enum[0])).toEqual(['all', 'owned']);
    for (const { value } of choices('includeDoors') ?? []) {
      const result = parseConfig({ ...valid, ...(value === null ? {} : { includeDoors: value }) });
      expect(result).toMatchObject({ ok: true, ignored: [], config: { includeDoors: value ?? 'all' } });
    }
  });

  it('requires the port and the key once webhooks are on, and only then', () => {
    // if/then, not a plain required list: the "Receive webhooks" checkbox writes `enabled: false` on every save, and
    // the UI's JSON editor checks the block against this schema, so a plain list would flag every block without webhooks.
    expect(webhook.if).toEqual({ properties: { enabled: { const: true } }, required: ['enabled'] });
    expect(webhook.then).toEqual({ required: ['port', 'apiKey'] });
    expect(webhook.required).toBeUndefined();
    for (const key of ['port', 'apiKey']) {
      expect(webhook.properties[key]?.description).toMatch(/^Required when webhooks are on\./);
      expect(webhook.properties[key]?.condition).toEqual({ functionBody: 'return !!(model.webhook && model.webhook.enabled);' });
    }
  });

  it('explains a bad key, path, header name, token or number in a sentence, never with a regular expression or the value', () => {
    // The UI's own message is "Pattern Error: Required Pattern: ^[0-9a-fA-F]{96}$, Current Value: …", which shows even a
    // password field's value. It takes a message per error from the layout's validationMessages (not from the schema,
    // nor from a single validationMessage: both seen ignored in Chromium).
    const checks: [string, JsonField | undefined, string][] = [
      ['webhook.apiKey', webhook.properties.apiKey, '^[0-9a-fA-F]{96}$'],
      ['webhook.path', webhook.properties.path, "^\\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$"],
      ['webhook.headerName', webhook.properties.headerName, "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$"],
      ['accessToken', properties.accessToken, '^[\\x20-\\x7e\\xa0-\\xff]+$'],
    ];
    const sentence = expect.stringMatching(/^[A-Z][^^$\\[\]{}]+\.$/) as unknown;
    for (const [key, field, pattern] of checks) {
      expect({ key, pattern: field?.pattern }).toEqual({ key, pattern });
      expect({ key, message: (layoutNode(key)?.validationMessages as Record<string, string> | undefined)?.pattern }).toEqual({
        key,
        message: sentence,
      });
    }
    for (const [path] of fieldsOf(properties).filter(([, f]) => f.type === 'integer')) {
      expect({ path, message: (layoutNode(path)?.validationMessages as Record<string, string> | undefined)?.minimum }).toEqual({
        path,
        message: sentence,
      });
    }
    expect(layoutNodes(form.layout).some((node) => typeof node === 'object' && 'validationMessage' in node)).toBe(false);
  });

  it('uses no format the form does not know', () => {
    const formats = new Set(fieldsOf(properties).flatMap(([, field]) => (typeof field.format === 'string' ? [field.format] : [])));
    expect([...formats]).toEqual(['uri']);
  });

  it("never suggests the Homebridge UI's own port (8581) for the listener, nor publishing it", () => {
    expect(String(webhook.properties.port?.placeholder)).not.toBe('8581');
    expect(readme).not.toMatch(/localhost:8581|:8581[;\s/]|port \(such as `8581`\)/);
    expect(readme).toMatch(/cloudflared tunnel --url http:\/\/localhost:8765/);
  });

  it('lays out every field, and only fields that exist', () => {
    const keys = layoutNodes(form.layout).flatMap((node) => (typeof node === 'string' ? [node] : node.key === undefined ? [] : [node.key]));
    const paths = fieldsOf(properties).map(([path]) => path);
    for (const key of keys) expect({ key, exists: paths.includes(key) }).toEqual({ key, exists: true });
    const leaves = fieldsOf(properties).filter(([path, field]) => field.type !== 'object' && !path.endsWith('[]') && !path.includes('[].'));
    for (const [path] of leaves) expect({ path, laidOut: keys.includes(path) }).toEqual({ path, laidOut: true });
  });
});

// config.schema.json kept in step with the parser and the option catalog: every field, its range, its default.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { configSchema } from '../../../src/config/index.js';
import { atTop, OPTIONS, perDoor } from '../../../src/option-catalog.js';
import type { OptionSpec } from '../../../src/option-catalog.js';
import { PLATFORM_NAME } from '../../../src/settings.js';
import { fieldsOf, readConfigForm } from '../../support/config-schema.js';
import type { SchemaField as JsonField } from '../../support/config-schema.js';

describe('config.schema.json', () => {
  const form = readConfigForm();
  const zodSchema = z.toJSONSchema(configSchema, { io: 'input' }) as {
    properties: Record<string, JsonField>;
    required: string[];
  };

  it('is a platform form registered under the platform name', () => {
    expect(form.pluginAlias).toBe(PLATFORM_NAME);
    expect(form.pluginType).toBe('platform');
    expect(form.schema.properties.name).toBeDefined();
  });

  /**
   * Where the form deliberately differs from zod (issue 8 B), field by field. Everything not listed here must match.
   * - default: the Homebridge UI writes every default into config.json, which would pin today's defaults in every
   *   user's file; the parser fills them in instead, and each description says what an empty field means. (`name`
   *   keeps its default: Homebridge itself, not the parser, shows it before each log line.)
   * - maximum: the UI draws an integer with a minimum and a maximum as a slider that cannot be typed in (a port
   *   thumb at 32768); the form keeps the minimum, the description gives the range, and the parser enforces it.
   * - required (webhook): zod checks port and key only on a block that is switched on (listenerWanted); the form says
   *   the same with if/then, since its "Receive webhooks" checkbox writes `enabled: false` on every save and a plain
   *   required list would then flag a form in which webhooks are off.
   * - enum (includeDoors, showAs): the saved values are the form's oneOf; the layout's titleMap adds a first choice, "All
   *   doors I can open (the default)", whose null value the UI does not write. Beside an enum the UI would drop that
   *   choice and add a "None" of its own (and null cannot be in the schema: the UI's form stops drawing at one).
   * - type (automationSwitch, globally and per door): zod reads true | false | "off" | "open" | "open-close" (true,
   *   from older configs, is open only); the form offers the three modes by name as a select of strings.
   */
  const NO_DEFAULT = 'the UI would write the default into config.json';
  const NO_MAXIMUM = 'an integer with minimum and maximum is drawn as a slider';
  /** zod also reads true and false (older configs: true is open only); the form offers and writes the modes by name. */
  const SWITCH_STRINGS = 'the form writes "off", "open" or "open-close"; zod also reads the true and false of older configs';
  const ONE_OF = 'the values are in oneOf; the layout adds the choice that writes nothing';
  type Differences = Partial<Record<string, { form: unknown; why: string }>>;
  /** The differences each catalog option has by its kind, at the top level and in a door entry: none by hand. */
  const optionDifferences = (option: OptionSpec, where: 'top' | 'door'): Differences => ({
    ...(where === 'top' && option.kind !== 'text' && 'default' in option ? { default: { form: undefined, why: NO_DEFAULT } } : {}),
    ...(option.kind === 'number' ? { maximum: { form: undefined, why: NO_MAXIMUM } } : {}),
    // A choice that reads booleans too has no enum in zod (its type differs instead, below).
    ...(option.kind === 'choice' && option.booleans === undefined ? { enum: { form: undefined, why: ONE_OF } } : {}),
  });
  const catalogDifferences = (OPTIONS as readonly OptionSpec[]).flatMap((option) => [
    ...(atTop(option) ? [[option.key, optionDifferences(option, 'top')] as const] : []),
    ...(perDoor(option) ? [[`doors[].${option.key}`, optionDifferences(option, 'door')] as const] : []),
  ]);
  const deliberate: Record<string, Differences> = {
    ...Object.fromEntries(catalogDifferences.filter(([, differences]) => Object.keys(differences).length > 0)),
    webhook: { required: { form: undefined, why: 'required only when enabled: the form says it with if/then' } },
    'webhook.port': { maximum: { form: undefined, why: NO_MAXIMUM } },
    'webhook.headerName': { default: { form: undefined, why: NO_DEFAULT } },
    'webhook.reconcileInterval': { default: { form: undefined, why: NO_DEFAULT }, maximum: { form: undefined, why: NO_MAXIMUM } },
    automationSwitch: { default: { form: undefined, why: NO_DEFAULT }, type: { form: 'string', why: SWITCH_STRINGS } },
    'doors[].automationSwitch': { type: { form: 'string', why: SWITCH_STRINGS } },
    people: { default: { form: undefined, why: NO_DEFAULT } },
    doors: { default: { form: undefined, why: NO_DEFAULT } },
    includeDeviceIds: { default: { form: undefined, why: NO_DEFAULT } },
    excludeDeviceIds: { default: { form: undefined, why: NO_DEFAULT } },
    includeDoorIds: { default: { form: undefined, why: NO_DEFAULT } },
    excludeDoorIds: { default: { form: undefined, why: NO_DEFAULT } },
  };

  it('has exactly the fields, types, bounds, defaults and required list of the zod schema, but for the listed differences', () => {
    expect(Object.keys(form.schema.properties).sort()).toEqual(Object.keys(zodSchema.properties).sort());
    expect([...form.schema.required].sort()).toEqual([...zodSchema.required].sort());
    // Every field of both by its dotted path (a block's as `webhook.port`, a door entry's as `doors[].id`); a list of
    // plain values is compared as the list.
    const fieldsByPath = (properties: Record<string, JsonField>) => new Map(fieldsOf(properties).filter(([path]) => !path.endsWith('[]')));
    const zodFields = fieldsByPath(zodSchema.properties);
    const formFields = fieldsByPath(form.schema.properties);
    expect([...formFields.keys()].sort()).toEqual([...zodFields.keys()].sort());
    const seen = new Set<string>();
    for (const [key, field] of zodFields) {
      const formField = formFields.get(key);
      for (const rule of ['type', 'default', 'minimum', 'maximum', 'minLength', 'pattern', 'enum', 'required']) {
        const difference = deliberate[key]?.[rule];
        if (difference) {
          seen.add(`${key} ${rule}`);
          // A listed difference must still be one (and hold the value listed), or the list would hide drift.
          expect({ key, rule, differs: JSON.stringify(field[rule]) !== JSON.stringify(difference.form) }).toEqual({
            key,
            rule,
            differs: true,
          });
        }
        const expected = difference ? difference.form : field[rule];
        expect({ key, rule, value: formField?.[rule] }).toEqual({ key, rule, value: expected });
      }
      if (field.items?.properties) {
        expect(formField?.items?.required).toEqual(field.items.required);
      }
    }
    const listed = Object.entries(deliberate).flatMap(([key, rules]) => Object.keys(rules).map((rule) => `${key} ${rule}`));
    expect([...seen].sort()).toEqual(listed.sort());
  });

  it('requires in the form, once webhooks are on, exactly what zod requires of a webhook block', () => {
    const zodWebhook = zodSchema.properties.webhook ?? {};
    expect(form.schema.properties.webhook?.then).toEqual({ required: zodWebhook.required });
  });

  it('shows the webhook fields only once webhooks are switched on', () => {
    const webhook = form.schema.properties.webhook?.properties ?? {};
    for (const [key, field] of Object.entries(webhook)) {
      expect({ key, shownWhenOn: key === 'enabled' || field.condition !== undefined }).toEqual({ key, shownWhenOn: true });
    }
  });

  it('shows the token as a password', () => {
    expect(form.schema.properties.accessToken?.['x-schema-form']).toEqual({ type: 'password' });
  });
});

// config.schema.json's layout nodes of the options are what `npm run generate` makes of the option catalog: an option
// added, removed or changed in the catalog moves its node in the layout, in its place, with the choices the form needs.
import { describe, expect, it } from 'vitest';

import { generateLayout, generateSchema } from '../../dev/generate/schema.js';
import { OPTIONS } from '../../src/option-catalog.js';
import type { ChoiceOption, FlagOption, NumberOption, OptionSpec } from '../../src/option-catalog.js';
import { CONFIG_SCHEMA_TEXT, layoutNode, layoutNodes, NEW_DOOR_FLAG, readConfigForm } from '../support/config-schema.js';
import type { ConfigForm, LayoutNode } from '../support/config-schema.js';

const options: readonly OptionSpec[] = OPTIONS;

/** The form generated from `changed` over the file on disk. */
const formOf = (changed: readonly OptionSpec[]): ConfigForm => readConfigForm(generateSchema(changed, CONFIG_SCHEMA_TEXT));

const keyOf = (node: LayoutNode): string | undefined => (typeof node === 'string' ? node : node.key);

/** The keys of the list of layout nodes that holds `key` (a fieldset's items, the door list's items, the layout). */
function siblingsOf(nodes: LayoutNode[], key: string): (string | undefined)[] | undefined {
  if (nodes.some((node) => keyOf(node) === key)) return nodes.map(keyOf);
  for (const node of nodes) {
    const inside = typeof node === 'object' ? siblingsOf(node.items ?? [], key) : undefined;
    if (inside) return inside;
  }
  return undefined;
}

/** Every key the layout draws, depth first. */
const keysOf = (form: ConfigForm): (string | undefined)[] => layoutNodes(form.layout).map(keyOf);

/** The catalog with `added` right after the option `after`. */
function withAfter(after: string, added: OptionSpec): OptionSpec[] {
  const at = options.findIndex((option) => option.key === after) + 1;
  return [...options.slice(0, at), added, ...options.slice(at)];
}

const nightMode = NEW_DOOR_FLAG;

describe("the layout's option nodes, generated from the catalog", () => {
  it('inserts a new per-door flag as a select right after the per-door option before it, and its checkbox for all doors', () => {
    const form = formOf(withAfter('contactSensor', nightMode));
    const doorKeys = siblingsOf(form.layout, 'doors[].nightMode') ?? [];
    expect(doorKeys[doorKeys.indexOf('doors[].nightMode') - 1]).toBe('doors[].contactSensor');
    // A checkbox per door would save false and override the value for all doors: a select whose first choice writes nothing.
    expect(layoutNode(form, 'doors[].nightMode')).toEqual({
      key: 'doors[].nightMode',
      type: 'select',
      titleMap: [
        { name: 'As for all doors', value: null },
        { name: 'On', value: true },
        { name: 'Off', value: false },
      ],
    });
    const topKeys = siblingsOf(form.layout, 'nightMode') ?? [];
    expect(topKeys[topKeys.indexOf('nightMode') - 1]).toBe('contactSensor');
    expect(form.layout.filter((node) => layoutNodes([node]).some((inner) => keyOf(inner) === 'nightMode'))).toHaveLength(1);
    // Nothing else moves.
    expect(keysOf(form).filter((key) => key !== 'nightMode' && key !== 'doors[].nightMode')).toEqual(keysOf(readConfigForm()));
  });

  it("names a per-door-only flag's first choice after its default, and uses the catalog's words of its values", () => {
    const hidden: FlagOption = {
      ...nightMode,
      key: 'quiet',
      applies: 'per-door',
      valueTitles: { true: 'Quiet', false: 'Loud' },
    };
    expect(layoutNode(formOf(withAfter('hide', hidden)), 'doors[].quiet')?.titleMap).toEqual([
      { name: 'Loud', value: null },
      { name: 'Quiet', value: true },
      { name: 'Loud', value: false },
    ]);
  });

  it('drops the nodes of an option the catalog no longer has, and the door node of one no longer set per door', () => {
    const removed = options.filter((option) => option.key !== 'leftOpenRepeat');
    const topOnly = removed.map((option) => (option.key === 'readOnly' ? { ...option, applies: 'platform' as const } : option));
    const keys = keysOf(formOf(topOnly));
    expect(keys).not.toContain('leftOpenRepeat');
    expect(keys).not.toContain('doors[].leftOpenRepeat');
    expect(keys).not.toContain('doors[].readOnly');
    expect(keys).toContain('readOnly');
    const gone = new Set(['leftOpenRepeat', 'doors[].leftOpenRepeat', 'doors[].readOnly']);
    expect(keys).toEqual(keysOf(readConfigForm()).filter((key) => key === undefined || !gone.has(key)));
  });

  it('gives a new top-level choice a select: the default named first, writing nothing, then the others, the default last', () => {
    const theme: ChoiceOption = {
      key: 'theme',
      kind: 'choice',
      applies: 'platform',
      label: 'Theme',
      help: 'The colours of the page.',
      values: ['auto', 'light', 'dark'],
      default: 'auto',
      valueTitles: { auto: 'Automatic', light: 'Light', dark: 'Dark' },
    };
    const form = formOf(withAfter('lowBatteryThreshold', theme));
    expect(layoutNode(form, 'theme')).toEqual({
      key: 'theme',
      type: 'select',
      titleMap: [
        { name: 'Automatic (the default)', value: null },
        { name: 'Light', value: 'light' },
        { name: 'Dark', value: 'dark' },
        { name: 'Automatic', value: 'auto' },
      ],
    });
    const keys = siblingsOf(form.layout, 'theme') ?? [];
    expect(keys[keys.indexOf('theme') - 1]).toBe('lowBatteryThreshold');
  });

  it('names the value a false default reads as (the automation switch) as the default, for all doors and per door', () => {
    const form = formOf(options);
    const names = (key: string) => layoutNode(form, key)?.titleMap?.map((choice) => [choice.name, choice.value]);
    expect(names('automationSwitch')).toEqual([
      ['Off (the default)', null],
      ['Open only', 'open'],
      ['Open and close', 'open-close'],
      ['Off', 'off'],
    ]);
    expect(names('doors[].automationSwitch')?.[0]).toEqual(['As for all doors', null]);
    expect(names('doors[].automationSwitch')?.at(-1)).toEqual(['Off', 'off']);
  });

  it("says a number's range and what empty means: its default, the catalog's words, or per door the setting above", () => {
    const lingerS: NumberOption = {
      key: 'linger',
      kind: 'number',
      applies: 'both',
      label: 'Linger',
      help: 'How long it lingers.',
      unit: 'seconds',
      min: 2,
      max: 9,
      default: 4,
    };
    const words: NumberOption = { ...lingerS, key: 'wait', applies: 'all-doors', default: undefined, empty: 'no wait' };
    const form = formOf(withAfter('accessAlertDuration', lingerS).concat(words));
    const message = (key: string) => (layoutNode(form, key)?.validationMessages as { minimum?: string } | undefined)?.minimum;
    expect(message('linger')).toBe('From 2 to 9 seconds; empty for 4 seconds.');
    expect(message('doors[].linger')).toBe('From 2 to 9 seconds; empty for the setting above.');
    expect(message('wait')).toBe('From 2 to 9 seconds; empty for no wait.');
    // Without a default or words, the generator cannot say what empty means: it says so rather than write a wrong message.
    expect(() => generateLayout([{ ...words, empty: undefined }], [])).toThrow(/wait: a number without a default needs empty/);
  });

  it('puts back a node edited or removed by hand where it stood or belongs, and drops one drawn twice', () => {
    const form = readConfigForm();
    /** The nodes with `key`'s replaced by `by` (or removed), in every list. */
    const edit = (nodes: LayoutNode[], key: string, by: LayoutNode[]): LayoutNode[] =>
      nodes.flatMap((node) =>
        keyOf(node) === key ? by : typeof node === 'object' && node.items ? [{ ...node, items: edit(node.items, key, by) }] : [node],
      );
    // The checkbox per door that overrides the value for all doors, as a hand edit would write it.
    form.layout = edit(form.layout, 'doors[].readOnly', ['doors[].readOnly']);
    form.layout = edit(form.layout, 'doors[].leftOpenAfter', []);
    form.layout = edit(form.layout, 'transitionTimeout', []);
    form.layout.push('pollInterval');
    expect(keysOf(form)).not.toContain('transitionTimeout');
    expect(generateSchema(options, `${JSON.stringify(form, null, 2)}\n`)).toBe(CONFIG_SCHEMA_TEXT);
  });
});

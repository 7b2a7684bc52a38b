// config.schema.json as the tests read it, and its walks, written once: its fields by dotted path, its layout's nodes
// depth first (and one by key), and every value of a key anywhere in the file.
import { readFileSync } from 'node:fs';
import type { FlagOption } from '../../src/option-catalog.js';

/** A field of the form's schema (the part the tests read of one). */
export type SchemaField = Record<string, unknown> & {
  title?: string;
  type?: string;
  description?: string;
  properties?: Record<string, SchemaField>;
  items?: SchemaField;
  oneOf?: { title: string; enum: unknown[] }[];
};

/** A node of the form's layout: a field's key alone, or a block with its key, its type, its choices and its own nodes. */
export type LayoutNode =
  string | (Record<string, unknown> & { key?: string; type?: string; items?: LayoutNode[]; titleMap?: { name: string; value: unknown }[] });

/** config.schema.json as a whole. */
export type ConfigForm = Record<string, unknown> & {
  pluginAlias: string;
  pluginType: string;
  schema: SchemaField & { properties: Record<string, SchemaField>; required: string[] };
  layout: LayoutNode[];
};

/** config.schema.json as on disk. */
export const CONFIG_SCHEMA_TEXT = readFileSync(new URL('../../config.schema.json', import.meta.url), 'utf8');

/** config.schema.json parsed, a fresh copy each call (a test may change its own). */
export function readConfigForm(text: string = CONFIG_SCHEMA_TEXT): ConfigForm {
  return JSON.parse(text) as ConfigForm;
}

/** The fields of a door entry (`doors[]`). */
export function doorFieldsOf(form: ConfigForm): Record<string, SchemaField> {
  return form.schema.properties.doors?.items?.properties ?? {};
}

/**
 * Every field under `fields` with its dotted path, depth first: a block's fields as `webhook.port`, a list's entry's
 * as `doors[].id`, and a list of plain values as `includeDoorIds[]`.
 */
export function fieldsOf(fields: Record<string, SchemaField>, prefix = ''): [string, SchemaField][] {
  return Object.entries(fields).flatMap(([key, field]): [string, SchemaField][] => [
    [prefix + key, field],
    ...fieldsOf(field.properties ?? {}, `${prefix}${key}.`),
    ...fieldsOf(field.items?.properties ?? {}, `${prefix}${key}[].`),
    ...(field.items && !field.items.properties ? ([[`${prefix}${key}[]`, field.items]] as [string, SchemaField][]) : []),
  ]);
}

/** Every layout node, depth first. */
export function layoutNodes(nodes: LayoutNode[]): LayoutNode[] {
  return nodes.flatMap((node) => [node, ...(typeof node === 'object' ? layoutNodes(node.items ?? []) : [])]);
}

/** The layout block drawing the field at `key` (a dotted path, `doors[].hide`), if the layout has one. */
export function layoutNode(form: ConfigForm, key: string): Exclude<LayoutNode, string> | undefined {
  return layoutNodes(form.layout).find((node): node is Exclude<LayoutNode, string> => typeof node === 'object' && node.key === key);
}

/** Every value of `key` anywhere in a JSON value (the schema, the layout, an if/then), values inside it included. */
export function valuesOfKey(node: unknown, key: string): unknown[] {
  if (Array.isArray(node)) return node.flatMap((item) => valuesOfKey(item, key));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node as Record<string, unknown>).flatMap(([name, value]) =>
    name === key ? [value, ...valuesOfKey(value, key)] : valuesOfKey(value, key),
  );
}

/** A per-door flag the catalog does not have, as a contributor would add one: the generators' tests add it to a copy of OPTIONS. */
export const NEW_DOOR_FLAG: FlagOption = {
  key: 'nightMode',
  kind: 'flag',
  applies: 'both',
  label: 'Night mode',
  help: 'Dims the door at night.',
  default: false,
};

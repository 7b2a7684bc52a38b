// config.schema.json's option fields and the layout's option nodes, and its header and footer, generated from the option
// catalog and package.json; the rest of the file (account, webhook block, filters, the layout's frame) is kept as written.
import { atTop, doorDescription, emptyMeaning, formDescription, perDoor, rangeSentence, titleOf } from '../../src/option-catalog.js';
import type { ChoiceOption, FlagOption, NumberOption, OptionSpec } from '../../src/option-catalog.js';
import { formFrame, PACKAGE_MANIFEST } from './form-frame.js';
import type { FormFrame } from './form-frame.js';

type Json = Record<string, unknown>;

/** The top-level fields that are no option, each with rules of its own (src/config/): kept as config.schema.json has them. */
export const NOT_OPTIONS: readonly string[] = [
  'accessToken',
  'baseUrl',
  'webhook',
  'doors',
  'includeDeviceIds',
  'excludeDeviceIds',
  'includeDoorIds',
  'excludeDoorIds',
  'people',
];
/** A door entry's fields that are no option: which door, and its name in Home. */
export const DOOR_NOT_OPTIONS: readonly string[] = ['id', 'name'];

const JSON_TYPE: Record<OptionSpec['kind'], string> = { flag: 'boolean', number: 'integer', choice: 'string', text: 'string' };

/** What a per-door field left empty means: the door takes the value for all doors. */
const AS_FOR_ALL_DOORS = 'as for all doors';

/** A flag's words for on and off when the catalog gives none. */
const FLAG_TITLES = { true: 'On', false: 'Off' } as const;

/** The words of one value of a flag or choice: the catalog's `valueTitles`, else a flag's On and Off, else the value. */
function valueTitle(option: OptionSpec, value: string | boolean): string {
  if (option.kind === 'flag') return (option.valueTitles ?? FLAG_TITLES)[`${value === true}`];
  return (option.kind === 'choice' ? option.valueTitles?.[String(value)] : undefined) ?? String(value);
}

/** The form's choices of an option, each value with its words (a flag's are true and false, offered per door as a select). */
function oneOf(option: OptionSpec): Json[] | undefined {
  if (option.kind === 'flag') return [true, false].map((value) => ({ title: valueTitle(option, value), enum: [value] }));
  if (option.kind === 'choice') return option.values.map((value) => ({ title: valueTitle(option, value), enum: [value] }));
  return undefined;
}

/**
 * Why the form writes no default but the text's: the Homebridge UI writes every default into config.json, which would pin
 * today's defaults in every user's file (issue 8 B); the description says what an empty field means instead. Numbers
 * get a minimum and no maximum, which the UI would draw as a slider that cannot be typed in; the description gives the
 * range and the parser enforces it. A choice's null first choice, "as for all doors" or "(the default)", is in the
 * layout's titleMap (layoutNode).
 */
function topField(option: OptionSpec): Json {
  const field: Json = { title: titleOf(option), type: JSON_TYPE[option.kind] };
  if (option.kind === 'text') Object.assign(field, { default: option.default, minLength: 1 });
  if (option.kind === 'number') {
    const placeholder = option.placeholder ?? (option.default === undefined ? undefined : String(option.default));
    Object.assign(field, { minimum: option.min }, placeholder === undefined ? {} : { placeholder });
  }
  if (option.kind === 'choice') field.oneOf = oneOf(option);
  field.description = formDescription(option);
  const { shownWith } = option;
  if (shownWith !== undefined) {
    field.condition = {
      functionBody: `return model.${shownWith} === true || (model.doors || []).some(function (d) { return d && d.${shownWith}; });`,
    };
  }
  return field;
}

/** A door entry's field: each choice offered by name, a number or text left empty for the value for all doors. */
function doorField(option: OptionSpec): Json {
  const field: Json = { title: titleOf(option), type: JSON_TYPE[option.kind] };
  if (option.kind === 'flag' || option.kind === 'choice') {
    const description = doorDescription(option);
    return { ...field, oneOf: oneOf(option), ...(description === undefined ? {} : { description }) };
  }
  if (option.kind === 'text') return { ...field, minLength: 1, placeholder: AS_FOR_ALL_DOORS };
  return {
    ...field,
    minimum: option.min,
    placeholder: AS_FOR_ALL_DOORS,
    description: `${option.min} to ${option.max} ${option.unit}${zeroMeaning(option)}. Empty: ${AS_FOR_ALL_DOORS}.`,
  };
}

/** What a number's default means when the catalog says it in words ("; 0: once per opening"): a door may set it too. */
function zeroMeaning(option: NumberOption): string {
  return option.default === undefined || option.empty === undefined ? '' : `; ${option.default}: ${option.empty}`;
}

/**
 * The fields of one level (the top level or a door entry): the catalog's in catalog order, each where it stood, a new one
 * after the catalog option before it; the listed other fields kept as they are; any other field, an option the catalog
 * no longer offers there, dropped.
 */
function merge(current: Json, generated: [string, Json][], others: readonly string[]): Json {
  const keys = generated.map(([key]) => key);
  const existing = Object.keys(current);
  const lastPresent = existing.findLastIndex((key) => keys.includes(key));
  const out: [string, unknown][] = [];
  let next = 0;
  const emitThrough = (index: number): void => {
    for (; next <= index; next++) out.push(...generated.slice(next, next + 1));
  };
  existing.forEach((key, position) => {
    const index = keys.indexOf(key);
    if (index >= 0) emitThrough(index);
    else if (others.includes(key)) out.push([key, current[key]]);
    if (position === lastPresent) emitThrough(keys.length - 1);
  });
  emitThrough(keys.length - 1);
  return Object.fromEntries(out);
}

/** A node of the form's layout: a field's key alone, or a block with its key, its kind and its own nodes. */
type LayoutNode = string | (Json & { key?: string; items?: LayoutNode[] });

/** How the layout names a door entry's field: `doors[].<key>`. */
const DOOR_PATH = 'doors[].';
/** The layout node whose items draw a door entry's fields. */
const DOORS_NODE = 'doors';
/** The name of a per-door select's null first choice: the door takes the value for all doors. */
const AS_FOR_ALL_DOORS_CHOICE = 'As for all doors';
/** After the default's title in a top-level select's null first choice, which writes nothing. */
const THE_DEFAULT = ' (the default)';
/** What a per-door number left empty means, in its message: the field for all doors, drawn above the door list. */
const DOOR_EMPTY = 'the setting above';

/** The value a choice takes when left out: its default, or the value its `false` default reads as. */
function defaultValue(option: FlagOption | ChoiceOption): string | boolean {
  if (option.kind === 'flag' || option.default !== false) return option.default;
  if (option.booleans === undefined) throw new Error(`${option.key}: a choice whose default is false needs booleans`);
  return option.booleans.false;
}

/**
 * A select's choices: the null one first, which writes nothing (the form drops nulls), so a plain save never pins a
 * default in config.json; then the values in catalog order, the default last, one rule for every select.
 */
function titleMap(option: FlagOption | ChoiceOption, first: string): Json[] {
  const values: readonly (string | boolean)[] = option.kind === 'flag' ? [true, false] : option.values;
  const fallback = defaultValue(option);
  const ordered = [...values.filter((value) => value !== fallback), fallback];
  return [{ name: first, value: null }, ...ordered.map((value) => ({ name: valueTitle(option, value), value }))];
}

/**
 * An option's layout node at the top level or in a door entry. A flag for all doors stays a checkbox (unticked writes
 * false, its default); a flag per door is a select, since a checkbox there would save false and override the value for
 * all doors.
 */
function layoutNode(option: OptionSpec, door: boolean): LayoutNode {
  const key = door ? `${DOOR_PATH}${option.key}` : option.key;
  switch (option.kind) {
    case 'text':
      return key;
    case 'number':
      // In place of the UI's message, which names the rule: the whole range (the schema has no maximum, which would draw
      // a slider) and what an empty field means.
      return { key, validationMessages: { minimum: rangeSentence(option, door && atTop(option) ? DOOR_EMPTY : emptyMeaning(option)) } };
    case 'flag':
    case 'choice': {
      // A flag on by default is a select for all doors too: the UI's unticked checkbox would save false.
      if (!door && option.kind === 'flag' && !option.default) return key;
      const defaultTitle = valueTitle(option, defaultValue(option));
      // A door's own option without one for all doors (hide) is left at its default, named as such.
      const first = !door ? `${defaultTitle}${THE_DEFAULT}` : atTop(option) ? AS_FOR_ALL_DOORS_CHOICE : defaultTitle;
      return { key, type: 'select', titleMap: titleMap(option, first) };
    }
  }
}

const keyOf = (node: LayoutNode): string | undefined => (typeof node === 'string' ? node : node.key);

/** Whether a layout key draws an option's field (a top-level or a door entry's field that is listed as none is not). */
function isOptionPath(key: string): boolean {
  const door = key.startsWith(DOOR_PATH);
  const name = door ? key.slice(DOOR_PATH.length) : key;
  return /^\w+$/.test(name) && !(door ? DOOR_NOT_OPTIONS : NOT_OPTIONS).includes(name);
}

/** The list holding the node of `key`, and its place there, depth first. */
function locate(nodes: LayoutNode[], key: string): [LayoutNode[], number] | undefined {
  for (const [index, node] of nodes.entries()) {
    if (keyOf(node) === key) return [nodes, index];
    const inside = typeof node === 'object' && Array.isArray(node.items) ? locate(node.items, key) : undefined;
    if (inside) return inside;
  }
  return undefined;
}

/**
 * The layout with each option's node generated in place; an option missing from it inserted right after the node of
 * the catalog option before it at its level (else before the one after it, else at the end of the layout or of the door
 * list's items); a node of an option the catalog no longer has at that level dropped. Everything else is kept as written.
 */
export function generateLayout(options: readonly OptionSpec[], layout: readonly LayoutNode[]): LayoutNode[] {
  const levels = [
    options.filter(atTop).map((option): [string, LayoutNode] => [option.key, layoutNode(option, false)]),
    options.filter(perDoor).map((option): [string, LayoutNode] => [`${DOOR_PATH}${option.key}`, layoutNode(option, true)]),
  ];
  const generated = new Map(levels.flat());
  const placed = new Set<string>();
  const walk = (nodes: readonly LayoutNode[]): LayoutNode[] =>
    nodes.flatMap((node): LayoutNode[] => {
      const key = keyOf(node);
      if (key !== undefined && isOptionPath(key)) {
        const fresh = generated.get(key);
        // Gone from the catalog at this level, or drawn twice: the form draws each field once.
        if (fresh === undefined || placed.has(key)) return [];
        placed.add(key);
        return [fresh];
      }
      return typeof node === 'object' && Array.isArray(node.items) ? [{ ...node, items: walk(node.items) }] : [node];
    });
  const out = walk(layout);
  for (const [level, entries] of levels.entries()) {
    const keys = entries.map(([key]) => key);
    for (const [index, [key, node]] of entries.entries()) {
      if (placed.has(key)) continue;
      const before = keys.slice(0, index).findLast((other) => placed.has(other));
      const after = keys.slice(index + 1).find((other) => placed.has(other));
      const anchor = locate(out, before ?? after ?? '');
      if (anchor) anchor[0].splice(anchor[1] + (before === undefined ? 0 : 1), 0, node);
      else if (level === 0) out.push(node);
      else doorItems(out).push(node);
      placed.add(key);
    }
  }
  return out;
}

/** The items of the layout's door list node, where a door entry's fields are drawn. */
function doorItems(layout: LayoutNode[]): LayoutNode[] {
  const found = locate(layout, DOORS_NODE);
  const node = found?.[0][found[1]];
  if (typeof node !== 'object' || !Array.isArray(node.items)) throw new Error(`the layout has no "${DOORS_NODE}" node with items`);
  return node.items;
}

/** The whole config.schema.json text, its option fields and layout nodes generated from `options`, written as the file is. */
export function generateSchema(
  options: readonly OptionSpec[],
  currentJson: string,
  frame: FormFrame = formFrame(PACKAGE_MANIFEST),
): string {
  const form = JSON.parse(currentJson) as Json & { schema: Json & { properties: Json } };
  form.headerDisplay = frame.headerDisplay;
  form.footerDisplay = frame.footerDisplay;
  const doors = form.schema.properties.doors as Json & { items: Json & { properties: Json } };
  doors.items.properties = merge(
    doors.items.properties,
    options.filter(perDoor).map((option) => [option.key, doorField(option)]),
    DOOR_NOT_OPTIONS,
  );
  form.schema.properties = merge(
    form.schema.properties,
    options.filter(atTop).map((option) => [option.key, topField(option)]),
    NOT_OPTIONS,
  );
  if (Array.isArray(form.layout)) form.layout = generateLayout(options, form.layout as LayoutNode[]);
  return `${JSON.stringify(form, null, 2)}\n`;
}

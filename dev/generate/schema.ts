// config.schema.json's option fields, and its header and footer, generated from the option catalog and package.json; the
// rest of the file (account, webhook block, filters, layout) is kept as written, in its place.
import type { OptionSpec } from '../../src/option-catalog.js';
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
 * range and the parser enforces it. A choice's null first choice, "as for all doors" or "(the default)", is the
 * layout's titleMap, kept as written.
 */
function topField(option: OptionSpec): Json {
  const field: Json = { title: option.title, type: JSON_TYPE[option.kind] };
  if (option.kind === 'text') Object.assign(field, { default: option.default, minLength: 1 });
  if (option.kind === 'number') {
    const placeholder = option.form?.placeholder ?? (option.default === undefined ? undefined : String(option.default));
    Object.assign(field, { minimum: option.min }, placeholder === undefined ? {} : { placeholder });
  }
  if (option.kind === 'choice') field.oneOf = oneOf(option);
  field.description = option.form?.description ?? plainDescription(option);
  const shownWith = option.form?.shownWith;
  if (shownWith !== undefined) {
    field.condition = {
      functionBody: `return model.${shownWith} === true || (model.doors || []).some(function (d) { return d && d.${shownWith}; });`,
    };
  }
  return field;
}

/** A door entry's field: each choice offered by name, a number or text left empty for the value for all doors. */
function doorField(option: OptionSpec): Json {
  const field: Json = { title: option.doorTitle ?? option.title, type: JSON_TYPE[option.kind] };
  if (option.kind === 'flag' || option.kind === 'choice') return { ...field, oneOf: oneOf(option) };
  if (option.kind === 'text') return { ...field, minLength: 1, placeholder: AS_FOR_ALL_DOORS };
  return {
    ...field,
    minimum: option.min,
    placeholder: AS_FOR_ALL_DOORS,
    description: option.form?.doorDescription ?? `${option.min} to ${option.max} ${option.unit}. Empty: ${AS_FOR_ALL_DOORS}.`,
  };
}

/** The least a description says when no words are written for it: the range, and what empty means. */
function plainDescription(option: OptionSpec): string {
  switch (option.kind) {
    case 'flag':
      return 'Off by default.';
    case 'number':
      return `${option.min} to ${option.max} ${option.unit}${option.default === undefined ? '' : `, ${option.default} when empty`}.`;
    case 'choice':
      return `${valueTitle(option, option.default)} by default.`;
    case 'text':
      return `"${option.default}" when empty.`;
  }
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

/** The whole config.schema.json text with its option fields generated from `options`, written as the file is: two spaces. */
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
    options.filter((option) => option.perDoor).map((option) => [option.key, doorField(option)]),
    DOOR_NOT_OPTIONS,
  );
  form.schema.properties = merge(
    form.schema.properties,
    options.filter((option) => option.global).map((option) => [option.key, topField(option)]),
    NOT_OPTIONS,
  );
  return `${JSON.stringify(form, null, 2)}\n`;
}

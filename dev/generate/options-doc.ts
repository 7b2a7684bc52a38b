// docs/options.md generated from the option catalog and config.schema.json: every setting of the platform block, so the
// reference can never say what the parser does not do.
import { atTop, choiceProblem, fallbackSentence, perDoor, titleOf } from '../../src/option-catalog.js';
import type { OptionSpec } from '../../src/option-catalog.js';

interface Field {
  title?: string;
  type?: string;
  description?: string;
  placeholder?: string;
  properties?: Record<string, Field>;
  items?: Field & { required?: string[] };
  required?: string[];
}

/** Markdown that stays text: `<door>` is no HTML tag, and a table cell's `|` no column. */
const md = (text: string): string => text.replaceAll('<', '&lt;').replaceAll('|', '\\|');
const code = (value: unknown): string => `\`${JSON.stringify(value)}\``;

function kindOf(option: OptionSpec): string {
  switch (option.kind) {
    case 'flag':
      return 'on or off (`true` or `false`)';
    case 'number':
      return `whole number of ${option.unit}`;
    case 'choice':
      return option.booleans
        ? `one of ${option.values.length} values (also \`true\`, read as ${code(option.booleans.true)}, and \`false\`, read as ${code(option.booleans.false)}, as older configs say)`
        : `one of ${option.values.length} values`;
    case 'text':
      return 'text';
  }
}

function defaultOf(option: OptionSpec): string {
  if (option.kind === 'flag') return option.default ? 'on (`true`)' : 'off (`false`)';
  // A number without a default of its own says what empty means ("the controller's own open-door alert time …").
  if (option.kind === 'number') return option.default === undefined ? (option.empty ?? 'none') : `${option.default} ${option.unit}`;
  if (option.kind === 'choice' && option.default === false) return `\`false\` (${code(option.booleans?.false)})`;
  return code(option.default);
}

function rangeOf(option: OptionSpec): string {
  if (option.kind === 'number') return `${option.min} to ${option.max} ${option.unit}`;
  if (option.kind !== 'choice') return '';
  const titles = option.valueTitles;
  return option.values.map((value) => `${code(value)}${titles?.[value] ? `: ${titles[value]}` : ''}`).join('; ');
}

function scopeOf(option: OptionSpec): string {
  if (option.applies === 'both') return "for all doors and per door, where a door's own value wins";
  return atTop(option) ? 'top level' : 'per door only';
}

/** What happens to a top-level value the parser cannot read: the catalog's sentence, after the choices' words. */
function badValueOf(option: OptionSpec): string {
  // The catalog's sentence is the top level's; a door entry's own rules are said once, in the introduction.
  if (!atTop(option)) return 'in a door entry, as said at the top of this page';
  const sentence = fallbackSentence(option);
  return option.kind === 'choice' ? `it ${choiceProblem(option)}; ${sentence}` : sentence;
}

function optionSection(option: OptionSpec, description: string | undefined): string {
  const lines = [
    `### \`${option.key}\`: ${md(titleOf(option))}`,
    '',
    ...(description ? [md(description), ''] : []),
    `- Kind: ${kindOf(option)}`,
    `- Default: ${defaultOf(option)}`,
    ...(option.kind === 'number' ? [`- Range: ${rangeOf(option)}`] : []),
    ...(option.kind === 'choice' ? [`- Values: ${rangeOf(option)}`] : []),
    `- Where: ${scopeOf(option)}`,
    `- A value that cannot be read: ${md(badValueOf(option))}.`,
  ];
  return lines.join('\n');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'whole number',
  boolean: 'on or off',
  object: 'block of settings',
  array: 'list',
};

/** The fields that are no option, by dotted path: the account, the webhook block, the door list and its ids, the filters. */
function otherFields(fields: Record<string, Field>, required: string[], isOption: (path: string) => boolean, prefix = ''): string[] {
  return Object.entries(fields).flatMap(([key, field]) => {
    const path = `${prefix}${key}`;
    if (isOption(path)) return [];
    const type =
      field.type === 'array' ? (field.items?.type === 'object' ? 'list of entries' : 'list of text') : TYPE_WORDS[field.type ?? ''];
    // A field without a description says with its placeholder what an empty one means.
    const description = field.description ?? (field.placeholder === undefined ? '' : `Empty: ${field.placeholder}.`);
    const row = `| \`${path}\`${required.includes(key) ? ' (required)' : ''} | ${md(field.title ?? '')} | ${type ?? ''} | ${md(description)} |`;
    const inside = field.properties
      ? otherFields(field.properties, field.required ?? [], isOption, `${path}.`)
      : field.items?.properties
        ? otherFields(field.items.properties, field.items.required ?? [], isOption, `${path}[].`)
        : [];
    return [row, ...inside];
  });
}

/** docs/options.md from the options and the (generated) config.schema.json text. */
export function generateOptionsDoc(options: readonly OptionSpec[], schemaJson: string): string {
  const form = JSON.parse(schemaJson) as { schema: Field & { properties: Record<string, Field> } };
  const top = form.schema.properties;
  const doorFields = top.doors?.items?.properties ?? {};
  // The form's description where the option has one: what it does, and what an empty field means.
  const described = (option: OptionSpec): string | undefined => (atTop(option) ? top[option.key] : doorFields[option.key])?.description;
  const summary = options.map(
    (option) =>
      `| \`${option.key}\` | ${md(titleOf(option))} | ${option.kind} | ${defaultOf(option)} | ${md(rangeOf(option))} | ${scopeOf(option)} |`,
  );
  const topKeys = new Set(options.filter(atTop).map((option) => option.key));
  const doorKeys = new Set(options.filter(perDoor).map((option) => `doors[].${option.key}`));
  const others = otherFields(top, form.schema.required ?? [], (path) => topKeys.has(path) || doorKeys.has(path));
  return [
    '# Options',
    '',
    '> Generated by `npm run generate` from `src/option-catalog.ts` (and the other fields of `config.schema.json`): do not edit it by hand.',
    '',
    "Every setting of the plugin's platform block in Homebridge's `config.json`. An option for all doors is set at the top",
    "level; an option per door in an entry of `doors`, found by the door id, where the door's own value wins over the one for",
    'all doors. [configuration.md](configuration.md) explains them with examples, and what the plugin does with a key or',
    'value it cannot read.',
    '',
    'A value that cannot be read never stops the plugin: it is left out with one log line that says what is used instead',
    '(below, "A value that cannot be read", for the top level). In a door entry, a setting that cannot be read is left out',
    'for that door, which then takes the value for all doors, except where that would open more than was meant: the log',
    'line says what holds instead (a `readOnly` or `hide` that cannot be read keeps the door read-only until it is fixed).',
    '',
    '## The options at a glance',
    '',
    '| Key | Title | Kind | Default | Range or values | Where |',
    '|---|---|---|---|---|---|',
    ...summary,
    '',
    '## Each option',
    '',
    options.map((option) => optionSection(option, described(option))).join('\n\n'),
    '',
    '## The other settings',
    '',
    'The account, the webhook listener, the door list and the filters: each has rules of its own (`src/config/`), not the',
    "catalog's, and is described as `config.schema.json` describes it.",
    '',
    '| Key | Title | Type | Description |',
    '|---|---|---|---|',
    ...others,
    '',
  ].join('\n');
}

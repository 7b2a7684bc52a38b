// `npm run generate`: rewrites config.schema.json's option fields and layout nodes, docs/options.md and the door's extras'
// table (src/door/extras/index.ts) from the option catalog.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { OPTIONS } from '../../src/option-catalog.js';
import type { OptionSpec } from '../../src/option-catalog.js';
import { extraFileOf, generateExtrasTable } from './extras-table.js';
import { generateOptionsDoc } from './options-doc.js';
import { generateSchema } from './schema.js';

// Two folders down from the repository both as source (dev/generate/) and as built (dist-dev/generate/).
const root = new URL('../../', import.meta.url);

/** Writes a file only when its text changes, and says which, so a run with nothing to do touches nothing. */
function update(path: string, text: string): void {
  const file = new URL(path, root);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) {
    console.log(`${path}: up to date`);
    return;
  }
  writeFileSync(file, text);
  console.log(`${path}: rewritten`);
}

const before = readFileSync(new URL('config.schema.json', root), 'utf8');
const schema = generateSchema(OPTIONS, before);
// A field by hand that is neither an option nor listed as none is dropped: say so, as a removed option is dropped alike.
const fieldsOf = (text: string): string[] => {
  const { properties } = (JSON.parse(text) as { schema: { properties: Record<string, { items?: { properties?: object } }> } }).schema;
  return [...Object.keys(properties), ...Object.keys(properties.doors?.items?.properties ?? {}).map((key) => `doors[].${key}`)];
};
const kept = new Set(fieldsOf(schema));
for (const field of fieldsOf(before).filter((path) => !kept.has(path))) {
  console.log(`config.schema.json: dropped ${field}, no option of the catalog there (if it is none, list it in dev/generate/schema.ts)`);
}
// Likewise a layout node: an option node the catalog no longer has there, or one drawn twice.
const layoutKeys = (text: string): string[] => {
  const keys = (nodes: unknown[]): string[] =>
    nodes.flatMap((node) => {
      if (typeof node === 'string') return [node];
      const { key, items } = node as { key?: unknown; items?: unknown };
      return [...(typeof key === 'string' ? [key] : []), ...(Array.isArray(items) ? keys(items as unknown[]) : [])];
    });
  return keys((JSON.parse(text) as { layout?: unknown[] }).layout ?? []);
};
const timesEach = (keys: string[]): Map<string, number> => {
  const times = new Map<string, number>();
  for (const key of keys) times.set(key, (times.get(key) ?? 0) + 1);
  return times;
};
const laidOut = timesEach(layoutKeys(schema));
for (const [key, times] of timesEach(layoutKeys(before))) {
  if (times > (laidOut.get(key) ?? 0)) {
    console.log(`config.schema.json: dropped the layout node of ${key}: no option of the catalog there, or drawn twice`);
  }
}
update('config.schema.json', schema);
update('docs/options.md', generateOptionsDoc(OPTIONS, schema));
update('src/door/extras/index.ts', generateExtrasTable(OPTIONS));
for (const option of (OPTIONS as readonly OptionSpec[]).filter((entry) => entry.extra === true)) {
  const file = `src/door/extras/${extraFileOf(option.key)}.ts`;
  if (!existsSync(new URL(file, root))) {
    console.log(`${file}: missing; write it, exporting the row \`${option.key}\` (see CONTRIBUTING.md, "Add an option")`);
  }
}

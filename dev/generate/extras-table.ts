// src/door/extras/index.ts, the door's extras' table, generated from the option catalog: one row per option marked
// `extra`, imported from its own file named after its key (contactSensor: contact-sensor.ts), so a new extra is its
// catalog entry and its file, and the compiler asks for the file.
import type { OptionSpec } from '../../src/option-catalog.js';

/** An option key's file in src/door/extras/, without `.ts`: automationSwitch is automation-switch. */
export function extraFileOf(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The text of src/door/extras/index.ts, as prettier writes it: imports sorted by file, rows in the catalog's order. */
export function generateExtrasTable(options: readonly OptionSpec[]): string {
  const keys = options.filter((option) => option.extra === true).map((option) => option.key);
  const imports = [
    ...keys.map((key) => ({ file: extraFileOf(key), line: `import { ${key} } from './${extraFileOf(key)}.js';` })),
    { file: 'extra', line: "import type { ExtraTable } from './extra.js';" },
  ].sort((a, b) => a.file.localeCompare(b.file));
  return [
    "// The door's extras, one row per option the catalog marks `extra` (src/option-catalog.ts), in the catalog's order.",
    '// Written by `npm run generate` (dev/generate/extras-table.ts): a catalog extra without its file here does not compile.',
    ...imports.map(({ line }) => line),
    '',
    'export const EXTRAS: ExtraTable = {',
    ...keys.map((key) => `  ${key},`),
    '};',
    '',
  ].join('\n');
}

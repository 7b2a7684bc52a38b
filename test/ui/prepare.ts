// Prepares the ui project's install (ui-env.ts: pack, then the Homebridge UI, Homebridge and the plugin in .cache) while
// the fast projects run (test/run-all.sh), and writes what it prepared to the file named: the project's global setup
// reads it (preparedUiEnv) instead of installing again once its tests may start. Run as one esbuild bundle, as
// test/matter/prepare.ts is.
import { writeFile } from 'node:fs/promises';

import { prepareUiEnv } from './ui-env.js';

const [file] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: node prepare.mjs <file for the prepared ui env>');
await writeFile(file, JSON.stringify(await prepareUiEnv()));

// Vitest globalSetup of the matter project: checks what test/matter/run.sh prepared outside the network namespace (Node 22+,
// Homebridge 2.4 in .cache, the built plugin), since nothing can be installed from inside it, and points the harness at it.
import { existsSync } from 'node:fs';
import path from 'node:path';

import { HOMEBRIDGE_2_PREFIX, HOMEBRIDGE_2_VERSION, REPO_ROOT } from '../../dev/harness/homebridge-process.js';
import { installedVersion } from '../support/npm-prefix.js';

/** Homebridge 2.4 runs on Node 22, 24 and 26. */
const MIN_NODE_MAJOR = 22;
const HOW_TO_RUN = 'Run the Matter tests with `npm run test:matter` (test/matter/run.sh), which prepares all of it.';

export default async function setup(): Promise<void> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < MIN_NODE_MAJOR) {
    throw new Error(
      `[matter] Node ${process.version} runs these tests; Homebridge ${HOMEBRIDGE_2_VERSION} needs Node ${MIN_NODE_MAJOR} or later. ${HOW_TO_RUN}`,
    );
  }
  const prefix = process.env.HB_PREFIX || HOMEBRIDGE_2_PREFIX;
  const found = await installedVersion(prefix, 'homebridge');
  if (!found?.startsWith('2.')) {
    throw new Error(`[matter] ${prefix} holds no Homebridge 2.x (found ${found ?? 'nothing'}). ${HOW_TO_RUN}`);
  }
  // The test workers start after this and inherit the environment.
  process.env.HB_PREFIX = prefix;
  if (!existsSync(path.join(REPO_ROOT, 'dist', 'index.js'))) {
    throw new Error(`[matter] dist/index.js is missing: the plugin is not built. ${HOW_TO_RUN}`);
  }
  console.log(`[matter] Homebridge ${found} in ${prefix}, Node ${process.version}`);
}

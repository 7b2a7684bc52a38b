// Vitest globalSetup of the e2e project: builds the plugin once (npm run build → dist/) so Homebridge can load it, and with
// E2E_HOMEBRIDGE=<version> installs that Homebridge into .cache/homebridge-<version> and points the harness at it (HB_PREFIX).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { installHomebridgePrefix } from '../support/npm-prefix.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** tsc on two busy cores takes well under a minute; fail loudly rather than hang. */
const BUILD_TIMEOUT_MS = 180_000;

export default async function setup(): Promise<void> {
  const version = process.env.E2E_HOMEBRIDGE;
  if (version !== undefined && version !== '') {
    const started = Date.now();
    // The test workers start after this and inherit the environment.
    process.env.HB_PREFIX = await installHomebridgePrefix(version);
    console.log(`[e2e] Homebridge ${version} in ${process.env.HB_PREFIX} (${Date.now() - started} ms), Node ${process.version}`);
  }
  build();
}

function build(): void {
  if (process.env.E2E_SKIP_BUILD === '1') {
    console.warn('[e2e] E2E_SKIP_BUILD=1: using dist/ as it is');
    return;
  }
  if (!existsSync(path.join(REPO_ROOT, 'src', 'index.ts'))) {
    console.warn('[e2e] src/index.ts does not exist yet: skipping the plugin build');
    return;
  }
  const started = Date.now();
  const result = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS });
  if (result.status !== 0) {
    const reason = result.error ? result.error.message : `exit ${String(result.status ?? result.signal)}`;
    throw new Error(`[e2e] npm run build failed (${reason}):\n${result.stdout}${result.stderr}`);
  }
  console.log(`[e2e] plugin built in ${Date.now() - started} ms`);
}

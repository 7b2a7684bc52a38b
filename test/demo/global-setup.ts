// Vitest globalSetup of the demo project: builds the plugin (dist/, unless E2E_SKIP_BUILD=1 says `npm test` built it) and
// bundles the demo (dev/demo/demo.ts and what it imports) into one file with esbuild, in about a second, as `npm run demo`
// does (into a folder of its own, so a developer's demo running meanwhile keeps its file); `npm run typecheck` checks dev/.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { build } from 'esbuild';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the test runs the demo from: inside the repository, so the harness finds it (REPO_ROOT) and its node_modules. */
export const DEMO_BUNDLE = path.join(REPO_ROOT, 'dist-dev', 'demo-test', 'demo.js');
/** esbuild takes seconds: fail loudly rather than hang. */
const BUILD_TIMEOUT_MS = 180_000;

export default async function setup(): Promise<void> {
  if (process.env.E2E_SKIP_BUILD !== '1') {
    const result = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS });
    if (result.status !== 0) {
      const reason = result.error ? result.error.message : `exit ${String(result.status ?? result.signal)}`;
      throw new Error(`[demo] npm run build failed (${reason}):\n${result.stdout}${result.stderr}`);
    }
  }
  const started = Date.now();
  await build({
    entryPoints: [path.join(REPO_ROOT, 'dev', 'demo', 'demo.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Homebridge, undici and the rest load from node_modules, as in `npm run demo`.
    packages: 'external',
    outfile: DEMO_BUNDLE,
    logLevel: 'warning',
  });
  console.log(`[demo] dev/demo/demo.ts bundled in ${Date.now() - started} ms`);
}

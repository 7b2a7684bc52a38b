// Vitest globalSetup of the demo project: builds the plugin (dist/, unless E2E_SKIP_BUILD=1 says `npm test` built it) and
// the dev tools (dist-dev/, which holds the demo), as `npm run demo` does before it runs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** esbuild takes seconds, tsc on two busy cores well under a minute: fail loudly rather than hang. */
const BUILD_TIMEOUT_MS = 180_000;

function npmRun(script: string): void {
  const started = Date.now();
  const result = spawnSync('npm', ['run', script], { cwd: REPO_ROOT, encoding: 'utf8', timeout: BUILD_TIMEOUT_MS });
  if (result.status !== 0) {
    const reason = result.error ? result.error.message : `exit ${String(result.status ?? result.signal)}`;
    throw new Error(`[demo] npm run ${script} failed (${reason}):\n${result.stdout}${result.stderr}`);
  }
  console.log(`[demo] npm run ${script} in ${Date.now() - started} ms`);
}

export default function setup(): void {
  if (process.env.E2E_SKIP_BUILD !== '1') npmRun('build');
  npmRun('build:dev');
}

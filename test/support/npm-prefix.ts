// npm prefixes the tests install into (the Homebridge UI env, Homebridge 2.x for the e2e matrix, the package test), the
// Node binaries of the matrix, and the one override the current Homebridge 2.x needs here.
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { HOMEBRIDGE_2_VERSION, REPO_ROOT } from '../../dev/harness/homebridge-process.js';
import { isAlive, tailLines } from '../ui/ui-util.js';

/** The current Homebridge 2.x (the e2e matrix, the UI tests, the package test and the bench run it): one version, set in the harness. */
export { HOMEBRIDGE_2_VERSION };

/** Repository root: where `npm run build` and `npm pack` run; found by its package.json, so the demo's build (dist-dev/) installs here too. */
export { REPO_ROOT };
/** Installs reused between runs (gitignored). */
export const CACHE_DIR = path.join(REPO_ROOT, '.cache');

/**
 * Test installs only, never the plugin's package.json: Homebridge 2.4.0 pins @homebridge/hap-nodejs 2.2.2, which the
 * registry these tests install from lacks; 2.2.3 is its patch release and runs Homebridge 2.4.0 unchanged. A user's
 * `npm install -g homebridge` gets 2.2.2 from the public registry and needs nothing of the kind.
 */
export const HOMEBRIDGE_2_OVERRIDES: Readonly<Record<string, string>> = { '@homebridge/hap-nodejs': '2.2.3' };

/** A cold install of Homebridge alone takes ~10 s, the UI with it ~30 s (empty npm cache); warm ones ~1 s. */
export const INSTALL_TIMEOUT_MS = 300_000;
/** First `npx -y node@N` downloads a ~30 MB package; later calls take a few seconds. */
const NODE_RESOLVE_TIMEOUT_MS = 180_000;
/** How long to wait for another run's install of the same prefix before giving up. */
const INSTALL_LOCK_WAIT_MS = INSTALL_TIMEOUT_MS + 60_000;
/** How often a waiting run checks the install lock. */
const INSTALL_LOCK_POLL_MS = 500;

export interface RunResult {
  code: number | null;
  output: string;
}

/** Runs a command to completion, collecting stdout and stderr together; rejects only on spawn errors and time-outs. */
export function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${timeoutMs} ms (in ${cwd}). Output:\n${tailLines(output)}`));
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command}: ${err.message}`));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export async function runOrThrow(what: string, command: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const result = await run(command, args, cwd, timeoutMs);
  if (result.code !== 0) {
    throw new Error(`${what} failed (${command} ${args.join(' ')}, exit ${String(result.code)}):\n${tailLines(result.output)}`);
  }
  return result.output;
}

/** The Node binary that `npx -y node@<major>` runs (it ships inside the registry package). */
export async function resolveNode(major: number): Promise<{ nodePath: string; nodeVersion: string }> {
  const output = await runOrThrow(
    `Finding Node ${major}`,
    'npx',
    ['-y', `node@${major}`, '-e', 'console.log(JSON.stringify([process.execPath, process.version]))'],
    REPO_ROOT,
    NODE_RESOLVE_TIMEOUT_MS,
  );
  const line = output.split('\n').find((l) => l.startsWith('["'));
  const parsed: unknown = line === undefined ? undefined : JSON.parse(line);
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') {
    throw new Error(`npx -y node@${major} printed no path:\n${tailLines(output)}`);
  }
  return { nodePath: parsed[0], nodeVersion: parsed[1] };
}

/** Takes `<prefix>.lock` (a directory: mkdir is atomic), waiting for another run's install; steals it from a dead owner. */
export async function withInstallLock<T>(prefix: string, work: () => Promise<T>): Promise<T> {
  const lockDir = `${prefix}.lock`;
  const ownerFile = path.join(lockDir, 'pid');
  const deadline = performance.now() + INSTALL_LOCK_WAIT_MS;
  await mkdir(path.dirname(prefix), { recursive: true });
  for (;;) {
    try {
      await mkdir(lockDir);
      await writeFile(ownerFile, String(process.pid));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number(await readFile(ownerFile, 'utf8').catch(() => ''));
      if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
        await rm(lockDir, { recursive: true, force: true });
        continue;
      }
      if (performance.now() > deadline) {
        throw new Error(`${lockDir} is still held by pid ${owner || '?'} after ${INSTALL_LOCK_WAIT_MS} ms`);
      }
      await new Promise((resolve) => setTimeout(resolve, INSTALL_LOCK_POLL_MS));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockDir, { recursive: true, force: true });
  }
}

interface InstalledManifest {
  version?: unknown;
}

/** The version of `name` installed in `<prefix>/node_modules`, or undefined. */
export async function installedVersion(prefix: string, name: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(path.join(prefix, 'node_modules', name, 'package.json'), 'utf8')) as InstalledManifest;
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

export interface PrefixManifest {
  /** What the prefix is for, written into its package.json. */
  description: string;
  dependencies: Record<string, string>;
  overrides?: Readonly<Record<string, string>>;
}

/** Writes `<prefix>/package.json` and runs `npm install` there (not ci: see ui-env.ts); returns the milliseconds it took. */
export async function npmInstallPrefix(prefix: string, manifest: PrefixManifest): Promise<number> {
  await mkdir(prefix, { recursive: true });
  const json = { name: `test-prefix-${path.basename(prefix)}`.toLowerCase().replace(/[^a-z0-9-]/g, '-'), private: true, ...manifest };
  await writeFile(path.join(prefix, 'package.json'), `${JSON.stringify(json, null, 2)}\n`);
  const t0 = performance.now();
  await runOrThrow(
    `Installing ${Object.entries(manifest.dependencies)
      .map(([n, v]) => `${n}@${v}`)
      .join(', ')} into ${prefix}`,
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    prefix,
    INSTALL_TIMEOUT_MS,
  );
  return Math.round(performance.now() - t0);
}

/** Homebridge `version` alone in `<.cache>/homebridge-<version>` (reused when already there); returns the prefix. */
export async function installHomebridgePrefix(version = HOMEBRIDGE_2_VERSION): Promise<string> {
  const prefix = path.join(CACHE_DIR, `homebridge-${version}`);
  await withInstallLock(prefix, async () => {
    if ((await installedVersion(prefix, 'homebridge')) === version) return;
    await npmInstallPrefix(prefix, {
      description: 'Made by test/support/npm-prefix.ts: Homebridge alone, for the e2e matrix.',
      dependencies: { homebridge: version },
      overrides: HOMEBRIDGE_2_OVERRIDES,
    });
    const found = await installedVersion(prefix, 'homebridge');
    if (found !== version) throw new Error(`After npm install, ${prefix}/node_modules/homebridge is ${found ?? 'missing'}, not ${version}`);
  });
  return prefix;
}

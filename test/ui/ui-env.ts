// Builds and packs the plugin, installs it with the Homebridge UI and Homebridge into a reusable prefix, and finds Node 24.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { PLUGIN_NAME } from '../../src/settings.js';
import { isAlive, tailLines } from './ui-util.js';

/** Repository root: where `npm run build` and `npm pack` run. */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The install prefix reused between runs (gitignored under .cache/). UI_ENV_PREFIX overrides it. */
export const DEFAULT_UI_PREFIX = path.join(REPO_ROOT, '.cache', 'ui-env');

/** The Homebridge UI users run; 5.x needs Node 22.12 or newer. */
export const UI_VERSION = '5.28.0';
/** Homebridge 2.1.0 installs without overrides and runs on Node 24 (2.4.0 would need a hap-nodejs override). */
export const HOMEBRIDGE_VERSION = '2.1.0';
/** UI 5.28.0 asks for @homebridge/hap-client 5.2.0, which this registry lacks; 4.0.3 works. */
export const PREFIX_OVERRIDES: Readonly<Record<string, string>> = { '@homebridge/hap-client': '4.0.3' };
/** The Node major the UI and Homebridge run on (a child process; the tests themselves run on Node 20). */
export const UI_NODE_MAJOR = 24;

/** tsc on two busy cores takes well under a minute; fail loudly rather than hang. */
const BUILD_TIMEOUT_MS = 180_000;
/** npm pack of ~70 files takes about a second. */
const PACK_TIMEOUT_MS = 60_000;
/** A cold install (345 packages, empty npm cache) took ~30 s here; a warm one (only the plugin changed) ~1 s. */
const INSTALL_TIMEOUT_MS = 300_000;
/** First `npx -y node@24` downloads a ~30 MB package; later calls take a few seconds. */
const NODE_RESOLVE_TIMEOUT_MS = 180_000;
/** How long to wait for another run's install of the same prefix before giving up. */
const INSTALL_LOCK_WAIT_MS = INSTALL_TIMEOUT_MS + 60_000;
/** How often a waiting run checks the install lock. */
const INSTALL_LOCK_POLL_MS = 500;
/** Hex digits of the tarball's SHA-256 in its file name: a changed plugin gets a new name, so npm reinstalls it. */
const TARBALL_HASH_CHARS = 16;
/** Files the packed plugin must contain, or a concurrent `npm run build` (rm -rf dist) caught us mid-pack. */
const REQUIRED_PACKAGE_FILES = ['package/package.json', 'package/config.schema.json', 'package/dist/index.js'];
/** Where the UI looks for a custom settings page when config.schema.json names no customUiPath. */
const DEFAULT_CUSTOM_UI_PATH = 'homebridge-ui';
/** What the UI needs inside the custom UI folder: the server it forks and the page it serves. */
const CUSTOM_UI_FILES = ['server.js', 'public/index.html'];
/** Build + pack again once when the tarball is incomplete (another engineer's build emptied dist/ meanwhile). */
const PACK_ATTEMPTS = 2;

/** Everything a UI run needs: serializable, so vitest's globalSetup can `provide` it to test files. */
export interface UiEnv {
  /** Install prefix: `<prefix>/node_modules` holds the UI, Homebridge and the plugin. */
  prefix: string;
  /** Absolute path of the Node 24 binary. */
  nodePath: string;
  /** Version of that Node, e.g. v24.21.0. */
  nodeVersion: string;
  /** The packed plugin that was installed. */
  tarball: string;
  /** Milliseconds spent in each step (build, pack, install, node), for the report. */
  timings: Record<string, number>;
  /** Set when the packed config.schema.json asks for a custom UI whose files the tarball lacks (users would get a broken page). */
  customUiProblem?: string;
}

export interface PrepareUiEnvOptions {
  /** Install prefix; default env UI_ENV_PREFIX or DEFAULT_UI_PREFIX. */
  prefix?: string;
  /** Skip `npm run build` (dist/ is already fresh). Default: env UI_SKIP_BUILD === '1'. */
  skipBuild?: boolean;
  /** Progress lines (default: console.log with a [ui] prefix). */
  log?: (line: string) => void;
}

interface RunResult {
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

async function runOrThrow(what: string, command: string, args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const result = await run(command, args, cwd, timeoutMs);
  if (result.code !== 0) {
    throw new Error(`${what} failed (${command} ${args.join(' ')}, exit ${String(result.code)}):\n${tailLines(result.output)}`);
  }
  return result.output;
}

/** The Node 24 binary that `npx -y node@24` runs (it ships inside the registry package). */
export async function resolveUiNode(): Promise<{ nodePath: string; nodeVersion: string }> {
  const output = await runOrThrow(
    `Finding Node ${UI_NODE_MAJOR}`,
    'npx',
    ['-y', `node@${UI_NODE_MAJOR}`, '-e', 'console.log(JSON.stringify([process.execPath, process.version]))'],
    REPO_ROOT,
    NODE_RESOLVE_TIMEOUT_MS,
  );
  const line = output.split('\n').find((l) => l.startsWith('["'));
  const parsed: unknown = line === undefined ? undefined : JSON.parse(line);
  if (!Array.isArray(parsed) || typeof parsed[0] !== 'string' || typeof parsed[1] !== 'string') {
    throw new Error(`npx -y node@${UI_NODE_MAJOR} printed no path:\n${tailLines(output)}`);
  }
  return { nodePath: parsed[0], nodeVersion: parsed[1] };
}

/** Lists the paths inside a .tgz (tar reads gzip itself). */
async function tarballEntries(tarball: string): Promise<string[]> {
  const output = await runOrThrow('Listing the packed plugin', 'tar', ['-tzf', tarball], path.dirname(tarball), PACK_TIMEOUT_MS);
  return output.split('\n').filter((l) => l !== '');
}

interface PackedSchema {
  customUi?: unknown;
  customUiPath?: unknown;
}

/** Undefined when the packed schema has no custom UI or the tarball holds its server and page; else what is missing. */
async function checkCustomUi(tarball: string, entries: Set<string>): Promise<string | undefined> {
  const text = await runOrThrow('Reading the packed config.schema.json', 'tar', ['-xzOf', tarball, 'package/config.schema.json'], path.dirname(tarball), PACK_TIMEOUT_MS);
  const schema = JSON.parse(text) as PackedSchema;
  if (schema.customUi !== true) return undefined;
  const folder = path.posix.normalize(typeof schema.customUiPath === 'string' ? schema.customUiPath : DEFAULT_CUSTOM_UI_PATH).replace(/\/+$/, '');
  const missing = CUSTOM_UI_FILES.map((f) => `${folder}/${f}`).filter((f) => !entries.has(`package/${f}`));
  if (missing.length === 0) return undefined;
  return `config.schema.json has "customUi": true${typeof schema.customUiPath === 'string' ? ` and "customUiPath": "${schema.customUiPath}"` : ''}, but the packed plugin lacks ${missing.join(', ')}`;
}

/** `npm run build` then `npm pack`, as a user gets the plugin; returns the tarball in a fresh temp dir. */
async function buildAndPack(
  skipBuild: boolean,
  timings: Record<string, number>,
): Promise<{ tarball: string; packDir: string; customUiProblem: string | undefined }> {
  let lastMissing: string[] = [];
  for (let attempt = 1; attempt <= PACK_ATTEMPTS; attempt++) {
    if (!skipBuild) {
      const t0 = performance.now();
      await runOrThrow('npm run build', 'npm', ['run', 'build'], REPO_ROOT, BUILD_TIMEOUT_MS);
      timings.buildMs = Math.round(performance.now() - t0);
    }
    const packDir = await mkdtemp(path.join(tmpdir(), 'hb-ui-pack-'));
    const t1 = performance.now();
    const output = await runOrThrow('npm pack', 'npm', ['pack', '--json', '--pack-destination', packDir], REPO_ROOT, PACK_TIMEOUT_MS);
    timings.packMs = Math.round(performance.now() - t1);
    const files = (await readdir(packDir)).filter((f) => f.endsWith('.tgz'));
    if (files.length !== 1 || files[0] === undefined) {
      throw new Error(`npm pack left ${files.length} tarballs in ${packDir}:\n${tailLines(output)}`);
    }
    const tarball = path.join(packDir, files[0]);
    const entries = new Set(await tarballEntries(tarball));
    lastMissing = REQUIRED_PACKAGE_FILES.filter((f) => !entries.has(f));
    if (lastMissing.length === 0) return { tarball, packDir, customUiProblem: await checkCustomUi(tarball, entries) };
    await rm(packDir, { recursive: true, force: true });
  }
  throw new Error(`The packed plugin lacks ${lastMissing.join(', ')} (was dist/ rebuilt by another run meanwhile?)`);
}

/** Takes `<prefix>.lock` (a directory: mkdir is atomic), waiting for another run's install; steals it from a dead owner. */
async function withInstallLock<T>(prefix: string, work: () => Promise<T>): Promise<T> {
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

async function installedVersion(prefix: string, name: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readFile(path.join(prefix, 'node_modules', name, 'package.json'), 'utf8')) as InstalledManifest;
    return typeof manifest.version === 'string' ? manifest.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Installs the UI, Homebridge and the packed plugin into `prefix` with `npm install` (not ci: the UI's macOS-only optional
 * dependency cannot be in a lock file made here). npm reuses what is there when the versions are unchanged; the tarball's
 * name carries its hash, so a changed plugin is always reinstalled.
 */
async function installPrefix(prefix: string, packed: string, timings: Record<string, number>): Promise<string> {
  const content = await readFile(packed);
  const hash = createHash('sha256').update(content).digest('hex').slice(0, TARBALL_HASH_CHARS);
  const pluginDir = path.join(prefix, 'plugin');
  const tarballName = `${PLUGIN_NAME}-${hash}.tgz`;
  await mkdir(pluginDir, { recursive: true });
  await copyFile(packed, path.join(pluginDir, tarballName));

  const manifest = {
    name: 'homebridge-ui-test-env',
    private: true,
    description: 'Made by test/ui/ui-env.ts: the Homebridge UI, Homebridge and the packed plugin, for the browser tests.',
    dependencies: {
      'homebridge-config-ui-x': UI_VERSION,
      homebridge: HOMEBRIDGE_VERSION,
      [PLUGIN_NAME]: `file:plugin/${tarballName}`,
    },
    overrides: PREFIX_OVERRIDES,
  };
  await writeFile(path.join(prefix, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const t0 = performance.now();
  await runOrThrow(
    `Installing the Homebridge UI ${UI_VERSION}, Homebridge ${HOMEBRIDGE_VERSION} and the plugin into ${prefix}`,
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
    prefix,
    INSTALL_TIMEOUT_MS,
  );
  timings.installMs = Math.round(performance.now() - t0);

  for (const file of await readdir(pluginDir)) {
    if (file !== tarballName) await rm(path.join(pluginDir, file), { force: true });
  }
  const found = {
    'homebridge-config-ui-x': await installedVersion(prefix, 'homebridge-config-ui-x'),
    homebridge: await installedVersion(prefix, 'homebridge'),
    [PLUGIN_NAME]: await installedVersion(prefix, PLUGIN_NAME),
  };
  if (found['homebridge-config-ui-x'] !== UI_VERSION || found.homebridge !== HOMEBRIDGE_VERSION || found[PLUGIN_NAME] === undefined) {
    throw new Error(`After npm install, ${prefix}/node_modules holds ${JSON.stringify(found)}`);
  }
  return path.join(pluginDir, tarballName);
}

/** Build, pack, install (under a lock shared with concurrent runs) and find Node 24. */
export async function prepareUiEnv(opts: PrepareUiEnvOptions = {}): Promise<UiEnv> {
  const log = opts.log ?? ((line: string) => console.log(`[ui] ${line}`));
  const prefix = path.resolve(opts.prefix ?? process.env.UI_ENV_PREFIX ?? DEFAULT_UI_PREFIX);
  const skipBuild = opts.skipBuild ?? process.env.UI_SKIP_BUILD === '1';
  if (skipBuild && !existsSync(path.join(REPO_ROOT, 'dist', 'index.js'))) {
    throw new Error('UI_SKIP_BUILD=1 but dist/index.js does not exist: run npm run build first');
  }
  const timings: Record<string, number> = {};
  const started = performance.now();

  const nodePromise = (async () => {
    const t0 = performance.now();
    const found = await resolveUiNode();
    timings.nodeMs = Math.round(performance.now() - t0);
    return found;
  })();
  // Resolving Node 24 (npx) runs beside the build; a rejection is picked up by the await below.
  nodePromise.catch(() => undefined);

  const { tarball: packed, packDir, customUiProblem } = await buildAndPack(skipBuild, timings);
  if (customUiProblem !== undefined) log(`warning: ${customUiProblem}`);
  let tarball: string;
  try {
    tarball = await withInstallLock(prefix, () => installPrefix(prefix, packed, timings));
  } finally {
    await rm(packDir, { recursive: true, force: true });
  }
  const { nodePath, nodeVersion } = await nodePromise;
  timings.totalMs = Math.round(performance.now() - started);
  log(`UI ${UI_VERSION} + Homebridge ${HOMEBRIDGE_VERSION} + ${path.basename(tarball)} in ${prefix} on Node ${nodeVersion}: ${JSON.stringify(timings)}`);
  return { prefix, nodePath, nodeVersion, tarball, timings, ...(customUiProblem === undefined ? {} : { customUiProblem }) };
}

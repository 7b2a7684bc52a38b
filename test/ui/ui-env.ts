// Builds and packs the plugin, installs it with the Homebridge UI and Homebridge into a reusable prefix, and finds Node 24.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { PLUGIN_NAME } from '../../src/settings.js';
import { tailLines } from './ui-util.js';
import {
  HOMEBRIDGE_2_OVERRIDES,
  HOMEBRIDGE_2_VERSION,
  REPO_ROOT,
  installedVersion,
  npmInstallPrefix,
  resolveNode,
  runOrThrow,
  withInstallLock,
} from '../support/npm-prefix.js';

export { REPO_ROOT, run } from '../support/npm-prefix.js';
/** The install prefix reused between runs (gitignored under .cache/). UI_ENV_PREFIX overrides it. */
export const DEFAULT_UI_PREFIX = path.join(REPO_ROOT, '.cache', 'ui-env');

/** The Homebridge UI users run; 5.x needs Node 22.12 or newer. */
export const UI_VERSION = '5.28.0';
/** The current Homebridge 2.x, as the e2e matrix runs it. */
export const HOMEBRIDGE_VERSION = HOMEBRIDGE_2_VERSION;
/**
 * Test install only: UI 5.28.0 asks for @homebridge/hap-client 5.2.0, which this registry lacks (4.0.3 works), and
 * Homebridge 2.4.0 for @homebridge/hap-nodejs 2.2.2 (see HOMEBRIDGE_2_OVERRIDES).
 */
export const PREFIX_OVERRIDES: Readonly<Record<string, string>> = { '@homebridge/hap-client': '4.0.3', ...HOMEBRIDGE_2_OVERRIDES };
/** The Node major the UI and Homebridge run on (a child process; the tests themselves run on Node 20). */
export const UI_NODE_MAJOR = 24;

/** tsc on two busy cores takes well under a minute; fail loudly rather than hang. */
const BUILD_TIMEOUT_MS = 180_000;
/** npm pack of ~70 files takes about a second. */
const PACK_TIMEOUT_MS = 60_000;
/** Hex digits of the tarball's SHA-256 in its file name: a changed plugin gets a new name, so npm reinstalls it. */
const TARBALL_HASH_CHARS = 16;
/** Files the packed plugin must contain, or a concurrent `npm run build` (rm -rf dist) caught us mid-pack. */
const REQUIRED_PACKAGE_FILES = ['package/package.json', 'package/config.schema.json', 'package/dist/index.js'];
/** Where the UI looks for a custom settings page when config.schema.json names no customUiPath. */
const DEFAULT_CUSTOM_UI_PATH = 'homebridge-ui';
/** What the UI needs inside the custom UI folder: the server it forks and the page it serves. */
const CUSTOM_UI_FILES = ['server.js', 'public/index.html', 'public/js/page.js'];
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
  /** Pack dist/ as it is, without the prepack's build (dist/ is already fresh). Default: env UI_SKIP_BUILD === '1'. */
  skipBuild?: boolean;
  /** Progress lines (default: console.log with a [ui] prefix). */
  log?: (line: string) => void;
}

/** The Node 24 binary the UI and Homebridge run on. */
export function resolveUiNode(): Promise<{ nodePath: string; nodeVersion: string }> {
  return resolveNode(UI_NODE_MAJOR);
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
  const text = await runOrThrow(
    'Reading the packed config.schema.json',
    'tar',
    ['-xzOf', tarball, 'package/config.schema.json'],
    path.dirname(tarball),
    PACK_TIMEOUT_MS,
  );
  const schema = JSON.parse(text) as PackedSchema;
  if (schema.customUi !== true) return undefined;
  const folder = path.posix
    .normalize(typeof schema.customUiPath === 'string' ? schema.customUiPath : DEFAULT_CUSTOM_UI_PATH)
    .replace(/\/+$/, '');
  const missing = CUSTOM_UI_FILES.map((f) => `${folder}/${f}`).filter((f) => !entries.has(`package/${f}`));
  if (missing.length === 0) return undefined;
  return `config.schema.json has "customUi": true${typeof schema.customUiPath === 'string' ? ` and "customUiPath": "${schema.customUiPath}"` : ''}, but the packed plugin lacks ${missing.join(', ')}`;
}

/** `npm pack` (its prepack builds), as a user gets the plugin; returns the tarball in a fresh temp dir. */
async function buildAndPack(
  skipBuild: boolean,
  timings: Record<string, number>,
): Promise<{ tarball: string; packDir: string; customUiProblem: string | undefined }> {
  let lastMissing: string[] = [];
  for (let attempt = 1; attempt <= PACK_ATTEMPTS; attempt++) {
    const packDir = await mkdtemp(path.join(tmpdir(), 'hb-ui-pack-'));
    const t1 = performance.now();
    // The package's prepack builds, as on every pack a user or `npm publish` makes; with dist/ already fresh it is skipped.
    const output = await runOrThrow(
      'npm pack',
      'npm',
      ['pack', '--json', '--pack-destination', packDir, ...(skipBuild ? ['--ignore-scripts'] : [])],
      REPO_ROOT,
      skipBuild ? PACK_TIMEOUT_MS : BUILD_TIMEOUT_MS + PACK_TIMEOUT_MS,
    );
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

/** What the prefix's package.json says it is for. */
const PREFIX_DESCRIPTION =
  'Made by test/ui/ui-env.ts: the Homebridge UI, Homebridge and the packed plugin, for the browser and package tests.';
/** The UI and Homebridge, without the plugin: what the prefix holds before the plugin is packed. */
const UI_AND_HOMEBRIDGE: Readonly<Record<string, string>> = { 'homebridge-config-ui-x': UI_VERSION, homebridge: HOMEBRIDGE_VERSION };

/** The install prefix: the one given, else env UI_ENV_PREFIX, else DEFAULT_UI_PREFIX. */
function uiPrefix(given?: string): string {
  return path.resolve(given ?? process.env.UI_ENV_PREFIX ?? DEFAULT_UI_PREFIX);
}

/**
 * The UI and Homebridge alone into the prefix (uiPrefix), unless there: CI runs it beside `npm ci`
 * (test/support/install-ahead.ts), when the plugin is not built yet, so that the ui tests add only the plugin.
 */
export async function installUiAndHomebridge(given?: string): Promise<void> {
  const prefix = uiPrefix(given);
  await withInstallLock(prefix, async () => {
    const there = await Promise.all(
      Object.entries(UI_AND_HOMEBRIDGE).map(async ([name, v]) => (await installedVersion(prefix, name)) === v),
    );
    if (there.every(Boolean)) return;
    await npmInstallPrefix(prefix, {
      description: PREFIX_DESCRIPTION,
      dependencies: { ...UI_AND_HOMEBRIDGE },
      overrides: PREFIX_OVERRIDES,
    });
  });
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

  timings.installMs = await npmInstallPrefix(prefix, {
    description: PREFIX_DESCRIPTION,
    dependencies: { ...UI_AND_HOMEBRIDGE, [PLUGIN_NAME]: `file:plugin/${tarballName}` },
    overrides: PREFIX_OVERRIDES,
  });

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
  const prefix = uiPrefix(opts.prefix);
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
  log(
    `UI ${UI_VERSION} + Homebridge ${HOMEBRIDGE_VERSION} + ${path.basename(tarball)} in ${prefix} on Node ${nodeVersion}: ${JSON.stringify(timings)}`,
  );
  return { prefix, nodePath, nodeVersion, tarball, timings, ...(customUiProblem === undefined ? {} : { customUiProblem }) };
}

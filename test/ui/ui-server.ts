// Starts hb-service (the Homebridge UI, which runs Homebridge as its child) on Node 24 with a temp storage, and stops it cleanly.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { forEachLine } from '../../dev/harness/homebridge-process.js';
import { PLATFORM_NAME, PLUGIN_NAME } from '../../src/settings.js';
import { followLog } from './log-follower.js';
import type { LogFollower, WaitForLogOptions } from './log-follower.js';
import type { UiEnv } from './ui-env.js';
import { freePort, isAlive, randomBridgeUsername, sleep } from './ui-util.js';

/** Longest wait from spawn to the UI answering HTTP (it listens about a second after start here). */
export const UI_START_TIMEOUT_MS = 60_000;
/** Longest wait for Homebridge's "is running on port" line after the UI is up. */
export const HOMEBRIDGE_START_TIMEOUT_MS = 60_000;
/** hb-service stops Homebridge (which force-exits 5 s after SIGTERM) and then itself; SIGKILL for the group after this. */
export const STOP_TIMEOUT_MS = 20_000;
/** After hb-service exits, how long its children (Homebridge, the settings page's server) get to follow before SIGKILL. */
const CHILDREN_EXIT_GRACE_MS = 3_000;
/** How often the UI is asked whether it answers yet. */
const UI_READY_POLL_MS = 250;
/** Each readiness probe gives up after this long. */
const UI_PROBE_TIMEOUT_MS = 2_000;
/** How often process-group exit is checked while stopping. */
const EXIT_POLL_MS = 100;

/** The UI's own platform entry; "auth": "none" still needs a first admin user (made through the setup wizard API). */
const UI_PLATFORM_ALIAS = 'config';
/** The first user the setup wizard creates (auth is "none", so nobody types it). */
const ADMIN_USER = { name: 'UI Test', username: 'ui-test', password: 'ui-test-password-1' };
/** Setup code of the main bridge. */
const BRIDGE_PIN = '031-45-154';
/** Name of the main bridge in the UI's header. */
const BRIDGE_NAME = 'UI Test Bridge';
/** hb-service writes everything (UI, supervisor, Homebridge) here, in the storage dir. */
const LOG_FILE = 'homebridge.log';
/** Homebridge 2.1 prints this once its main bridge listens. */
export const HOMEBRIDGE_READY_LINE = /Homebridge v\S+ \(HAP v\S+\) \(.*\) is running on port \d+\./;
const UI_LISTENING_LINE = /Homebridge UI v\S+ is listening on .* port \d+/;
/** hb-service names Homebridge's pid here; it is killed if it outlives hb-service. */
const HOMEBRIDGE_PID_LINE = /Started Homebridge v\S+ with PID: (\d+)/;

export type PlatformBlock = Record<string, unknown>;

export interface StartUiServerOptions {
  env: UiEnv;
  /** Platform blocks besides the UI's own (e.g. an AccessControl block); default none: the plugin is not configured yet. */
  platforms?: PlatformBlock[];
  /** Drop `customUi` from this run's copy of the plugin's config.schema.json: the UI shows its schema-generated form. */
  generatedForm?: boolean;
  /** Start Homebridge with -D (the plugin's debug lines). */
  homebridgeDebug?: boolean;
  /** Wait for Homebridge's "is running on port" line too (default true). */
  waitForHomebridge?: boolean;
  /** Echo every log line to stdout (default: env UI_ECHO === '1'). */
  echoLog?: boolean;
}

export interface ConfigJson {
  bridge?: Record<string, unknown>;
  accessories?: unknown[];
  platforms?: PlatformBlock[];
  [key: string]: unknown;
}

export interface UiServer {
  /** Base address of the UI, e.g. http://127.0.0.1:40123 (no trailing slash). */
  readonly url: string;
  readonly uiPort: number;
  readonly bridgePort: number;
  /** Temp storage (-U): config.json, auth.json, homebridge.log, accessories/. Removed by stop(). */
  readonly storageDir: string;
  /** This run's plugin dir (-P): a copy of the installed plugin and a link to the UI. Removed by stop(). */
  readonly pluginPath: string;
  /** The run's copy of the installed plugin (its config.schema.json is patched for `generatedForm`). */
  readonly pluginDir: string;
  /** hb-service's pid (also its process group). */
  readonly pid: number;
  /** Bearer token of the admin user (what the browser gets from POST /api/auth/noauth). */
  readonly token: string;
  /** From spawn to the UI answering (and Homebridge running, unless waitForHomebridge was false). */
  readonly startMs: number;
  /** Everything in homebridge.log so far (UI, supervisor and Homebridge lines), ANSI codes stripped. */
  log(): string;
  /** Number of complete log lines so far: a mark for `waitForLog(re, ms, { fromLine })`. */
  lineCount(): number;
  /** Resolves with the first complete line matching `re`; rejects on time-out or exit, with the log tail. */
  waitForLog(re: RegExp, timeoutMs: number, opts?: WaitForLogOptions): Promise<string>;
  /** config.json as it is on disk now. */
  readConfig(): Promise<ConfigJson>;
  /** The `platforms` entries with `"platform": alias` (default AccessControl) from config.json. */
  platformBlocks(alias?: string): Promise<PlatformBlock[]>;
  /** fetch() against the UI's REST API with the admin token, e.g. api('/api/plugins'). */
  api(apiPath: string, init?: RequestInit): Promise<Response>;
  /** SIGTERM to hb-service, SIGKILL to its process group if anything outlives it, then removes the temp dirs. Idempotent. */
  stop(): Promise<void>;
}

interface TokenResponse {
  access_token?: unknown;
}

async function probe(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(UI_PROBE_TIMEOUT_MS) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

async function postJson(url: string, body: unknown, token?: string): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${text}`);
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

function accessToken(value: unknown, what: string): string {
  const token = (value as TokenResponse | undefined)?.access_token;
  if (typeof token !== 'string') throw new Error(`${what} returned no access_token: ${JSON.stringify(value)}`);
  return token;
}

/** The setup wizard's two calls (a fresh UI wants an admin even with auth "none"), then the token the browser would get. */
async function completeSetupWizard(url: string): Promise<string> {
  const wizardRes = await fetch(`${url}/api/setup-wizard/get-setup-wizard-token`);
  const wizardBody: unknown = await wizardRes.json();
  if (!wizardRes.ok)
    throw new Error(`GET /api/setup-wizard/get-setup-wizard-token answered ${wizardRes.status}: ${JSON.stringify(wizardBody)}`);
  const wizardToken = accessToken(wizardBody, 'the setup wizard');
  await postJson(`${url}/api/setup-wizard/create-first-user`, { ...ADMIN_USER, admin: true }, wizardToken);
  return accessToken(await postJson(`${url}/api/auth/noauth`, {}), 'POST /api/auth/noauth');
}

/** Removes run dirs left by runs whose process is gone (named run-<pid>-*). */
async function removeStaleRuns(runsDir: string): Promise<void> {
  const entries = await readdir(runsDir).catch(() => [] as string[]);
  for (const entry of entries) {
    const pid = Number(/^run-(\d+)-/.exec(entry)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      await rm(path.join(runsDir, entry), { recursive: true, force: true });
    }
  }
}

/**
 * A plugin dir for this run only: a copy of the installed plugin (so patching its schema or a concurrent reinstall
 * cannot touch another run) and a link to the UI (its "config" platform). It sits inside the prefix, so the
 * plugin's dependencies resolve from `<prefix>/node_modules` exactly as installed.
 */
async function makeRunPluginPath(env: UiEnv, generatedForm: boolean): Promise<{ runDir: string; pluginPath: string; pluginDir: string }> {
  const runsDir = path.join(env.prefix, 'runs');
  await mkdir(runsDir, { recursive: true });
  await removeStaleRuns(runsDir);
  const runDir = await mkdtemp(path.join(runsDir, `run-${process.pid}-`));
  const pluginPath = path.join(runDir, 'node_modules');
  const pluginDir = path.join(pluginPath, PLUGIN_NAME);
  await cp(path.join(env.prefix, 'node_modules', PLUGIN_NAME), pluginDir, { recursive: true });
  await symlink(path.join(env.prefix, 'node_modules', 'homebridge-config-ui-x'), path.join(pluginPath, 'homebridge-config-ui-x'), 'dir');
  if (generatedForm) {
    const schemaFile = path.join(pluginDir, 'config.schema.json');
    const schema = JSON.parse(await readFile(schemaFile, 'utf8')) as Record<string, unknown>;
    delete schema.customUi;
    delete schema.customUiPath;
    await writeFile(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
  }
  return { runDir, pluginPath, pluginDir };
}

// Process groups still alive when the test worker exits are killed, so no UI or Homebridge outlives the run.
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await sleep(EXIT_POLL_MS);
  }
  return true;
}

/** Starts hb-service on free ports; resolves once the UI answers, its first user exists and Homebridge runs. */
export async function startUiServer(opts: StartUiServerOptions): Promise<UiServer> {
  const { env } = opts;
  const [uiPort, bridgePort] = [await freePort(), await freePort()];
  const storageDir = await mkdtemp(path.join(tmpdir(), 'hb-ui-storage-'));
  const { runDir, pluginPath, pluginDir } = await makeRunPluginPath(env, opts.generatedForm ?? false);
  const config: ConfigJson = {
    bridge: { name: BRIDGE_NAME, username: randomBridgeUsername(), port: bridgePort, pin: BRIDGE_PIN, advertiser: 'ciao' },
    accessories: [],
    platforms: [{ platform: UI_PLATFORM_ALIAS, port: uiPort, auth: 'none' }, ...(opts.platforms ?? [])],
  };
  await writeFile(path.join(storageDir, 'config.json'), `${JSON.stringify(config, null, 4)}\n`);

  const hbService = path.join(env.prefix, 'node_modules', 'homebridge-config-ui-x', 'dist', 'bin', 'hb-service.js');
  const args = [hbService, 'run', '-U', storageDir, '-P', pluginPath, '--strict-plugin-resolution', '--allow-root'];
  const startedAt = performance.now();
  // detached: hb-service leads its own process group, so Homebridge and the settings page's server can be killed with it.
  const child = spawn(env.nodePath, args, {
    cwd: storageDir,
    detached: true,
    env: { ...process.env, FORCE_COLOR: '0', ...(opts.homebridgeDebug ? { HOMEBRIDGE_DEBUG: '1' } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let spawnError = '';
  child.once('error', (err) => (spawnError = err.message));
  const pid = child.pid;
  if (pid === undefined) {
    await rm(storageDir, { recursive: true, force: true });
    await rm(runDir, { recursive: true, force: true });
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error(`Could not spawn ${env.nodePath} ${args.join(' ')}${spawnError === '' ? '' : `: ${spawnError}`}`);
  }
  trackGroup(pid);

  const echo = opts.echoLog ?? process.env.UI_ECHO === '1';
  const follower: LogFollower = followLog(path.join(storageDir, LOG_FILE), echo ? `[ui ${pid}]` : undefined);
  // hb-service prints a few lines (and any crash) to its own stdout/stderr before it switches to the log file.
  for (const stream of [child.stdout, child.stderr]) {
    forEachLine(stream, (line) => follower.push(line));
  }
  let exited = false;
  /** Read through a call: the 'exit' handler sets it while this function awaits. */
  const hasExited = (): boolean => exited;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      void follower.end(`hb-service exited (code ${String(code)}, signal ${String(signal)})`).then(resolve);
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (!exited) child.kill('SIGTERM');
      const clean = await waitUntil(() => exited, STOP_TIMEOUT_MS);
      if (!clean) follower.push(`[ui harness] hb-service still running ${STOP_TIMEOUT_MS} ms after SIGTERM: SIGKILL to its group`);
      // Homebridge or the settings page's server may outlive hb-service: give them a moment, then kill the group.
      if (!(await waitUntil(() => !isAlive(-pid), clean ? CHILDREN_EXIT_GRACE_MS : 0))) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
        await waitUntil(() => !isAlive(-pid), CHILDREN_EXIT_GRACE_MS);
      }
      const homebridgePid = Number(HOMEBRIDGE_PID_LINE.exec(follower.text())?.[1]);
      if (Number.isInteger(homebridgePid) && homebridgePid > 0 && isAlive(homebridgePid)) process.kill(homebridgePid, 'SIGKILL');
      await exitedPromise;
      liveGroups.delete(pid);
      await follower.close();
      await rm(storageDir, { recursive: true, force: true });
      await rm(runDir, { recursive: true, force: true });
    })();
    return stopping;
  };

  const url = `http://127.0.0.1:${uiPort}`;
  let token: string;
  try {
    await follower.waitForLog(UI_LISTENING_LINE, UI_START_TIMEOUT_MS);
    const deadline = startedAt + UI_START_TIMEOUT_MS;
    while (!(await probe(`${url}/api/auth/settings`))) {
      if (hasExited()) throw new Error(`hb-service exited before the UI answered on ${url}. Log:\n${follower.tail()}`);
      if (performance.now() > deadline)
        throw new Error(`The UI did not answer on ${url} within ${UI_START_TIMEOUT_MS} ms. Log:\n${follower.tail()}`);
      await sleep(UI_READY_POLL_MS);
    }
    token = await completeSetupWizard(url);
    if (opts.waitForHomebridge ?? true) await follower.waitForLog(HOMEBRIDGE_READY_LINE, HOMEBRIDGE_START_TIMEOUT_MS);
  } catch (err) {
    await stop();
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(message.includes('Log:\n') ? message : `${message}\nLog:\n${follower.tail()}`, { cause: err });
  }
  const startMs = Math.round(performance.now() - startedAt);

  const readConfig = async (): Promise<ConfigJson> =>
    JSON.parse(await readFile(path.join(storageDir, 'config.json'), 'utf8')) as ConfigJson;

  return {
    url,
    uiPort,
    bridgePort,
    storageDir,
    pluginPath,
    pluginDir,
    pid,
    token,
    startMs,
    log: () => follower.text(),
    lineCount: () => follower.lineCount(),
    waitForLog: (re, timeoutMs, waitOpts) => follower.waitForLog(re, timeoutMs, waitOpts),
    readConfig,
    async platformBlocks(alias = PLATFORM_NAME) {
      const platforms = (await readConfig()).platforms ?? [];
      return platforms.filter((p) => p.platform === alias);
    },
    api(apiPath, init = {}) {
      const headers = new Headers(init.headers);
      headers.set('Authorization', `Bearer ${token}`);
      return fetch(`${url}${apiPath}`, { ...init, headers });
    },
    stop,
  };
}

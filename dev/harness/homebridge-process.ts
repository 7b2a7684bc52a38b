// Boots a real Homebridge child process (the repo's 1.11, or the 2.x of an npm prefix named by HB_PREFIX) with this plugin, for the e2e tests and the demo.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { PLUGIN_NAME } from '../../src/settings.js';
import { installStopWatch, leftOpen, readStopRecords } from './stop-watch.js';
import type { ProcessExitRecord } from './stop-watch.js';

/** Repository root (the plugin package the symlink in the plugin dir points at), from dev/harness or dist-dev/dev/harness alike. */
export const REPO_ROOT = findRepoRoot(path.dirname(fileURLToPath(import.meta.url)));

/** The nearest folder up from `from` whose package.json is this plugin's. */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      if ((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === PLUGIN_NAME) {
        return dir;
      }
    } catch {
      // No package.json here: keep going up.
    }
    if (path.dirname(dir) === dir) {
      throw new Error(`no ${PLUGIN_NAME} package.json above ${from}`);
    }
  }
}
export { PLUGIN_NAME, PLATFORM_NAME as PLATFORM_ALIAS } from '../../src/settings.js';
/** Setup code of every test bridge. */
export const BRIDGE_PIN = '031-45-154';
/**
 * mDNS advertiser. ciao (HAP-NodeJS's default) probes and announces fine on this sandbox's eth0;
 * the controller does not need it anyway, it connects straight to 127.0.0.1:<port>.
 */
export const BRIDGE_ADVERTISER = 'ciao';

/** Longest wait for "is running on port" after spawning. */
export const BOOT_TIMEOUT_MS = 60_000;
/** SIGKILL follows SIGTERM after this long (Homebridge itself force-exits 5 s after SIGTERM). */
export const STOP_KILL_AFTER_MS = 15_000;
/**
 * The Homebridge plugin checker fails plugins whose Homebridge takes longer than this to stop. It cannot fail by
 * itself: Homebridge force-exits 5 s after SIGTERM whatever is left running; `StopResult.exitedByItself` and
 * `leftOpen` tell a clean stop (see stop-watch.ts).
 */
export const STOP_BUDGET_MS = 12_000;
export { HOMEBRIDGE_FORCE_EXIT_MS, leftOpen } from './stop-watch.js';
export type { ProcessExitRecord } from './stop-watch.js';

/** Printed by both Homebridge 1.11 and 2.1 once the bridge's HAP server listens. */
export const READY_LINE = /Homebridge v(\S+) \(HAP v(\S+)\) \((.*)\) is running on port (\d+)\./;

/** READY_LINE of the bridge named `name` only (a child bridge prints its own, in the same log); same groups. */
export function bridgeReadyLine(name: string): RegExp {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(READY_LINE.source.replace('\\((.*)\\)', () => `\\((${escaped})\\)`));
}

export const IDENTITY_FILE = 'e2e-bridge.json';
const DEFAULT_BRIDGE_NAME = 'E2E Bridge';
const ESC = String.fromCharCode(0x1b);
const ANSI_ESCAPES = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]`, 'g');

export interface StartHomebridgeOptions {
  /** `platforms` array of config.json. */
  platforms: Record<string, unknown>[];
  /** Reuse for restarts: keeps the bridge identity, pairings and accessory cache. */
  storageDir?: string;
  /** Bridge port; default: the one stored in storageDir, else a free port. */
  bridgePort?: number;
  /** Pass -D (default true). */
  debug?: boolean;
  /** Plugin search dir (-P); default: a temp dir holding a symlink to this repo. Use an empty dir to boot a bare bridge. */
  pluginDir?: string;
  /** Extra environment for the child. */
  env?: Record<string, string>;
  /** Boot timeout; default BOOT_TIMEOUT_MS. */
  bootTimeoutMs?: number;
  /** The bridge's name when the storage dir is new. */
  bridgeName?: string;
  /** Pass -I: the HAP server also answers unpaired requests that carry the PIN (the demo drives doors this way). */
  insecure?: boolean;
  /** Print the pairing QR code (drops -Q). */
  showQrCode?: boolean;
  /** Called with every log line as it arrives (the demo prints them). */
  onLine?: (line: string) => void;
  /**
   * Limit of open files (soft and hard, `ulimit -n`) for the child, so a test can show what happens when a flood of
   * connections nears it without opening tens of thousands of sockets. Default: the test process's own limit.
   */
  maxOpenFiles?: number;
  /** An npm prefix whose node_modules/homebridge to run; default env HB_PREFIX, else the repo's own (1.11). */
  homebridgePrefix?: string;
  /** The Node binary that runs Homebridge; default the one running this process. */
  nodePath?: string;
  /**
   * Load the stop watch (stop-watch.ts) into every Homebridge process, so `stop()` can tell a clean stop from
   * Homebridge's force-exit (the e2e tests). Off by default: it unrefs Homebridge 1.11's force-exit timer as 2.x does
   * itself, which would change what the benchmark measures of a stop on 1.11 (always the full 5 s there) and what the
   * demo shows.
   */
  watchStop?: boolean;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StopResult extends ExitStatus {
  /** From SIGTERM to process exit. */
  ms: number;
  /** True when SIGTERM was not enough and SIGKILL was sent. */
  killed: boolean;
  /**
   * The main process exited by itself, before Homebridge's own force-exit 5 s after SIGTERM: every plugin closed
   * everything it opened. False when the force-exit fired (exit 143), on SIGKILL, and without the stop watch (`watchStop`).
   */
  exitedByItself: boolean;
  /** The main process's record from the stop watch (undefined without it, or after SIGKILL). */
  main: ProcessExitRecord | undefined;
}

export interface BridgeIdentity {
  name: string;
  username: string;
  port: number;
  pin: string;
}

export interface WaitForLogOptions {
  /** Only consider lines from this index on (see `lineCount()`); default 0, the whole log. */
  fromLine?: number;
}

export interface HomebridgeProcess extends BridgeIdentity {
  /** The bridge's HAP Name: HAP-NodeJS appends 4 hex digits derived from the username to `name`. */
  readonly displayName: string;
  readonly storageDir: string;
  readonly pluginDir: string;
  readonly version: string;
  readonly pid: number | undefined;
  /** From spawn to the ready line. */
  readonly bootMs: number;
  /** Everything printed so far on stdout and stderr, ANSI codes stripped. */
  log(): string;
  /** What of `log()` came on stderr: Homebridge's (and its child bridges') warnings and errors, and crashes. */
  stderr(): string;
  /** Number of complete log lines so far: a mark for `waitForLog(re, ms, { fromLine })`. */
  lineCount(): number;
  /** Resolves with the first (complete) line matching `re`; rejects on timeout or exit, with the log tail. */
  waitForLog(re: RegExp, timeoutMs: number, opts?: WaitForLogOptions): Promise<string>;
  /** SIGTERM, wait for exit (SIGKILL after STOP_KILL_AFTER_MS). Idempotent. */
  stop(): Promise<StopResult>;
  /** Resolves when the process exits by itself; rejects on timeout. */
  waitForExit(timeoutMs: number): Promise<ExitStatus>;
  /** Exit status once the process has exited, else undefined. */
  readonly exited: ExitStatus | undefined;
  /**
   * The stop watch's records so far: one per Homebridge process that exited, the main one and each child bridge
   * (a child bridge may exit a moment after the main process). Empty without the stop watch.
   */
  stopRecords(): Promise<ProcessExitRecord[]>;
}

/** The current Homebridge 2.x: the e2e matrix (Node 22, 24, 26), the UI tests, the package test and the bench run it. */
export const HOMEBRIDGE_2_VERSION = '2.4.0';
/** Where the e2e matrix installs it (test/support/npm-prefix.ts), which the bench then reuses. */
export const HOMEBRIDGE_2_PREFIX = path.join(REPO_ROOT, '.cache', `homebridge-${HOMEBRIDGE_2_VERSION}`);

interface PackageJson {
  version?: unknown;
  bin?: unknown;
}

/** The Homebridge folder to run: `<prefix>/node_modules/homebridge`, by default env HB_PREFIX, else the repo's devDependency (1.11). */
export function homebridgeDir(prefix: string | undefined = process.env.HB_PREFIX): string {
  return prefix === undefined || prefix === ''
    ? path.join(REPO_ROOT, 'node_modules', 'homebridge')
    : path.join(prefix, 'node_modules', 'homebridge');
}

function resolveHomebridge(dir: string): { bin: string; version: string } {
  const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
  let rel: unknown = manifest.bin;
  if (typeof rel === 'object' && rel !== null) {
    rel = (rel as Record<string, unknown>).homebridge;
  }
  if (typeof rel !== 'string') {
    throw new Error(`${dir}/package.json has no "homebridge" bin`);
  }
  return { bin: path.join(dir, rel), version: typeof manifest.version === 'string' ? manifest.version : 'unknown' };
}

/** A locally administered unicast MAC, e.g. 0E:3A:91:...: the bridge's HAP identity. */
export function randomBridgeUsername(): string {
  const bytes = [...randomBytes(5)].map((b) => b.toString(16).padStart(2, '0').toUpperCase());
  return ['0E', ...bytes].join(':');
}

/** The Name HAP-NodeJS gives a bridge on first publish (its `addIdentifyingMaterial`, on in Homebridge). */
export function bridgeDisplayName(name: string, username: string): string {
  return `${name} ${createHash('sha512').update(username, 'utf8').digest('hex').slice(0, 4).toUpperCase()}`;
}

/** Calls `onLine` with each whole line a child's output stream writes, and with the last one at its end. */
export function forEachLine(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let partial = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) {
      onLine(part);
    }
  });
  stream.on('end', () => {
    if (partial !== '') {
      onLine(partial);
      partial = '';
    }
  });
}

/**
 * Ports handed out by any test process on this machine, a file per port holding the pid that took it (free again once that
 * process is gone). A port is bound seconds after it is handed out (a Homebridge UI starts), and a restarted Homebridge
 * binds its port again: in between, a probe of another suite found it free, and CI saw the ui tests talk to another
 * suite's HomeKit bridge on their UI's port (404, {"status":-70409}). Two asks of one process never get the same port
 * either: the kernel may give the same port to two binds in a row once the first is closed (seen in the matrix).
 */
export const PORT_CLAIMS_DIR = path.join(tmpdir(), 'homebridge-access-control-ports');
/** Tries before giving up on finding a port not handed out yet; each try is one bind. */
const FREE_PORT_TRIES = 20;
/**
 * Where ports are handed out: below the kernel's ephemeral range, from which every outgoing connection on the machine
 * takes its local port. A port picked there and bound seconds later (a child bridge starts after the main bridge) could
 * be taken meanwhile by any connection of the suites running beside this one: CI saw a child bridge die of EADDRINUSE.
 */
const LISTEN_PORTS = { from: 20_000, to: 32_000 };
/** Fewer ports than this below the ephemeral range (a machine that starts it low): the ephemeral range is used instead. */
const MIN_LISTEN_PORTS = 1_000;
const EPHEMERAL_RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';
/** Where Linux starts the ephemeral range by default. */
const DEFAULT_EPHEMERAL_START = 32_768;

/** The first port of the kernel's ephemeral range; Linux's default when it cannot be read. */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync(EPHEMERAL_RANGE_FILE, 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 0 ? first : DEFAULT_EPHEMERAL_START;
  } catch {
    return DEFAULT_EPHEMERAL_START;
  }
}

/** Binds `port` (0: any the kernel gives) and closes it: the port, when it was free a moment ago; undefined when taken. */
function probePort(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES') resolve(undefined);
      else reject(error);
    });
    server.listen(port, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (bound > 0 ? resolve(bound) : reject(new Error('no port assigned'))));
    });
  });
}

/** True while process `pid` exists (a signal 0 reaches it, or it is someone else's). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `port` for this process unless a living process holds it (this one included: its worker threads share its pid).
 * A claim left by a process that is gone is moved aside first, by one rename that only one claimant can win.
 */
async function claimPort(port: number, claims: string): Promise<boolean> {
  await mkdir(claims, { recursive: true });
  const file = path.join(claims, String(port));
  const claim = (): Promise<boolean> =>
    writeFile(file, String(process.pid), { flag: 'wx' }).then(
      () => true,
      (err: unknown) => {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
        throw err;
      },
    );
  if (await claim()) return true;
  const owner = Number(await readFile(file, 'utf8').catch(() => ''));
  // An empty file is a claim being written: taken.
  if (!Number.isInteger(owner) || owner <= 0 || processAlive(owner)) return false;
  const aside = `${file}.${String(process.pid)}.stale`;
  const won = await rename(file, aside).then(
    () => true,
    () => false,
  );
  if (!won) return false;
  await rm(aside, { force: true });
  return claim();
}

/** The ports freePort picks from (`to` excluded); undefined where the machine's ephemeral range starts too low (any port). */
export function listenPorts(): { from: number; to: number } | undefined {
  const to = Math.min(LISTEN_PORTS.to, ephemeralStart());
  return to - LISTEN_PORTS.from >= MIN_LISTEN_PORTS ? { from: LISTEN_PORTS.from, to } : undefined;
}

/**
 * A free TCP port no test process on this machine holds, outside the ephemeral range where the machine allows.
 * `claims`: the folder of claims (a test's own; default PORT_CLAIMS_DIR, shared by every suite).
 */
export async function freePort(claims = PORT_CLAIMS_DIR): Promise<number> {
  const range = listenPorts();
  for (let i = 0; i < FREE_PORT_TRIES; i += 1) {
    const wanted = range ? range.from + Math.floor(Math.random() * (range.to - range.from)) : 0;
    const port = await probePort(wanted);
    if (port !== undefined && (await claimPort(port, claims))) return port;
  }
  throw new Error(`no free port no other test holds after ${String(FREE_PORT_TRIES)} tries`);
}

async function loadOrCreateIdentity(storageDir: string, bridgePort: number | undefined, bridgeName: string): Promise<BridgeIdentity> {
  const file = path.join(storageDir, IDENTITY_FILE);
  let identity: BridgeIdentity | undefined;
  try {
    identity = JSON.parse(await readFile(file, 'utf8')) as BridgeIdentity;
  } catch {
    identity = undefined;
  }
  if (identity === undefined) {
    const username = randomBridgeUsername();
    identity = {
      name: bridgeName,
      username,
      port: bridgePort ?? (await freePort()),
      pin: BRIDGE_PIN,
    };
  } else if (bridgePort !== undefined) {
    identity = { ...identity, port: bridgePort };
  }
  await writeFile(file, `${JSON.stringify(identity, null, 2)}\n`);
  return identity;
}

/** A fresh temp dir holding only a symlink `homebridge-access-control` → the repo root. */
export async function makePluginDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'hb-e2e-plugins-'));
  await symlink(REPO_ROOT, path.join(dir, PLUGIN_NAME), 'dir');
  return dir;
}

/** An empty temp dir: Homebridge boots a bare bridge from it ("No plugins found"). */
export async function makeEmptyPluginDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'hb-e2e-noplugins-'));
}

/** Times rm tries again on ENOTEMPTY or EBUSY, and the pause before each (ms, growing linearly). */
const REMOVE_RETRIES = 5;
const REMOVE_RETRY_DELAY_MS = 200;

/**
 * Deletes a storage dir made by `startHomebridge`. Tried again a few times: a child bridge of Homebridge 2 may still
 * write its persist files as it exits, and a file made during the removal made the whole dir fail with ENOTEMPTY.
 */
export async function removeStorageDir(storageDir: string): Promise<void> {
  await rm(storageDir, { recursive: true, force: true, maxRetries: REMOVE_RETRIES, retryDelay: REMOVE_RETRY_DELAY_MS });
}

// Children still alive when the test worker exits are killed, so no Homebridge outlives the run.
const liveChildren = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  liveChildren.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const c of liveChildren) {
        c.kill('SIGKILL');
      }
    });
  }
}

function compile(re: RegExp): RegExp {
  // A /g or /y regex keeps lastIndex between test() calls: strip those flags.
  return new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
}

function tail(text: string, lines = 60): string {
  return text.split('\n').slice(-lines).join('\n');
}

/** Spawns Homebridge and resolves once its bridge is running; rejects (with the log) if it exits or stalls first. */
export async function startHomebridge(opts: StartHomebridgeOptions): Promise<HomebridgeProcess> {
  const { bin, version } = resolveHomebridge(homebridgeDir(opts.homebridgePrefix ?? process.env.HB_PREFIX));
  const nodePath = opts.nodePath ?? process.execPath;
  const storageDir = opts.storageDir ?? (await mkdtemp(path.join(tmpdir(), 'hb-e2e-storage-')));
  await mkdir(storageDir, { recursive: true });
  const ownPluginDir = opts.pluginDir === undefined;
  const pluginDir = opts.pluginDir ?? (await makePluginDir());
  const identity = await loadOrCreateIdentity(storageDir, opts.bridgePort, opts.bridgeName ?? DEFAULT_BRIDGE_NAME);

  const config = {
    bridge: { ...identity, advertiser: BRIDGE_ADVERTISER },
    accessories: [],
    platforms: opts.platforms,
  };
  await writeFile(path.join(storageDir, 'config.json'), `${JSON.stringify(config, null, 2)}\n`);

  const watchStop = opts.watchStop ?? false;
  const nodeOptions = opts.env?.NODE_OPTIONS ?? process.env.NODE_OPTIONS;
  const stopWatchEnv = watchStop ? { NODE_OPTIONS: await installStopWatch(storageDir, nodeOptions) } : {};

  const args = [
    bin,
    ...(opts.showQrCode ? [] : ['-Q']),
    ...(opts.debug === false ? [] : ['-D']),
    ...(opts.insecure ? ['-I'] : []),
    ...['-U', storageDir, '-P', pluginDir, '--strict-plugin-resolution'],
  ];
  const startedAt = performance.now();
  // `exec` keeps the pid, so signals still reach Homebridge itself; the limit is set for both soft and hard, so
  // Node cannot raise it again at start.
  const [command, commandArgs] =
    opts.maxOpenFiles === undefined
      ? [nodePath, args]
      : ['/bin/sh', ['-c', `ulimit -n ${Math.floor(opts.maxOpenFiles)} && exec "$0" "$@"`, nodePath, ...args]];
  const child = spawn(command, commandArgs, {
    cwd: storageDir,
    env: { ...process.env, FORCE_COLOR: '0', ...opts.env, ...stopWatchEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  trackChild(child);

  const lines: string[] = [];
  let text = '';
  let stderrText = '';
  const lineListeners = new Set<(line: string) => void>();
  const exitListeners = new Set<() => void>();
  let exitStatus: ExitStatus | undefined;
  const exitStatusNow = (): ExitStatus | undefined => exitStatus;
  let exitedAt = 0;
  const echo = process.env.E2E_ECHO === '1';

  const pushLine = (raw: string, fromStderr = false): void => {
    const line = raw.replace(ANSI_ESCAPES, '').replace(/\r$/, '');
    lines.push(line);
    text += `${line}\n`;
    if (fromStderr) stderrText += `${line}\n`;
    if (echo) {
      process.stdout.write(`[hb ${child.pid}] ${line}\n`);
    }
    opts.onLine?.(line);
    for (const listener of lineListeners) {
      listener(line);
    }
  };
  forEachLine(child.stdout, (line) => pushLine(line, false));
  forEachLine(child.stderr, (line) => pushLine(line, true));

  const closed = new Promise<void>((resolve) => {
    child.once('close', () => resolve());
  });
  const markExited = (status: ExitStatus): void => {
    if (exitStatus !== undefined) return;
    exitStatus = status;
    exitedAt = performance.now();
    liveChildren.delete(child);
    for (const listener of exitListeners) {
      listener();
    }
  };
  child.once('exit', (code, signal) => markExited({ code, signal }));
  child.once('error', (err) => {
    pushLine(`[e2e harness] spawn error: ${err.message}`);
    markExited({ code: null, signal: null });
  });

  const waitForLog = (re: RegExp, timeoutMs: number, waitOpts: WaitForLogOptions = {}): Promise<string> => {
    const pattern = compile(re);
    const existing = lines.slice(waitOpts.fromLine ?? 0).find((line) => pattern.test(line));
    if (existing !== undefined) return Promise.resolve(existing);
    if (exitStatus !== undefined) {
      return Promise.reject(
        new Error(`Homebridge exited (${JSON.stringify(exitStatus)}) before logging ${String(re)}. Log:\n${tail(text)}`),
      );
    }
    return new Promise<string>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        lineListeners.delete(onLine);
        exitListeners.delete(onExit);
      };
      const onLine = (line: string): void => {
        if (pattern.test(line)) {
          cleanup();
          resolve(line);
        }
      };
      const onExit = (): void => {
        // Let the last buffered output arrive before giving up on it.
        void closed.then(() => {
          const late = lines.slice(waitOpts.fromLine ?? 0).find((line) => pattern.test(line));
          cleanup();
          if (late !== undefined) resolve(late);
          else reject(new Error(`Homebridge exited (${JSON.stringify(exitStatus)}) before logging ${String(re)}. Log:\n${tail(text)}`));
        });
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`Homebridge did not log ${String(re)} within ${timeoutMs} ms. Log:\n${tail(text)}`));
      }, timeoutMs);
      lineListeners.add(onLine);
      exitListeners.add(onExit);
    });
  };

  const waitForExit = async (timeoutMs: number): Promise<ExitStatus> => {
    if (exitStatus === undefined) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`Homebridge still running after ${timeoutMs} ms. Log:\n${tail(text)}`)), timeoutMs);
      });
      try {
        await Promise.race([closed, timeout]);
      } finally {
        clearTimeout(timer);
      }
    }
    await closed;
    return exitStatus ?? { code: null, signal: null };
  };

  let stopping: Promise<StopResult> | undefined;
  const stopRecords = (): Promise<ProcessExitRecord[]> => (watchStop ? readStopRecords(storageDir) : Promise.resolve([]));
  const mainRecord = async (): Promise<ProcessExitRecord | undefined> =>
    (await stopRecords()).find((record) => record.pid === child.pid && record.role === 'main');
  const cleanupPluginDir = async (): Promise<void> => {
    if (ownPluginDir) await rm(pluginDir, { recursive: true, force: true });
  };
  const stop = (): Promise<StopResult> => {
    stopping ??= (async () => {
      if (exitStatus !== undefined) {
        await closed;
        await cleanupPluginDir();
        return { ...exitStatus, ms: 0, killed: false, exitedByItself: false, main: await mainRecord() };
      }
      const termAt = performance.now();
      let killed = false;
      child.kill('SIGTERM');
      const killTimer = setTimeout(() => {
        killed = true;
        pushLine(`[e2e harness] no exit ${STOP_KILL_AFTER_MS} ms after SIGTERM: sending SIGKILL`);
        child.kill('SIGKILL');
      }, STOP_KILL_AFTER_MS);
      try {
        await closed;
      } finally {
        clearTimeout(killTimer);
      }
      await cleanupPluginDir();
      // Set by the 'exit' handler while this awaited (read through a call: narrowing cannot see that).
      const status = exitStatusNow() ?? { code: null, signal: null };
      const main = await mainRecord();
      // SIGKILL leaves code null: no `killed` check needed.
      const exitedByItself = status.code === 0 && main !== undefined && !main.forced && leftOpen(main).length === 0;
      return { ...status, ms: Math.round(exitedAt - termAt), killed, exitedByItself, main };
    })();
    return stopping;
  };

  let readyLine: string;
  try {
    // The main bridge's own line: a child bridge prints the same line with its name, and may come first.
    readyLine = await waitForLog(bridgeReadyLine(identity.name), opts.bootTimeoutMs ?? BOOT_TIMEOUT_MS);
  } catch (err) {
    await stop();
    throw err;
  }
  const bootMs = Math.round(performance.now() - startedAt);
  const announcedPort = Number(READY_LINE.exec(readyLine)?.[4]);
  if (announcedPort !== identity.port) {
    await stop();
    throw new Error(`Homebridge listens on ${announcedPort}, expected ${identity.port}. Log:\n${tail(text)}`);
  }

  return {
    ...identity,
    displayName: bridgeDisplayName(identity.name, identity.username),
    storageDir,
    pluginDir,
    version,
    pid: child.pid,
    bootMs,
    log: () => text,
    stderr: () => stderrText,
    lineCount: () => lines.length,
    waitForLog,
    stop,
    waitForExit,
    get exited() {
      return exitStatus;
    },
    stopRecords,
  };
}

/** A platform entry's `_bridge` block in config.json: Homebridge runs that entry on a child bridge of its own. */
export interface ChildBridgeConfig {
  username: string;
  port?: number;
  pin?: string;
  name?: string;
}

/** A running child bridge: its own HAP server, paired on its own, like any bridge. */
export interface ChildBridge extends BridgeIdentity {
  /** The bridge's HAP Name, as for the main bridge. */
  readonly displayName: string;
  /** The main bridge's storage dir: Homebridge keeps the child bridge's pairings and accessory cache there, under its username. */
  readonly storageDir: string;
}

function childBridgeConfig(entry: Record<string, unknown>): ChildBridgeConfig {
  const block = entry._bridge;
  if (typeof block !== 'object' || block === null || typeof (block as { username?: unknown }).username !== 'string') {
    throw new Error(`platform entry ${JSON.stringify(entry.name ?? entry.platform)} has no _bridge block with a username`);
  }
  return block as ChildBridgeConfig;
}

/**
 * Waits until the child bridge of a platform entry (one with a `_bridge` block) listens, and returns what a controller
 * needs to pair with it. Homebridge names it `_bridge.name`, else the entry's `name`, else the plugin's name, and sets
 * it up with `_bridge.pin`, else the main bridge's pin (1.11 and 2.1 alike).
 */
export async function waitForChildBridge(
  hb: HomebridgeProcess,
  entry: Record<string, unknown>,
  timeoutMs = BOOT_TIMEOUT_MS,
): Promise<ChildBridge> {
  const bridge = childBridgeConfig(entry);
  const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  const name = nonEmpty(bridge.name) ?? nonEmpty(entry.name) ?? PLUGIN_NAME;
  const readyLine = await hb.waitForLog(bridgeReadyLine(name), timeoutMs);
  const port = Number(READY_LINE.exec(readyLine)?.[4]);
  if (bridge.port !== undefined && port !== bridge.port) {
    throw new Error(`Child bridge "${name}" listens on ${port}, expected ${bridge.port}. Log:\n${tail(hb.log())}`);
  }
  const username = bridge.username.toUpperCase();
  return {
    name,
    username,
    port,
    pin: nonEmpty(bridge.pin) ?? hb.pin,
    displayName: bridgeDisplayName(name, username),
    storageDir: hb.storageDir,
  };
}

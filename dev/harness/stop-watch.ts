// Tells a clean stop of Homebridge from its forced one: a preload in every Homebridge process records, as it exits, whether Homebridge's own force-exit fired and what was still open.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Homebridge (1.11 and 2.x, main process and child bridges) calls `process.exit(128 + signal)` 5 s after SIGTERM,
 * whatever is still running: a plugin that leaks a timer or a socket stops "in time" all the same. 2.x unrefs that
 * timer, so a process whose plugins closed everything exits by itself (code 0) well before; 1.11 keeps it referenced,
 * so its process always lives the full 5 s and exits 143. The preload unrefs it on 1.11 too (as 2.x does), and the
 * orphan check 1.11's child bridges poll every 5 s (2.x listens for 'disconnect' instead), so both lines stop alike.
 * It changes nothing else: a plugin that leaves anything open still meets the force-exit, and the record says what.
 */
export const HOMEBRIDGE_FORCE_EXIT_MS = 5_000;

/** Resource types (`process.getActiveResourcesInfo()`) that are Homebridge's own plumbing: stdio, the IPC channel to a child bridge, the child bridge itself. */
export const HOMEBRIDGE_PLUMBING = new Set(['PipeWrap', 'ProcessWrap', 'TTYWrap']);

/** What one Homebridge process (the main bridge or a child bridge) recorded as it exited. */
export interface ProcessExitRecord {
  pid: number;
  /** `main` for Homebridge's own process, `child bridge` for a child bridge's. */
  role: 'main' | 'child bridge';
  /** The exit code (0 when the event loop emptied by itself). */
  code: number;
  /** Homebridge's force-exit timer fired: the process did not stop by itself within 5 s of SIGTERM. */
  forced: boolean;
  /** Resource types still open at exit (at the force-exit, before Homebridge's `process.exit`), Homebridge's plumbing included. */
  open: string[];
}

/** The preload's file name in the storage dir, and the file its records go to. */
const PRELOAD_FILE = 'e2e-stop-watch.cjs';
const RECORD_FILE = 'e2e-stop-watch.jsonl';

/** CommonJS, so `--require` loads it in Homebridge 1.11 (CommonJS) and 2.x (ESM) alike, in the main process and each child bridge (forks inherit NODE_OPTIONS). */
function preloadSource(recordFile: string): string {
  return `'use strict';
// Written by dev/harness/stop-watch.ts: see there.
const { appendFileSync } = require('node:fs');
const RECORD_FILE = ${JSON.stringify(recordFile)};
const FORCE_EXIT_MS = ${HOMEBRIDGE_FORCE_EXIT_MS};
const role = /childBridgeFork\\.js$/.test(process.argv[1] || '') ? 'child bridge' : 'main';
let forced = false;
let open;
const originalSetTimeout = globalThis.setTimeout;
const originalSetInterval = globalThis.setInterval;
if (role === 'child bridge') {
  // Homebridge 1.11's orphan check, set when the child bridge's module loads: 2.x has none (it listens for 'disconnect').
  globalThis.setInterval = function setInterval(callback, delay, ...args) {
    const timer = originalSetInterval.call(this, callback, delay, ...args);
    // The stack names the source file when Homebridge's source maps are on (1.11): childBridgeFork.ts.
    if (delay === FORCE_EXIT_MS && /childBridgeFork\\.[jt]s/.test(String(new Error().stack))) timer.unref();
    return timer;
  };
}
let armed = false;
process.on('SIGTERM', () => {
  if (armed) return;
  armed = true;
  // Runs before Homebridge's own SIGTERM listener (registered later), which sets its force-exit timer next, synchronously.
  globalThis.setTimeout = function setTimeout(callback, delay, ...args) {
    if (delay !== FORCE_EXIT_MS || typeof callback !== 'function') return originalSetTimeout.call(this, callback, delay, ...args);
    globalThis.setTimeout = originalSetTimeout;
    const timer = originalSetTimeout.call(this, (...callbackArgs) => {
      forced = true;
      open = process.getActiveResourcesInfo();
      callback(...callbackArgs);
    }, delay, ...args);
    timer.unref();
    return timer;
  };
  setImmediate(() => {
    globalThis.setTimeout = originalSetTimeout;
  });
});
process.on('exit', (code) => {
  const record = { pid: process.pid, role, code, forced, open: open || process.getActiveResourcesInfo() };
  try {
    appendFileSync(RECORD_FILE, JSON.stringify(record) + '\\n');
  } catch {
    // The storage dir is gone: nothing to record into.
  }
});
`;
}

/** Writes the preload into the storage dir (and clears earlier records); returns the NODE_OPTIONS that load it. */
export async function installStopWatch(storageDir: string, nodeOptions: string | undefined): Promise<string> {
  const preload = path.join(storageDir, PRELOAD_FILE);
  const records = path.join(storageDir, RECORD_FILE);
  await writeFile(preload, preloadSource(records));
  await rm(records, { force: true });
  return [nodeOptions, `--require ${JSON.stringify(preload)}`].filter((part) => part !== undefined && part !== '').join(' ');
}

/** Every record written since `installStopWatch`: one per Homebridge process that exited (none for a process killed by SIGKILL). */
export async function readStopRecords(storageDir: string): Promise<ProcessExitRecord[]> {
  let text: string;
  try {
    text = await readFile(path.join(storageDir, RECORD_FILE), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ProcessExitRecord);
}

/** What a record shows open beyond Homebridge's own plumbing: what the plugin (or Homebridge) left running. */
export function leftOpen(record: ProcessExitRecord): string[] {
  return record.open.filter((type) => !HOMEBRIDGE_PLUMBING.has(type));
}

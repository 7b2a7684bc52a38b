// The bench's instruments: order statistics, pauses, the machine, a process's CPU and memory (after a GC too), request and HomeKit event timestamps, HAP's event hold.
import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism, cpus, loadavg, release, type as osType } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

import { CURRENT_DOOR_STATE } from '../harness/hap-types.js';
import { REPO_ROOT } from '../harness/homebridge-process.js';
import type { HomebridgeProcess } from '../harness/homebridge-process.js';
import type { CharacteristicEvent, CharRef, HomeKitController } from '../harness/homekit-controller.js';
import type { SimDoorState } from '../simulator/server.js';

// --- Order statistics of a set of samples: median, p90/p99, min/max and the interquartile spread.

export interface Summary {
  /** Number of samples. */
  n: number;
  min: number;
  median: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  /** Interquartile range (p75 - p25): how widely the middle half of the samples spreads. */
  iqr: number;
}

/** The q-quantile (0..1) of ascending `sorted`, interpolated linearly between neighbours (numpy's default). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) {
    return Number.NaN;
  }
  const position = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const below = Math.floor(position);
  const lower = sorted[below] ?? Number.NaN;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] ?? lower;
  return lower + (upper - lower) * (position - below);
}

/** Summary of `samples` (any order); every figure is NaN when there is none. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    n: sorted.length,
    min: sorted[0] ?? Number.NaN,
    median: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.length > 0 ? total / sorted.length : Number.NaN,
    iqr: quantile(sorted, 0.75) - quantile(sorted, 0.25),
  };
}

/** `run` timed `runs` times in process after `warmUp` untimed runs (so the JIT has compiled it before any run counts). */
export function timeRuns(run: () => unknown, runs: number, warmUp: number): Summary {
  for (let i = 0; i < warmUp; i += 1) run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return summarize(samples);
}

// --- Pauses: a plain delay, a random one, and "until this performance.now() instant".

export function sleep(ms: number): Promise<void> {
  return delay(Math.max(0, ms));
}

/** A whole number of ms, uniform in [minMs, maxMs]. */
export function randomBetween(minMs: number, maxMs: number): number {
  return Math.round(minMs + Math.random() * (maxMs - minMs));
}

export function sleepUntil(perfMs: number): Promise<void> {
  return sleep(perfMs - performance.now());
}

// --- The service's door states, the opposite of each, and the CurrentDoorState value HomeKit shows for each.

export function opposite(state: SimDoorState): SimDoorState {
  return state === 'OPEN' ? 'CLOSED' : 'OPEN';
}

/** CurrentDoorState a controller sees for a door the service reports in `state`. */
export function homeKitCurrent(state: SimDoorState): number {
  return state === 'OPEN' ? CURRENT_DOOR_STATE.OPEN : CURRENT_DOOR_STATE.CLOSED;
}

// --- Describes the machine the bench ran on: CPUs, CPU model, load, OS and Node version.

export interface MachineInfo {
  /** CPUs this process may use (nproc). */
  cpuCount: number;
  cpuModel: string;
  /** 1, 5 and 15 minute load averages when the bench started. */
  loadAverage: [number, number, number];
  os: string;
  node: string;
}

/** The model name of the first CPU in /proc/cpuinfo, falling back to what Node reports. */
function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) {
      return match[1].trim();
    }
  } catch {
    // Not Linux: Node's own reading below.
  }
  return cpus()[0]?.model.trim() ?? 'unknown';
}

/** 1, 5 and 15 minute load averages now. */
export function loadAverage(): [number, number, number] {
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  return [one, five, fifteen];
}

export function machineInfo(): MachineInfo {
  return {
    cpuCount: availableParallelism(),
    cpuModel: cpuModel(),
    loadAverage: loadAverage(),
    os: `${osType()} ${release()}`,
    node: process.version,
  };
}

// --- Reads the CPU time (user + system) a process has used so far from /proc/<pid>/stat.

/** USER_HZ, the unit of /proc's utime and stime; 100 on Linux whenever `getconf CLK_TCK` cannot say. */
const FALLBACK_CLOCK_TICKS_PER_S = 100;
/** In /proc/<pid>/stat after the `(comm)` field: index 0 is field 3 (state), so utime (field 14) is 11 and stime (15) is 12. */
const UTIME_INDEX = 11;
const STIME_INDEX = 12;

let ticksPerS: number | undefined;

/** Clock ticks per second of utime/stime, asked once. */
export function clockTicksPerS(): number {
  if (ticksPerS === undefined) {
    try {
      const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
      ticksPerS = Number.isFinite(value) && value > 0 ? value : FALLBACK_CLOCK_TICKS_PER_S;
    } catch {
      ticksPerS = FALLBACK_CLOCK_TICKS_PER_S;
    }
  }
  return ticksPerS;
}

/** utime + stime in ms (resolution one tick, 10 ms at 100 Hz); undefined when the process is gone or /proc is missing. */
export function readCpuTimeMs(pid: number | undefined): number | undefined {
  if (pid === undefined) {
    return undefined;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[UTIME_INDEX]) + Number(fields[STIME_INDEX]);
    return Number.isFinite(ticks) ? (ticks * 1000) / clockTicksPerS() : undefined;
  } catch {
    return undefined;
  }
}

// --- Reads a process's resident memory (VmRSS) and its peak (VmHWM) from /proc/<pid>/status.

export interface ProcessMemory {
  /** Resident set size now, in KiB. */
  rssKiB: number;
  /** Highest resident set size so far ("high water mark"), in KiB. */
  peakKiB: number;
}

function field(status: string, name: string): number | undefined {
  const match = new RegExp(`^${name}:\\s*(\\d+)\\s*kB$`, 'm').exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** Undefined when the process is gone or /proc is not there (not Linux). */
export function readProcessMemory(pid: number | undefined): ProcessMemory | undefined {
  if (pid === undefined) {
    return undefined;
  }
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKiB = field(status, 'VmRSS');
    const peakKiB = field(status, 'VmHWM');
    return rssKiB === undefined || peakKiB === undefined ? undefined : { rssKiB, peakKiB };
  } catch {
    return undefined;
  }
}

// --- Asks a Homebridge started with the memory probe for its memory right after a full garbage collection.

/** First word of the probe's line in the Homebridge log. */
export const MEMORY_PROBE_MARK = 'bench-memory-probe';
/** Longest wait for the probe's line after the signal. */
const PROBE_WAIT_MS = 5_000;
const BYTES_PER_KIB = 1024;
const PROBE_FILE = fileURLToPath(new URL('./memory-probe.js', import.meta.url));

export interface GcMemory {
  /** VmRSS read from /proc right after the collection, KiB. */
  rssKiB: number;
  /** V8's heap in use after the collection (live JavaScript objects), KiB. */
  heapUsedKiB: number;
  /** V8's heap as committed from the OS (used or not), KiB: V8 gives the unused part back only by and by. */
  heapTotalKiB: number;
  /** Memory of C++ objects bound to JavaScript ones (buffers included), KiB. */
  externalKiB: number;
}

/** Environment for a Homebridge to be probed: gc() exposed, the probe preloaded; NODE_OPTIONS already set is kept. */
export function memoryProbeEnv(): Record<string, string> {
  const options = [process.env.NODE_OPTIONS, '--expose-gc', `--import=${pathToFileURL(PROBE_FILE).href}`];
  return { NODE_OPTIONS: options.filter(Boolean).join(' '), BENCH_MEMORY_PROBE_MARK: MEMORY_PROBE_MARK };
}

interface ProbeLine {
  collected?: boolean;
  heapUsed?: number;
  heapTotal?: number;
  external?: number;
}

/**
 * Undefined when the process is gone, was not started with the probe, or gc() was not exposed. Takes the part of a rig
 * it reads, not the rig, so that rig.ts (which uses these probes) is not imported back.
 */
export async function readGcMemory(rig: { hb: HomebridgeProcess; memoryProbe: boolean }): Promise<GcMemory | undefined> {
  const { hb } = rig;
  // Without the probe's handler, SIGUSR2 would end the process.
  if (!rig.memoryProbe || hb.pid === undefined || hb.exited !== undefined) {
    return undefined;
  }
  const fromLine = hb.lineCount();
  process.kill(hb.pid, 'SIGUSR2');
  let line: string;
  try {
    line = await hb.waitForLog(new RegExp(`^${MEMORY_PROBE_MARK} `), PROBE_WAIT_MS, { fromLine });
  } catch {
    return undefined;
  }
  const rssKiB = readProcessMemory(hb.pid)?.rssKiB;
  const probe = JSON.parse(line.slice(MEMORY_PROBE_MARK.length + 1)) as ProbeLine;
  const { collected, heapUsed, heapTotal, external } = probe;
  if (!collected || rssKiB === undefined || heapUsed === undefined || heapTotal === undefined || external === undefined) {
    return undefined;
  }
  const kib = (bytes: number): number => bytes / BYTES_PER_KIB;
  return { rssKiB, heapUsedKiB: kib(heapUsed), heapTotalKiB: kib(heapTotal), externalKiB: kib(external) };
}

// --- Timestamps (performance.now()) every request the in-process simulators receive and answer, via Node's http diagnostics channels.

/** Published when a server has parsed a request's headers (before its body is read). */
const REQUEST_START = 'http.server.request.start';
/** Published when a server's answer has been handed to the OS in full. */
const RESPONSE_FINISH = 'http.server.response.finish';
/** The contract's sync endpoint; the plugin sends one GET per poll. */
export const SYNC_PATH_SUFFIX = '/endpoints/sync';
/** The toggle history's path (the simulator also takes it with a trailing slash, which the plugin never sends). */
export const HISTORY_PATH_SUFFIX = '/endpoints/toggle-history';
/** The contract's toggle endpoint (the plugin uses the singular `endpoint/toggle`). */
export const TOGGLE_PATH_SUFFIX = '/toggle';

export interface TimedRequest {
  /** Local port of the server that got it: tells the simulators apart. */
  port: number;
  method: string;
  path: string;
  /** performance.now() when the request's headers were parsed. */
  startMs: number;
  /** performance.now() when the whole answer was handed to the OS; undefined until then. */
  finishMs: number | undefined;
  status: number | undefined;
  /** Bytes of the whole answer on the wire (status line, headers, body as sent); undefined until answered. */
  bytes: number | undefined;
  /** The request asked for gzip (the simulator then compresses its answer). */
  gzipAsked: boolean;
}

interface ServerMessage {
  request: IncomingMessage;
  response: ServerResponse;
}

interface Pending {
  timed: TimedRequest;
  /** The socket's bytesWritten when the request came: one request at a time per connection (no pipelining). */
  bytesBefore: number;
}

type FinishListener = (request: TimedRequest) => void;

const pathOf = (request: IncomingMessage): string => (request.url ?? '/').split('?')[0]?.replace(/\/+$/, '') ?? '/';

export class SimRequestClock {
  private readonly all: TimedRequest[] = [];
  private readonly byResponse = new WeakMap<ServerResponse, Pending>();
  private readonly finishListeners = new Set<FinishListener>();
  private readonly onStart = (message: unknown): void => {
    const { request, response } = message as ServerMessage;
    const timed: TimedRequest = {
      port: request.socket.localPort ?? 0,
      method: request.method ?? '',
      path: pathOf(request),
      startMs: performance.now(),
      finishMs: undefined,
      status: undefined,
      bytes: undefined,
      gzipAsked: /\bgzip\b/i.test(request.headers['accept-encoding'] ?? ''),
    };
    this.all.push(timed);
    this.byResponse.set(response, { timed, bytesBefore: request.socket.bytesWritten });
  };
  private readonly onFinish = (message: unknown): void => {
    const { response } = message as ServerMessage;
    const pending = this.byResponse.get(response);
    if (pending === undefined) {
      return;
    }
    const { timed } = pending;
    timed.finishMs = performance.now();
    timed.status = response.statusCode;
    // The simulator sets its headers with writeHead, which getHeader() does not see; the socket's count does.
    timed.bytes = response.socket ? response.socket.bytesWritten - pending.bytesBefore : undefined;
    for (const listener of [...this.finishListeners]) {
      listener(timed);
    }
  };

  /** Starts recording; `stop()` must follow (the bench registers it as a clean-up step). */
  start(): void {
    subscribe(REQUEST_START, this.onStart);
    subscribe(RESPONSE_FINISH, this.onFinish);
  }

  stop(): void {
    unsubscribe(REQUEST_START, this.onStart);
    unsubscribe(RESPONSE_FINISH, this.onFinish);
    this.finishListeners.clear();
  }

  /** Requests to the server on `port` whose path ends with `pathSuffix`, oldest first. */
  requests(port: number, pathSuffix = ''): TimedRequest[] {
    return this.all.filter((r) => r.port === port && r.path.endsWith(pathSuffix));
  }

  /** Resolves with the first answered request matching `match` (already answered ones count); undefined after `timeoutMs`. */
  waitForAnswered(match: (request: TimedRequest) => boolean, timeoutMs: number): Promise<TimedRequest | undefined> {
    const done = this.all.find((r) => r.finishMs !== undefined && match(r));
    if (done !== undefined) {
      return Promise.resolve(done);
    }
    return new Promise((resolve) => {
      const listener: FinishListener = (request) => {
        if (match(request)) {
          clearTimeout(timer);
          this.finishListeners.delete(listener);
          resolve(request);
        }
      };
      const timer = setTimeout(() => {
        this.finishListeners.delete(listener);
        resolve(undefined);
      }, timeoutMs);
      this.finishListeners.add(listener);
    });
  }
}

// --- Timestamps the HomeKit events a controller receives for doors' CurrentDoorState, and waits for an expected one.

export interface EventArrival {
  /** performance.now() when the controller received the event. */
  perfMs: number;
  /** Date.now() at the same moment (to compare with the simulator's request log). */
  epochMs: number;
}

interface Waiter {
  ref: CharRef;
  value: unknown;
  resolve(arrival: EventArrival): void;
}

export interface ExpectedEvent {
  /** Resolves with the arrival, or undefined when none came within `timeoutMs`. */
  wait(timeoutMs: number): Promise<EventArrival | undefined>;
}

export class DoorEventClock {
  private readonly waiters = new Set<Waiter>();

  /** Use start(): a clock is only useful once subscribed. */
  private constructor() {
    this.waiters.clear();
  }

  /** Subscribes the controller to `refs`; events are timestamped the moment hap-controller hands them over. */
  static async start(controller: HomeKitController, refs: CharRef[]): Promise<DoorEventClock> {
    const clock = new DoorEventClock();
    await controller.subscribe(refs, (event) => clock.onEvent(event));
    return clock;
  }

  /** Call before causing the change, so an early event cannot be missed. */
  expect(ref: CharRef, value: unknown): ExpectedEvent {
    let arrived: EventArrival | undefined;
    let wake: ((arrival: EventArrival | undefined) => void) | undefined;
    const waiter: Waiter = {
      ref,
      value,
      resolve: (arrival) => {
        this.waiters.delete(waiter);
        arrived = arrival;
        wake?.(arrival);
      },
    };
    this.waiters.add(waiter);
    return {
      wait: (timeoutMs) =>
        arrived !== undefined
          ? Promise.resolve(arrived)
          : new Promise((resolve) => {
              const timer = setTimeout(() => {
                this.waiters.delete(waiter);
                resolve(undefined);
              }, timeoutMs);
              wake = (arrival) => {
                clearTimeout(timer);
                resolve(arrival);
              };
            }),
    };
  }

  private onEvent(event: CharacteristicEvent): void {
    const arrival: EventArrival = { perfMs: performance.now(), epochMs: Date.now() };
    for (const waiter of [...this.waiters]) {
      // HAP sends a boolean as true/false or as 1/0, as the server chooses.
      const same = waiter.value === event.value || (typeof waiter.value === 'boolean' && Number(waiter.value) === event.value);
      if (waiter.ref.aid === event.aid && waiter.ref.iid === event.iid && same) {
        waiter.resolve(arrival);
      }
    }
  }
}

// --- Finds, in the installed HAP-NodeJS that Homebridge runs, how long it holds characteristic events before sending them.

/** Where HAP-NodeJS keeps its per-connection event queue and the characteristics it sends at once. */
const EVENTED_HTTP_FILE = path.join('dist', 'lib', 'util', 'eventedhttp.js');
const ACCESSORY_FILE = path.join('dist', 'lib', 'Accessory.js');
/** `this.eventsTimer = setTimeout(this.handleEventsTimeout.bind(this), 250);` in HAPConnection.sendEvent. */
const EVENTS_TIMER = /eventsTimer\s*=\s*setTimeout\(\s*this\.handleEventsTimeout\.bind\(this\)\s*,\s*(\d+)\s*\)/;
/** `var immediateDelivery = uuid === Characteristic.ButtonEvent.UUID || ...;` in Accessory.handleCharacteristicChangeEvent. */
const IMMEDIATE_DELIVERY = /immediateDelivery\s*=\s*([^;]+);/;
const CHARACTERISTIC_NAME = /Characteristic\.(\w+)\.UUID/g;

export interface HapCoalescing {
  /** e.g. `hap-nodejs` or `@homebridge/hap-nodejs`. */
  packageName: string;
  version: string;
  /** Repo-relative file holding the timer. */
  file: string;
  /** How long an event waits for others on the same connection; undefined if the source no longer matches. */
  delayMs: number | undefined;
  /** Characteristics sent at once instead (they also flush whatever is queued). */
  immediate: string[];
}

interface Manifest {
  version?: string;
  dependencies?: Record<string, string>;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** Looks the HAP-NodeJS dependency of the Homebridge in `homebridgeDir` up the way Node would (nested first, then hoisted). */
export function findHapCoalescing(homebridgeDir: string): HapCoalescing {
  const packageName =
    Object.keys(readManifest(homebridgeDir).dependencies ?? {}).find((name) => name.endsWith('hap-nodejs')) ?? 'hap-nodejs';
  const candidates = [path.join(homebridgeDir, 'node_modules', packageName), path.join(path.dirname(homebridgeDir), packageName)];
  for (const dir of candidates) {
    let source: string;
    try {
      source = readFileSync(path.join(dir, EVENTED_HTTP_FILE), 'utf8');
    } catch {
      continue;
    }
    const delay = EVENTS_TIMER.exec(source)?.[1];
    let immediate: string[] = [];
    try {
      const list = IMMEDIATE_DELIVERY.exec(readFileSync(path.join(dir, ACCESSORY_FILE), 'utf8'))?.[1] ?? '';
      immediate = [...list.matchAll(CHARACTERISTIC_NAME)].map((match) => match[1] ?? '').filter(Boolean);
    } catch {
      immediate = [];
    }
    return {
      packageName,
      version: readManifest(dir).version ?? 'unknown',
      file: path.relative(REPO_ROOT, path.join(dir, EVENTED_HTTP_FILE)),
      delayMs: delay === undefined ? undefined : Number(delay),
      immediate,
    };
  }
  return { packageName, version: 'not found', file: '', delayMs: undefined, immediate: [] };
}

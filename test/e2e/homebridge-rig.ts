// One rig for the e2e files: the simulator, a real Homebridge with the plugin and a HomeKit controller paired like an iPhone, started before the file's (or describe block's) tests and stopped after them; restarts; and what a clean stop is.
import { afterAll, beforeAll, expect } from 'vitest';

import { leftOpen, PLATFORM_ALIAS, startHomebridge } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess, ProcessExitRecord, StartHomebridgeOptions, StopResult } from '../../dev/harness/homebridge-process.js';
import { pairController } from '../../dev/harness/homekit-controller.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import { AccessControlSimulator } from '../../dev/simulator/server.js';
import type { SimulatorOptions } from '../../dev/simulator/server.js';
import { tearDown } from './teardown.js';

/** The smallest poll interval the config allows, so what the service changes shows up quickly in real time. */
export const E2E_POLL_INTERVAL_S = 5;

/**
 * The plugin's platform entry as the e2e files write it: named "Access Control", against the simulator at `baseUrl`,
 * polling every E2E_POLL_INTERVAL_S; `options` add to it or replace any of that.
 */
export function platformEntry(baseUrl: string, accessToken: string, options: Record<string, unknown> = {}): Record<string, unknown> {
  return { platform: PLATFORM_ALIAS, name: 'Access Control', accessToken, baseUrl, pollInterval: E2E_POLL_INTERVAL_S, ...options };
}

/** From Homebridge listening to the plugin's first door in HomeKit, or to a log line the rig waits for: a sync or two on a shared machine. */
export const RIG_WAIT_MS = 25_000;

/** What the rig passes to `startHomebridge` besides the platforms and the storage. */
export type HomebridgeExtras = Omit<StartHomebridgeOptions, 'platforms' | 'storageDir'>;

export interface HomebridgeRigOptions {
  /** The simulator, started first (its `baseUrl` then goes into the platform entries). */
  simulator: SimulatorOptions;
  /** The `platforms` entries of config.json, from the running simulator. */
  platforms: (sim: AccessControlSimulator) => Record<string, unknown>[];
  /** Called once the simulator runs, before Homebridge starts (to point its webhooks at the listener, say). */
  beforeHomebridge?: (sim: AccessControlSimulator) => void | Promise<void>;
  /** Anything else for `startHomebridge` (a bridge port, a file limit…), at every start; a function is called then, with the simulator. */
  homebridge?: HomebridgeExtras | ((sim: AccessControlSimulator) => HomebridgeExtras);
  /** A log line to wait for before pairing (the webhook listener's, say). */
  readyLine?: RegExp;
  /** Pair a controller (default true); false leaves `controller` unset (a file that only reads the log). */
  pair?: boolean;
  /** The door (its id, the accessory's serial number) the controller waits for after pairing: the plugin's doors are in HomeKit. */
  door?: string;
  /** Waits for the ready line and the door; default RIG_WAIT_MS. */
  waitMs?: number;
}

export interface RestartOptions {
  /** The platforms of the new start; default the rig's. */
  platforms?: Record<string, unknown>[];
  /** What must hold of the stop, before the new start (which clears the stop watch's records); default `expectCleanStop`. */
  checkStop?: (stopped: StopResult, stoppedHomebridge: HomebridgeProcess) => void | Promise<void>;
}

export interface HomebridgeRig {
  readonly sim: AccessControlSimulator;
  /** The Homebridge running now (a new one after each `restart`). */
  readonly hb: HomebridgeProcess;
  /** The paired controller (throws with `pair: false`). */
  readonly controller: HomeKitController;
  /** Everything every Homebridge of this rig logged, the one running now last. */
  wholeLog(): string;
  /**
   * Stops Homebridge (asserting a clean stop, or what `checkStop` asserts), starts it again on the same storage (the same
   * bridge, pairings and accessory cache) with `platforms` (default: the rig's), reconnects the controller and waits
   * for the door again; resolves with how the stop went.
   */
  restart(opts?: RestartOptions): Promise<StopResult>;
}

/**
 * Registers the hooks where it is called, as `useUiHarness()` does for the page: before the tests, the simulator,
 * then Homebridge, then the controller paired (and the ready line and the door waited for); after them, all of it
 * stopped in reverse order and the storage removed. Returns the running rig; reading it before the hooks ran throws.
 */
export function useHomebridge(opts: HomebridgeRigOptions): HomebridgeRig {
  const waitMs = opts.waitMs ?? RIG_WAIT_MS;
  let sim: AccessControlSimulator | undefined;
  let hb: HomebridgeProcess | undefined;
  let controller: HomeKitController | undefined;
  let earlierLogs = '';

  const running = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the e2e rig has no ${what} (see its beforeAll)`);
    return value;
  };
  const start = async (platforms: Record<string, unknown>[], storageDir?: string): Promise<HomebridgeProcess> => {
    const extras = typeof opts.homebridge === 'function' ? opts.homebridge(running(sim, 'simulator')) : opts.homebridge;
    hb = await startHomebridge({ watchStop: true, ...extras, platforms, ...(storageDir === undefined ? {} : { storageDir }) });
    if (opts.readyLine) await hb.waitForLog(opts.readyLine, waitMs);
    return hb;
  };
  const awaitDoor = async (): Promise<void> => {
    if (controller && opts.door !== undefined) await controller.waitForAccessory(opts.door, waitMs);
  };

  beforeAll(async () => {
    sim = new AccessControlSimulator(opts.simulator);
    await sim.start();
    await opts.beforeHomebridge?.(sim);
    const first = await start(opts.platforms(sim));
    if (opts.pair !== false) controller = await pairController(first);
    await awaitDoor();
  });

  afterAll(() => tearDown({ controllers: [controller], hb, sim }));

  return {
    get sim() {
      return running(sim, 'simulator');
    },
    get hb() {
      return running(hb, 'Homebridge');
    },
    get controller() {
      return running(controller, 'controller');
    },
    wholeLog: () => earlierLogs + (hb?.log() ?? ''),
    async restart({ platforms, checkStop = expectCleanStop } = {}) {
      const before = running(hb, 'Homebridge');
      const stopped = await before.stop();
      earlierLogs += before.log();
      await checkStop(stopped, before);
      const now = await start(platforms ?? opts.platforms(running(sim, 'simulator')), before.storageDir);
      if (controller) {
        await controller.reconnect(now);
        await awaitDoor();
      }
      return stopped;
    },
  };
}

/**
 * Homebridge stopped cleanly: its process exited by itself after SIGTERM, with nothing left open, before Homebridge's
 * own force-exit 5 s later (which would hide a plugin that leaks a timer, a socket or a server: the 12 s budget of the
 * plugin checker cannot fail). The stop watch (dev/harness/stop-watch.ts) records how each process ended.
 */
export function expectCleanStop(stopped: StopResult): void {
  expect({
    killed: stopped.killed,
    code: stopped.code,
    forceExit: stopped.main?.forced,
    leftOpen: stopped.main ? leftOpen(stopped.main) : 'no record from the stop watch',
  }).toEqual({ killed: false, code: 0, forceExit: false, leftOpen: [] });
  expect(stopped.exitedByItself).toBe(true);
}

/**
 * A Homebridge with child bridges: the main process waits for each child bridge, which waits on its IPC channel to the
 * main process until Homebridge's force-exit (1.11 and 2.4 alike: Homebridge's design, not a plugin's), so neither
 * exits by itself. What must hold instead: every process, the main one and each child bridge, held nothing but that
 * plumbing (stdio and IPC pipes, the child processes) when it exited. Resolves with the records, main one first.
 */
export async function expectOnlyHomebridgePlumbingLeft(hb: HomebridgeProcess, childBridges: number): Promise<ProcessExitRecord[]> {
  // A child bridge exits a moment after the main process (its parent's channel closes, or its own force-exit fires).
  await expect.poll(async () => (await hb.stopRecords()).length, { timeout: 10_000 }).toBe(1 + childBridges);
  const records = await hb.stopRecords();
  expect(records.map((record) => ({ role: record.role, leftOpen: leftOpen(record) })).sort((a, b) => a.role.localeCompare(b.role))).toEqual(
    [...Array.from({ length: childBridges }, () => ({ role: 'child bridge', leftOpen: [] })), { role: 'main', leftOpen: [] }],
  );
  return records;
}

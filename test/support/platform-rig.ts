// The platform booted on the Homebridge double, with a manual clock and the log double, and a way to run its next syncs:
// what every system test starts from.
import { afterEach } from 'vitest';

import type { PlatformRuntime } from '../../src/platform.js';
import type { AccessControlPlatform } from '../../src/platform.js';
import { PLATFORM_NAME } from '../../src/settings.js';
import { HomebridgeDouble, ManualClock } from './homebridge-double.js';
import { captureLog } from './log.js';
import type { CapturedLog } from './log.js';

export interface PlatformRig {
  api: HomebridgeDouble;
  clock: ManualClock;
  log: CapturedLog;
  platform: AccessControlPlatform;
  /**
   * Runs the next scheduled sync `times` times: moves the clock to when it is due, then waits for it to finish.
   * Resolves with the simulated milliseconds the plugin waited for them.
   */
  poll: (times?: number) => Promise<number>;
}

/** What a test may hand the platform instead of a fresh one: a double holding a saved cache, a clock, a log, a runtime. */
export interface BootOptions {
  api?: HomebridgeDouble;
  clock?: ManualClock;
  log?: CapturedLog;
  runtime?: PlatformRuntime;
}

/**
 * Boots the platform as Homebridge does, with `config` under `platform: 'AccessControl'`; runs no sync yet (`poll()` does).
 * `api` (a double holding a saved cache, for a restart), `clock` (one the simulator shares) and `runtime` as a test needs.
 */
export function bootPlatform(config: Record<string, unknown>, options: BootOptions = {}): PlatformRig {
  const { api = new HomebridgeDouble(), clock = new ManualClock(), log = captureLog(), runtime } = options;
  const platform = api.boot({ platform: PLATFORM_NAME, ...config }, log, clock, runtime);
  const poll = async (times = 1): Promise<number> => {
    let waited = 0;
    for (let i = 0; i < times; i += 1) {
      const due = clock.nextDueInMs ?? 0;
      clock.advance(due);
      waited += due;
      await platform.syncSettled();
    }
    return waited;
  };
  return { api, clock, log, platform, poll };
}

/**
 * The platforms a test file boots, shut down after each test (it registers the afterEach): push each one booted. Its
 * timers and listeners must not outlive the test that made them.
 */
export function shutDownAfterEach(): AccessControlPlatform[] {
  const running: AccessControlPlatform[] = [];
  afterEach(async () => {
    for (const platform of running.splice(0)) {
      await platform.shutdown();
    }
  });
  return running;
}

/** bootSynced's options: bootPlatform's, and the file's shutdown list. */
export interface SyncedOptions extends BootOptions {
  /** The list `shutDownAfterEach()` returned in the test file: the platform is shut down after the test. */
  running: AccessControlPlatform[];
  /** `false` boots only: the test runs the first sync itself, after what must come first (Matter's cache settling). */
  firstSync?: boolean;
}

/**
 * The platform booted against the simulator `sim` (its address as `baseUrl`; `config` holds the token the simulator was
 * started with and what the file adds), registered for shutdown after the test, its first sync run: what most system
 * tests start from.
 */
export async function bootSynced(
  sim: { readonly baseUrl: string },
  config: { accessToken: string } & Record<string, unknown>,
  options: SyncedOptions,
): Promise<PlatformRig> {
  const { running, firstSync = true, ...boot } = options;
  const rig = bootPlatform({ baseUrl: sim.baseUrl, ...config }, boot);
  running.push(rig.platform);
  if (firstSync) {
    await rig.poll();
  }
  return rig;
}

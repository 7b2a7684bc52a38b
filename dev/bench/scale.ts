// Measurements 5-8: sync and reconcile by account size, memory per door, an idle window (CPU, memory), and API requests per hour at idle.
import { performance } from 'node:perf_hooks';

import { optionSpec } from '../../src/option-catalog.js';
import { DEFAULT_RECONCILE_INTERVAL_S } from '../../src/settings.js';
import { syncBody } from '../simulator/contract.js';
import {
  DoorEventClock,
  HISTORY_PATH_SUFFIX,
  homeKitCurrent,
  opposite,
  readCpuTimeMs,
  readGcMemory,
  readProcessMemory,
  sleepUntil,
  summarize,
  SYNC_PATH_SUFFIX,
} from './probes.js';
import type { GcMemory, SimRequestClock, Summary, TimedRequest } from './probes.js';
import { SCALE_POLL_INTERVAL_S } from './rig.js';
import type { FirstWebhook, Rig, ScaleRig } from './rig.js';

// --- Measurement 5: for one account size, the sync as the simulator serves it, and a poll's trip to HomeKit for a door changed just before.

/** Measured polls per size. */
export const SYNC_SAMPLES = 6;
/** Changes made first and not counted (the plugin's first "changed outside HomeKit", JIT). */
export const SYNC_WARMUP = 1;
/** A change is made at least this long after the previous poll was answered: "just after a poll". */
export const CHANGE_AFTER_POLL_MS = 100;
/** Longest wait for the next poll: two intervals and slack. */
const POLL_WAIT_MS = SCALE_POLL_INTERVAL_S * 2_000 + 5_000;
/** A poll whose HomeKit event takes longer than this counts as missed. */
export const SYNC_EVENT_WAIT_MS = 5_000;
const CHANNEL = 'Keypad';

export interface SyncSample {
  /** The change → the next poll's headers parsed at the simulator. */
  waitForPollMs: number;
  /** That poll at the simulator: headers parsed → answer handed to the OS. */
  pollServedMs: number;
  /** That poll's headers parsed → the HomeKit event at the controller. */
  pollToHomeKitMs: number;
  /** The answer handed to the OS → the HomeKit event: the plugin's part plus HAP-NodeJS's event hold and delivery. */
  answerToHomeKitMs: number;
}

export interface SyncReconcileResult {
  doorCount: number;
  devices: number;
  /** The ready line → every door in HomeKit (the first sync registers them one by one). */
  doorsReadyMs: number;
  samples: SyncSample[];
  /** Measured polls that never came, or whose HomeKit event never came. */
  missed: number;
  /** Every poll seen during the phase: headers parsed → answer handed to the OS, at the simulator. */
  served: Summary;
  /** Size of the sync answer on the wire, headers included (median over the polls). */
  answerBytes: number;
  /** The plugin asked for gzip (the simulator then compresses). */
  answerGzip: boolean;
  /** The same answer as plain JSON, bytes. */
  answerJsonBytes: number;
  pollToHomeKit: Summary;
  answerToHomeKit: Summary;
  /** Time between consecutive polls minus the interval: the plugin schedules the next poll when a sync has been applied. */
  cycleOverhead: Summary;
}

export async function measureSyncReconcile(scale: ScaleRig, requests: SimRequestClock): Promise<SyncReconcileResult> {
  const { rig, doorCount } = scale;
  const door = rig.doors[0];
  if (!door) {
    throw new Error(`the ${doorCount}-door rig tracks no door`);
  }
  const isPollAfter =
    (afterMs: number) =>
    (r: TimedRequest): boolean =>
      r.port === rig.simPort && r.path.endsWith(SYNC_PATH_SUFFIX) && r.startMs > afterMs;
  const phaseStart = performance.now();
  const clock = await DoorEventClock.start(rig.controller, [door.current]);
  let previous = await requests.waitForAnswered(isPollAfter(phaseStart), POLL_WAIT_MS);
  const samples: SyncSample[] = [];
  for (let i = 0; i < SYNC_WARMUP + SYNC_SAMPLES && previous?.finishMs !== undefined; i += 1) {
    await sleepUntil(previous.finishMs + CHANGE_AFTER_POLL_MS);
    const state = opposite(rig.sim.getDoor(door.id)?.state ?? 'CLOSED');
    const expected = clock.expect(door.current, homeKitCurrent(state));
    const changedAt = performance.now();
    rig.sim.setDoorState(door.id, state, { channel: CHANNEL, silent: true });
    const poll = await requests.waitForAnswered(isPollAfter(changedAt), POLL_WAIT_MS);
    const arrival = poll === undefined ? undefined : await expected.wait(SYNC_EVENT_WAIT_MS);
    if (i >= SYNC_WARMUP && poll?.finishMs !== undefined && arrival !== undefined) {
      samples.push({
        waitForPollMs: poll.startMs - changedAt,
        pollServedMs: poll.finishMs - poll.startMs,
        pollToHomeKitMs: arrival.perfMs - poll.startMs,
        answerToHomeKitMs: arrival.perfMs - poll.finishMs,
      });
    }
    previous = poll;
  }
  const polls = requests.requests(rig.simPort, SYNC_PATH_SUFFIX).filter((r) => r.startMs >= phaseStart && r.finishMs !== undefined);
  const periods = polls.slice(1).map((r, k) => r.startMs - (polls[k]?.startMs ?? r.startMs) - SCALE_POLL_INTERVAL_S * 1000);
  const bytes = summarize(polls.map((r) => r.bytes ?? Number.NaN).filter(Number.isFinite));
  return {
    doorCount,
    devices: rig.sim.devices.length,
    doorsReadyMs: rig.doorsReadyMs,
    samples,
    // A poll that never came ends the loop early; a poll whose event never came is skipped.
    missed: SYNC_SAMPLES - samples.length,
    served: summarize(polls.map((r) => (r.finishMs ?? r.startMs) - r.startMs)),
    answerBytes: bytes.median,
    answerGzip: polls.some((r) => r.gzipAsked),
    answerJsonBytes: Buffer.byteLength(JSON.stringify(syncBody(rig.sim.devices))),
    pollToHomeKit: summarize(samples.map((s) => s.pollToHomeKitMs)),
    answerToHomeKit: summarize(samples.map((s) => s.answerToHomeKitMs)),
    cycleOverhead: summarize(periods),
  };
}

// --- Measurement 6: memory per door, the least-squares slope of Homebridge's memory over the account sizes (three readings of it).

export interface MemoryPoint {
  doorCount: number;
  kib: number;
}

export interface PerDoorFit {
  points: MemoryPoint[];
  /** The plugin with an account of no doors, KiB; undefined when it could not be read. */
  bareKiB: number | undefined;
  /** Least-squares slope over `points`, KiB per door. */
  slopeKiBPerDoor: number;
  /** Where the fitted line meets 0 doors, KiB (compare with bareKiB). */
  interceptKiB: number;
  /** Largest distance of a point from the line, KiB: how straight the line is. */
  worstResidualKiB: number;
}

export interface MemoryPerDoor {
  /** VmRSS, median over the idle window: what the process holds as it runs. */
  rss: PerDoorFit;
  /** VmRSS right after a forced full garbage collection. */
  rssAfterGc: PerDoorFit;
  /** V8 heap in use right after a forced full garbage collection: the live JavaScript objects. */
  heapAfterGc: PerDoorFit;
  /** VmRSS after the GC minus the V8 heap committed but unused: what the process holds once V8 has given that back. */
  settledRss: PerDoorFit;
}

/** Points with a missing reading (NaN) are left out. */
export function fitPerDoor(points: MemoryPoint[], bareKiB: number | undefined): PerDoorFit {
  const used = points.filter((p) => Number.isFinite(p.kib));
  const n = used.length;
  const meanX = used.reduce((sum, p) => sum + p.doorCount, 0) / n;
  const meanY = used.reduce((sum, p) => sum + p.kib, 0) / n;
  const sxy = used.reduce((sum, p) => sum + (p.doorCount - meanX) * (p.kib - meanY), 0);
  const sxx = used.reduce((sum, p) => sum + (p.doorCount - meanX) ** 2, 0);
  const slope = sxx > 0 ? sxy / sxx : Number.NaN;
  const intercept = meanY - slope * meanX;
  const worstResidualKiB = Math.max(...used.map((p) => Math.abs(p.kib - (intercept + slope * p.doorCount))));
  return { points: used, bareKiB, slopeKiBPerDoor: slope, interceptKiB: intercept, worstResidualKiB };
}

/** From the idle window's readings: the polling-only sized bridges make the line, the 0-door one is the baseline. */
export function memoryPerDoor(idle: IdleResult[]): MemoryPerDoor {
  const sized = idle.filter((r) => r.kind === 'sized');
  const bare = idle.find((r) => r.kind === 'bare');
  const fit = (read: (r: IdleResult) => number | undefined): PerDoorFit =>
    fitPerDoor(
      sized.map((r) => ({ doorCount: r.doorCount, kib: read(r) ?? Number.NaN })),
      bare && read(bare),
    );
  return {
    rss: fit((r) => r.rssKiB.median),
    rssAfterGc: fit((r) => r.afterGc?.rssKiB),
    heapAfterGc: fit((r) => r.afterGc?.heapUsedKiB),
    settledRss: fit((r) => r.afterGc && r.afterGc.rssKiB - (r.afterGc.heapTotalKiB - r.afterGc.heapUsedKiB)),
  };
}

// --- Watches idle Homebridges over one window: CPU time used, resident memory every few seconds (and after a full GC at the end), API requests.

/** Length of the idle window: as long as the poll baseline it runs alongside allows. */
export const IDLE_WINDOW_MS = 35_000;
/** Resident memory is read at the start and then this often. */
export const IDLE_MEMORY_EVERY_MS = 5_000;

export interface IdleTarget {
  label: string;
  /** `sized` and `bare` rigs poll only; they make the memory-per-door line. */
  kind: 'bare' | 'sized' | 'webhook';
  /** What drives its syncs, for the report (e.g. "polls every 5 s"). */
  schedule: string;
  rig: Rig;
}

export interface IdleResult {
  label: string;
  kind: IdleTarget['kind'];
  schedule: string;
  doorCount: number;
  windowMs: number;
  /** CPU time (user + system) Homebridge used in the window, ms. */
  cpuMs: number | undefined;
  /** cpuMs over the window: percent of one core. */
  cpuPercent: number | undefined;
  /** VmRSS readings over the window, KiB. */
  rssKiB: Summary;
  /** VmHWM at the end of the window: the most the process held so far (at boot, for the bigger accounts), KiB. */
  peakKiB: number | undefined;
  /** Read once the window is over (and its CPU time taken): memory right after a forced full GC. */
  afterGc: GcMemory | undefined;
  /** API requests its simulator got in the window, and how many of them were syncs. */
  requests: number;
  syncs: number;
}

/** Nothing is done to the rigs meanwhile; other phases may run on other rigs. */
export async function watchIdle(targets: IdleTarget[], requests: SimRequestClock, windowMs = IDLE_WINDOW_MS): Promise<IdleResult[]> {
  const startedAt = performance.now();
  const cpuBefore = targets.map((t) => readCpuTimeMs(t.rig.hb.pid));
  const rss: number[][] = targets.map(() => []);
  const readMemory = (): void =>
    targets.forEach((t, i) => {
      const kib = readProcessMemory(t.rig.hb.pid)?.rssKiB;
      if (kib !== undefined) rss[i]?.push(kib);
    });
  for (let at = startedAt; at < startedAt + windowMs; at += IDLE_MEMORY_EVERY_MS) {
    await sleepUntil(at);
    readMemory();
  }
  await sleepUntil(startedAt + windowMs);
  const endedAt = performance.now();
  readMemory();
  const elapsedMs = endedAt - startedAt;
  const cpuAfter = targets.map((t) => readCpuTimeMs(t.rig.hb.pid));
  const peaks = targets.map((t) => readProcessMemory(t.rig.hb.pid)?.peakKiB);
  const afterGc = await Promise.all(targets.map((t) => readGcMemory(t.rig)));
  return targets.map((t, i) => {
    const before = cpuBefore[i];
    const after = cpuAfter[i];
    const cpuMs = before === undefined || after === undefined ? undefined : after - before;
    const inWindow = requests.requests(t.rig.simPort).filter((r) => r.startMs >= startedAt && r.startMs < endedAt);
    return {
      label: t.label,
      kind: t.kind,
      schedule: t.schedule,
      doorCount: t.rig.doorCount,
      windowMs: elapsedMs,
      cpuMs,
      cpuPercent: cpuMs === undefined ? undefined : (cpuMs / elapsedMs) * 100,
      rssKiB: summarize(rss[i] ?? []),
      peakKiB: peaks[i],
      afterGc: afterGc[i],
      requests: inWindow.length,
      syncs: inWindow.filter((r) => r.path.endsWith(SYNC_PATH_SUFFIX)).length,
    };
  });
}

// --- Measurement 8: API requests per hour at idle, polling only at the default interval vs webhooks at the default reconcile interval.

const MS_PER_HOUR = 3_600_000;

export interface PollingRate {
  intervalS: number;
  /** From the rig's first sync to the end of the watch. */
  windowMs: number;
  /** Syncs that started in the window, the first one included. */
  syncs: number;
  /** API requests other than syncs in the window (none expected at idle). */
  otherRequests: number;
  /** Between consecutive syncs. */
  interval: Summary;
  /** One hour over the median interval. */
  perHour: number;
  /** syncs / window, scaled to an hour: extrapolated from a short window, off by up to one sync per window. */
  perHourCounted: number;
}

export interface WebhookRate {
  pollIntervalS: number;
  reconcileIntervalS: number;
  firstWebhookStatus: number | undefined;
  /** Boot sync → the next one, still at the poll pace (webhooks had not arrived when it was scheduled). */
  pacedIntervalMs: number | undefined;
  /** From the first sync after the webhook (the last at the poll pace) to the end of the watch. */
  quietMs: number;
  /** Syncs and other API requests that started in that window. */
  syncsInQuiet: number;
  requestsInQuiet: number;
  /** Syncs polling alone would have made in the same window. */
  pollingWouldHaveMade: number;
  /** Computed, not measured: one sync per reconcile interval. */
  perHour: number;
  /** Toggle-history requests from the boot to the end of the watch: the baseline read at start (one per controller). */
  historyRequests: number;
  /** Controllers of the account. */
  controllers: number;
}

/** `rig` polls at the default interval without webhooks; counted up to `endMs` (performance.now()). */
export function pollingRate(rig: Rig, requests: SimRequestClock, endMs: number): PollingRate {
  const all = requests.requests(rig.simPort).filter((r) => r.startMs < endMs);
  const syncs = all.filter((r) => r.path.endsWith(SYNC_PATH_SUFFIX));
  const firstMs = syncs[0]?.startMs ?? endMs;
  const intervals = syncs.slice(1).map((r, i) => r.startMs - (syncs[i]?.startMs ?? r.startMs));
  const interval = summarize(intervals);
  const windowMs = endMs - firstMs;
  return {
    intervalS: optionSpec('pollInterval').default,
    windowMs,
    syncs: syncs.length,
    otherRequests: all.length - syncs.length,
    interval,
    perHour: MS_PER_HOUR / interval.median,
    perHourCounted: windowMs > 0 ? (syncs.length / windowMs) * MS_PER_HOUR : Number.NaN,
  };
}

/** `rig` has webhooks on with default intervals and got `first` (its only webhook); counted up to `endMs`. */
export function webhookRate(rig: Rig, requests: SimRequestClock, first: FirstWebhook, endMs: number): WebhookRate {
  const all = requests.requests(rig.simPort).filter((r) => r.startMs < endMs);
  const syncs = all.filter((r) => r.path.endsWith(SYNC_PATH_SUFFIX));
  const lastPaced = syncs.find((r) => r.startMs > first.sentAtMs);
  const quietFrom = lastPaced?.startMs ?? endMs;
  const quiet = all.filter((r) => r.startMs > quietFrom);
  const quietMs = endMs - quietFrom;
  const [boot, next] = syncs;
  return {
    pollIntervalS: optionSpec('pollInterval').default,
    reconcileIntervalS: DEFAULT_RECONCILE_INTERVAL_S,
    firstWebhookStatus: first.status,
    pacedIntervalMs: boot && next ? next.startMs - boot.startMs : undefined,
    quietMs,
    syncsInQuiet: quiet.filter((r) => r.path.endsWith(SYNC_PATH_SUFFIX)).length,
    requestsInQuiet: quiet.length,
    pollingWouldHaveMade: Math.floor(quietMs / (optionSpec('pollInterval').default * 1000)),
    perHour: MS_PER_HOUR / (DEFAULT_RECONCILE_INTERVAL_S * 1000),
    historyRequests: all.filter((r) => r.path.endsWith(HISTORY_PATH_SUFFIX)).length,
    controllers: rig.sim.devices.length,
  };
}

// Watches idle Homebridges over one window: CPU time used, resident memory every few seconds (and after a full GC at the end), API requests.
import { performance } from 'node:perf_hooks';

import { readCpuTimeMs } from './cpu-time.js';
import { readGcMemory } from './gc-memory.js';
import type { GcMemory } from './gc-memory.js';
import { readProcessMemory } from './process-memory.js';
import type { Rig } from './rig.js';
import { SYNC_PATH_SUFFIX } from './sim-request-clock.js';
import type { SimRequestClock } from './sim-request-clock.js';
import { sleepUntil } from './sleep.js';
import { summarize } from './stats.js';
import type { Summary } from './stats.js';

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

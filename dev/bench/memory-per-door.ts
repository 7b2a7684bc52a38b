// Measurement 6: memory per door, the least-squares slope of Homebridge's memory over the account sizes (three readings of it).
import type { IdleResult } from './idle-window.js';

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


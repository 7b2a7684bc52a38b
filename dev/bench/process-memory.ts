// Reads a process's resident memory (VmRSS) and its peak (VmHWM) from /proc/<pid>/status.
import { readFileSync } from 'node:fs';

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

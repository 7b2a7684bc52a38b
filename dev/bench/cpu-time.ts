// Reads the CPU time (user + system) a process has used so far from /proc/<pid>/stat.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

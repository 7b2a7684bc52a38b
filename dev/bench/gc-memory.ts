// Asks a Homebridge started with the memory probe for its memory right after a full garbage collection.
import { fileURLToPath, pathToFileURL } from 'node:url';

import { readProcessMemory } from './process-memory.js';
import type { Rig } from './rig.js';

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
  return { NODE_OPTIONS: options.filter(Boolean).join(' ') };
}

interface ProbeLine {
  collected?: boolean;
  heapUsed?: number;
  heapTotal?: number;
  external?: number;
}

/** Undefined when the process is gone, was not started with the probe, or gc() was not exposed. */
export async function readGcMemory(rig: Rig): Promise<GcMemory | undefined> {
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

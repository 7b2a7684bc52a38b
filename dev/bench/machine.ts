// Describes the machine the bench ran on: CPUs, CPU model, load, OS and Node version.
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, type as osType } from 'node:os';

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

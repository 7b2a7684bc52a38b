// Small helpers shared by the UI harness files: process liveness, log tails, ANSI stripping, free ports.

/** Lines of log put into error messages. */
export const ERROR_TAIL_LINES = 60;

const ESC = String.fromCharCode(0x1b);
const ANSI_ESCAPES = new RegExp(`${ESC}\\[[0-9;?]*[ -/]*[@-~]`, 'g');

/** The text without terminal colour codes (Homebridge runs with -C under hb-service). */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_ESCAPES, '');
}

/** The last `lines` lines of a text. */
export function tailLines(text: string, lines = ERROR_TAIL_LINES): string {
  return text.split('\n').slice(-lines).join('\n');
}

/** True while a process (or, for a negative id, a process group) exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A /g or /y regex keeps lastIndex between test() calls: the same pattern without those flags. */
export function withoutStatefulFlags(re: RegExp): RegExp {
  return new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
}

// The tests' one real-time wait.
export { sleep } from '../support/wait.js';
// The e2e harness's own: one place for a free port and a bridge identity.
export { freePort, randomBridgeUsername } from '../../dev/harness/homebridge-process.js';

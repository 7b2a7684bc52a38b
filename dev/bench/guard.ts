// Makes the bench stop by itself: Ctrl+C, SIGTERM and a hard time limit all clean up before the process exits.
import type { Cleanup } from './cleanup.js';

/** Exit code after SIGINT/SIGTERM (128 + signal number is the shell convention; 130 is Ctrl+C). */
const SIGNAL_EXIT_CODE = 130;
/** Exit code when the hard time limit fired. */
const WATCHDOG_EXIT_CODE = 124;

/** Installs the handlers; the returned function removes them (call it once the bench ended normally). */
export function guardProcess(cleanup: Cleanup, hardLimitMs: number): () => void {
  let ending = false;
  const bail = (why: string, code: number): void => {
    if (ending) {
      return;
    }
    ending = true;
    process.stderr.write(`\nbench: ${why}; cleaning up.\n`);
    void cleanup.runAll().then((failures) => {
      for (const failure of failures) {
        process.stderr.write(`bench: clean-up step failed: ${failure}\n`);
      }
      process.exit(code);
    });
  };
  const onSignal = (signal: NodeJS.Signals): void => bail(`got ${signal}`, SIGNAL_EXIT_CODE);
  const watchdog = setTimeout(() => bail(`still running after ${Math.round(hardLimitMs / 1000)} s (hard limit)`, WATCHDOG_EXIT_CODE), hardLimitMs);
  watchdog.unref();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    clearTimeout(watchdog);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

// Loaded into a measured Homebridge (node --import): on SIGUSR2 it runs a full garbage collection and prints its memory on one line.
import { MEMORY_PROBE_MARK } from './gc-memory.js';

process.on('SIGUSR2', () => {
  // Exposed by --expose-gc, which the bench passes along with this file.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  process.stdout.write(`${MEMORY_PROBE_MARK} ${JSON.stringify({ collected: gc !== undefined, ...process.memoryUsage() })}\n`);
});

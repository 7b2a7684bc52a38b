// Loaded into a measured Homebridge (node --import): on SIGUSR2 it runs a full garbage collection and prints its memory on one line.
process.on('SIGUSR2', () => {
  // Given by memoryProbeEnv (probes.ts) in the environment, so this preload imports nothing into the measured Homebridge.
  const mark = process.env.BENCH_MEMORY_PROBE_MARK ?? '';
  // Exposed by --expose-gc, which the bench passes along with this file.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  process.stdout.write(`${mark} ${JSON.stringify({ collected: gc !== undefined, ...process.memoryUsage() })}\n`);
});

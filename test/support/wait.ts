// Real-time waits, for the tests that run on real time (a real Homebridge, real sockets); the rest use the simulated clock.

/** Resolves after `ms` milliseconds of real time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

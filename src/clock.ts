// Time as the plugin sees it: the real clock in Homebridge, a simulated one in tests, so time-driven behaviour is tested without waiting.

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  // unref: a pending sync must never keep Homebridge from exiting.
  setTimeout: (callback, delayMs) => setTimeout(callback, delayMs).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

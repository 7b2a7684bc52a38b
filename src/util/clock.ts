// Time as the plugin sees it: the real clock in Homebridge, a simulated one in tests, so time-driven behaviour is tested without waiting.
// Every timer the plugin sets goes through this file, so every delay is clamped in one place.

/**
 * The longest delay Node's timers hold: a longer one (or an infinite one) fires after 1 ms instead, with a
 * TimeoutOverflowWarning, which turns "wait a month" into a tight loop. A fixed limit of the runtime, not a tunable.
 */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/** A delay any timer can hold: within 0..MAX_TIMER_DELAY_MS; NaN or negative is 0 (as Node reads them). */
export function timerDelayMs(delayMs: number): number {
  if (Number.isNaN(delayMs) || delayMs <= 0) {
    return 0;
  }
  return Math.min(delayMs, MAX_TIMER_DELAY_MS);
}

export interface Clock {
  now(): number;
  /** Any delay is accepted; implementations clamp it with timerDelayMs(), so a huge one waits as long as a timer can. */
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  // unref: a pending sync must never keep Homebridge from exiting.
  setTimeout: (callback, delayMs) => setTimeout(callback, timerDelayMs(delayMs)).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Aborts after `delayMs` (clamped like every other timer): the whole-request deadline of an HTTP call. */
export function deadlineSignal(delayMs: number): AbortSignal {
  return AbortSignal.timeout(timerDelayMs(delayMs));
}

/**
 * Settles as `work` does, or rejects with `timedOut()` after `delayMs`: a caller that stops waiting for a stalled promise
 * (the promise itself runs on; its own time-outs end it).
 */
export async function within<T>(work: Promise<T>, delayMs: number, timedOut: () => Error): Promise<T> {
  let timer: unknown;
  const deadline = new Promise<never>((_, reject) => {
    timer = SYSTEM_CLOCK.setTimeout(() => reject(timedOut()), delayMs);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    SYSTEM_CLOCK.clearTimeout(timer);
  }
}

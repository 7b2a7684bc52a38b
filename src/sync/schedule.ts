// When to sync next: the poll interval normally, faster while a door moves, exponential back-off with jitter after failures.
import { ACTIVE_POLL_INTERVAL_MS, AUTO_CLOSE_WATCH_MS, BACKOFF_JITTER_RATIO, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS } from '../settings.js';

export interface ScheduleInput {
  pollIntervalMs: number;
  /** Consecutive failed syncs; 0 after a success. */
  failedSyncs: number;
  /** What the service asked for with Retry-After; no request is made before it passes (up to MAX_RETRY_AFTER_MS). */
  retryAfterMs: number | undefined;
  doorMoving: boolean;
  /** Milliseconds until a door is expected to close by itself (negative once overdue), if any door is. */
  autoCloseInMs?: number | undefined;
  /** 0..1, for tests; Math.random by default. */
  random?: number;
}

export function nextSyncDelayMs(input: ScheduleInput): number {
  if (input.failedSyncs > 0) {
    const exponential = Math.min(MAX_BACKOFF_MS, input.pollIntervalMs * 2 ** (input.failedSyncs - 1));
    const jitter = 1 + BACKOFF_JITTER_RATIO * (2 * (input.random ?? Math.random()) - 1);
    return Math.max(Math.round(exponential * jitter), Math.min(input.retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
  }
  if (input.doorMoving) {
    return Math.min(ACTIVE_POLL_INTERVAL_MS, input.pollIntervalMs);
  }
  const closeIn = input.autoCloseInMs;
  if (closeIn !== undefined && closeIn > -AUTO_CLOSE_WATCH_MS) {
    // Sync just after the expected auto-close, then closely for a while, so Home follows the door shutting.
    const follow = closeIn > 0 ? closeIn + ACTIVE_POLL_INTERVAL_MS : ACTIVE_POLL_INTERVAL_MS;
    return Math.min(follow, input.pollIntervalMs);
  }
  return input.pollIntervalMs;
}

/** A wait in words for the log: "45 s", "12 minutes", "3 hours", "30 days". */
export function describeWait(ms: number): string {
  if (!Number.isFinite(ms)) {
    return 'forever';
  }
  const seconds = Math.round(ms / 1000);
  if (seconds >= 2 * 86_400) {
    return `${Math.round(seconds / 86_400)} days`;
  }
  if (seconds >= 2 * 3_600) {
    return `${Math.round(seconds / 3_600)} hours`;
  }
  if (seconds >= 120) {
    return `${Math.round(seconds / 60)} minutes`;
  }
  return `${seconds} s`;
}

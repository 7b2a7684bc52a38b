// When to sync next: the poll interval normally, faster while a door moves, exponential back-off with jitter after failures.
import type { PluginConfig } from '../config/index.js';
import {
  ACTIVE_POLL_INTERVAL_MS,
  AUTO_CLOSE_WATCH_MS,
  BACKOFF_JITTER_RATIO,
  MAX_BACKOFF_MS,
  MAX_RETRY_AFTER_MS,
  READ_TIMEOUT_MS,
  STATE_STALE_AFTER_SYNC_INTERVALS,
} from '../settings.js';

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

/**
 * How old a door's state may grow before Home shows No Response (docs/limits.md): two intervals of the pace the account
 * is synced at (the webhook safety net's while webhooks arrive), and the longest a sync may take to answer.
 */
export function staleAfterMs(
  config: Pick<PluginConfig, 'pollInterval' | 'webhook'>,
  flowing: boolean,
  readTimeoutMs: number | undefined,
): number {
  const paceS = flowing ? Math.max(config.webhook?.reconcileInterval ?? 0, config.pollInterval) : config.pollInterval;
  return STATE_STALE_AFTER_SYNC_INTERVALS * paceS * 1000 + (readTimeoutMs ?? READ_TIMEOUT_MS);
}

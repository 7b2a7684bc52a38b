// Measurement 8: API requests per hour at idle, polling only at the default interval vs webhooks at the default reconcile interval.
import { DEFAULT_POLL_INTERVAL_S, DEFAULT_RECONCILE_INTERVAL_S } from '../../src/settings.js';
import type { Rig } from './rig.js';
import { SYNC_PATH_SUFFIX } from './sim-request-clock.js';
import type { SimRequestClock } from './sim-request-clock.js';
import { summarize } from './stats.js';
import type { Summary } from './stats.js';
import type { FirstWebhook } from './webhook-flowing.js';

const MS_PER_HOUR = 3_600_000;

export interface PollingRate {
  intervalS: number;
  /** From the rig's first sync to the end of the watch. */
  windowMs: number;
  /** Syncs that started in the window, the first one included. */
  syncs: number;
  /** API requests other than syncs in the window (none expected at idle). */
  otherRequests: number;
  /** Between consecutive syncs. */
  interval: Summary;
  /** One hour over the median interval. */
  perHour: number;
  /** syncs / window, scaled to an hour: extrapolated from a short window, off by up to one sync per window. */
  perHourCounted: number;
}

export interface WebhookRate {
  pollIntervalS: number;
  reconcileIntervalS: number;
  firstWebhookStatus: number | undefined;
  /** Boot sync → the next one, still at the poll pace (webhooks had not arrived when it was scheduled). */
  pacedIntervalMs: number | undefined;
  /** From the first sync after the webhook (the last at the poll pace) to the end of the watch. */
  quietMs: number;
  /** Syncs and other API requests that started in that window. */
  syncsInQuiet: number;
  requestsInQuiet: number;
  /** Syncs polling alone would have made in the same window. */
  pollingWouldHaveMade: number;
  /** Computed, not measured: one sync per reconcile interval. */
  perHour: number;
}

/** `rig` polls at the default interval without webhooks; counted up to `endMs` (performance.now()). */
export function pollingRate(rig: Rig, requests: SimRequestClock, endMs: number): PollingRate {
  const all = requests.requests(rig.simPort).filter((r) => r.startMs < endMs);
  const syncs = all.filter((r) => r.path.endsWith(SYNC_PATH_SUFFIX));
  const firstMs = syncs[0]?.startMs ?? endMs;
  const intervals = syncs.slice(1).map((r, i) => r.startMs - (syncs[i]?.startMs ?? r.startMs));
  const interval = summarize(intervals);
  const windowMs = endMs - firstMs;
  return {
    intervalS: DEFAULT_POLL_INTERVAL_S,
    windowMs,
    syncs: syncs.length,
    otherRequests: all.length - syncs.length,
    interval,
    perHour: MS_PER_HOUR / interval.median,
    perHourCounted: windowMs > 0 ? (syncs.length / windowMs) * MS_PER_HOUR : Number.NaN,
  };
}

/** `rig` has webhooks on with default intervals and got `first` (its only webhook); counted up to `endMs`. */
export function webhookRate(rig: Rig, requests: SimRequestClock, first: FirstWebhook, endMs: number): WebhookRate {
  const all = requests.requests(rig.simPort).filter((r) => r.startMs < endMs);
  const syncs = all.filter((r) => r.path.endsWith(SYNC_PATH_SUFFIX));
  const lastPaced = syncs.find((r) => r.startMs > first.sentAtMs);
  const quietFrom = lastPaced?.startMs ?? endMs;
  const quiet = all.filter((r) => r.startMs > quietFrom);
  const quietMs = endMs - quietFrom;
  const [boot, next] = syncs;
  return {
    pollIntervalS: DEFAULT_POLL_INTERVAL_S,
    reconcileIntervalS: DEFAULT_RECONCILE_INTERVAL_S,
    firstWebhookStatus: first.status,
    pacedIntervalMs: boot && next ? next.startMs - boot.startMs : undefined,
    quietMs,
    syncsInQuiet: quiet.filter((r) => r.path.endsWith(SYNC_PATH_SUFFIX)).length,
    requestsInQuiet: quiet.length,
    pollingWouldHaveMade: Math.floor(quietMs / (DEFAULT_POLL_INTERVAL_S * 1000)),
    perHour: MS_PER_HOUR / (DEFAULT_RECONCILE_INTERVAL_S * 1000),
  };
}

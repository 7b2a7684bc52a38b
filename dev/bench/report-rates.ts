// Section 8 of BENCHMARKS.md: polling only vs webhooks, state lag (median) and API requests per hour at idle, side by side.
import { ACTIVE_POLL_INTERVAL_MS, WEBHOOK_MISS_GRACE_MS } from '../../src/settings.js';
import { perHour, seconds } from './format.js';
import type { PollBaselineResult } from './poll-baseline.js';
import type { PollingRate, WebhookRate } from './request-rate.js';
import type { WebhookLatencyResult } from './webhook-latency.js';

const MS_PER_HOUR = 3_600_000;

export interface Rates {
  polling: PollingRate;
  webhooks: WebhookRate;
}

export function ratesSection(rates: Rates, poll: PollBaselineResult, latency: WebhookLatencyResult): string[] {
  const { polling: p, webhooks: w } = rates;
  const baselinePerHour = MS_PER_HOUR / poll.pollPeriod.median;
  const fewer = p.perHour / w.perHour;
  return [
    '## 8. Polling only vs webhooks: state lag and requests per hour',
    '',
    'What a change made outside HomeKit costs in waiting, and what idling costs in API requests (each sync is one request,',
    'whatever the number of doors; commands add requests, see below).',
    '',
    '| Setup | State lag, median | Requests per hour at idle |',
    '|---|---:|---:|',
    `| Polling only, \`pollInterval\` ${poll.intervalS} s (section 2) | ${seconds(poll.lag.median)} (measured) | ${perHour(baselinePerHour)} (measured: a sync every ${seconds(poll.pollPeriod.median)}) |`,
    `| Polling only, default ${p.intervalS} s | ~${seconds(poll.derived.expectedMeanMs)} (derived in section 2) | **${perHour(p.perHour)}** (measured: a sync every ${seconds(p.interval.median)}, median of ${p.interval.n}) |`,
    `| Webhooks, default \`reconcileInterval\` ${w.reconcileIntervalS} s, once events arrive | ${Math.round(latency.toHomeKit.median)} ms (measured, section 1) | **${perHour(w.perHour)}** (computed: a sync every ${w.reconcileIntervalS} s; measured: ${w.syncsInQuiet} syncs in ${seconds(w.quietMs)}) |`,
    '',
    `**Polling only, default interval** (measured): the bridge with 0 doors of section 6, no \`pollInterval\` in its config. From its`,
    `first sync to the end of the idle window: ${p.syncs} syncs in ${seconds(p.windowMs)} (${perHour(p.perHourCounted)} per hour if extrapolated from that count, which is`,
    `off by up to one sync per window), ${p.otherRequests} other requests; the ${p.interval.n} intervals between syncs: median ${seconds(p.interval.median)},`,
    `${seconds(p.interval.min)}–${seconds(p.interval.max)}; an hour over the median interval gives the table's figure.`,
    '',
    `**Webhooks, default intervals** (computed, with a measured check): the sample account (3 doors) with webhooks on and no`,
    '`pollInterval` or `reconcileInterval` in its config. A keypad change was delivered by the simulator\'s own webhook sender',
    `(answered ${w.firstWebhookStatus ?? 'never'}) just after boot. The sync already scheduled at the poll pace came ${seconds(w.pacedIntervalMs)} after the boot sync;`,
    `after it the plugin waits ${w.reconcileIntervalS} s between syncs, longer than the bench runs, so the rate is computed from that interval:`,
    `${perHour(w.perHour)} per hour. Measured check: in the ${seconds(w.quietMs)} from that sync to the end of the idle window the simulator got`,
    `${w.syncsInQuiet} syncs (${w.requestsInQuiet} requests in all), where polling alone would have made ${w.pollingWouldHaveMade}.`,
    '',
    `So with webhooks a bridge asks the service ~${Math.round(fewer)}× less often than polling at the default interval, and shows a`,
    `change in ${Math.round(latency.toHomeKit.median)} ms instead of ~${seconds(poll.derived.expectedMeanMs)}. Not idle: after each command the plugin syncs within`,
    `${seconds(ACTIVE_POLL_INTERVAL_MS)} and every ${seconds(ACTIVE_POLL_INTERVAL_MS)} while the door moves (section 4 made those); a change a sync finds and no webhook`,
    `confirms within ${seconds(WEBHOOK_MISS_GRACE_MS)} brings back the poll pace.`,
    '',
  ];
}

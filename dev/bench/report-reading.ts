// The "Reading" section at the top of BENCHMARKS.md: one plain line per measurement, figures from the sections below.
import { kib, mib, ms, percent, perHour, seconds } from './format.js';
import type { IdleResult } from './idle-window.js';
import type { BenchReport } from './report.js';
import { HELD_BACK_NOTE_KIB } from './report-scale.js';
import { SCALE_POLL_INTERVAL_S } from './scale-rigs.js';

/** A note for a bridge whose VmRSS moved by more than HELD_BACK_NOTE_KIB in the idle window: V8 resizing its heap costs CPU too. */
function resized(idle: IdleResult | undefined): string {
  return idle !== undefined && idle.rssKiB.max - idle.rssKiB.min > HELD_BACK_NOTE_KIB ? ' (V8 resized its heap in that window, which counts too)' : '';
}

export function reading(r: BenchReport): string[] {
  const l = r.latency;
  const t = r.throughput;
  const p = r.poll;
  const w = r.write;
  const hold = r.hap.delayMs ?? 0;
  const speedup = p.derived.expectedMeanMs / l.toHomeKit.median;
  const lost = t.nothingLost ? 'nothing was lost: every door ended on its last event, in every burst' : 'some door did **not** end on its last event';
  const sizes = r.syncs.map((s) => s.doorCount).join(' / ');
  const perSize = (pick: (s: BenchReport['syncs'][number]) => number): string => r.syncs.map((s) => ms(pick(s))).join(' / ');
  const largest = r.idle.filter((i) => i.kind === 'sized').at(-1);
  const bare = r.idle.find((i) => i.kind === 'bare');
  const heldBack = largest?.afterGc !== undefined && largest.rssKiB.median - largest.afterGc.rssKiB > HELD_BACK_NOTE_KIB;
  const biggestIdle = r.idle.filter((i) => i.kind === 'sized').at(-1);
  const webhookIdle = r.idle.find((i) => i.kind === 'webhook');
  const { polling, webhooks } = r.rates;
  return [
    '## Reading',
    '',
    `- **Webhooks bring a change to Home in ~${ms(l.toHomeKit.median)} median** (p90 ${ms(l.toHomeKit.p90)}, max ${ms(l.toHomeKit.max)}).`,
    `  ${r.hap.delayMs ?? '?'} ms of that is HAP-NodeJS holding the event to batch it; the listener itself answers the service in`,
    `  ~${ms(l.postRoundTrip.median)} median, and everything else after the 200 (the plugin applying it, HAP encryption, loopback, the`,
    `  controller decrypting it) takes ~${ms(l.answerToHomeKit.median - hold)} median.`,
    `- **Polling is seconds, not milliseconds.** At ${p.intervalS} s it took ${seconds(p.lag.median)} median (max ${seconds(p.lag.max)}).`,
    `  At the default ${p.derived.intervalS} s it takes **~${seconds(p.derived.expectedMeanMs)} on average, up to ~${seconds(p.derived.worstMs)}** (derived),`,
    `  i.e. webhooks are ~${Math.round(speedup)}× faster on average.`,
    `- **The listener keeps up with bursts**: the first ${t.events} events (cold, ${t.concurrency} in flight) went through at`,
    `  ${t.cold.perSecond.toFixed(0)} requests/s, 200s in ${ms(t.cold.latency.median)} median (p99 ${ms(t.cold.latency.p99)}); warmed up, ~${t.steady.perSecond.median.toFixed(0)} requests/s`,
    `  (200s in ${ms(t.steady.latency.median)} median, p99 ${ms(t.steady.latency.p99)}). ${t.non200} non-200 in ${t.events * t.rounds.length} events; ${lost}.`,
    `  Homebridge's resident memory went from ${mib(t.memoryBefore?.rssKiB)} to ${mib(t.memoryAfter?.rssKiB)} as V8 grew its heap under load (per burst below).`,
    `- **A tap in Home reaches the service in ~${ms(w.toToggle.median)} median** (write → toggle POST, p90 ${ms(w.toToggle.p90)}); the write is answered once the`,
    `  service accepted the toggle, ~${ms(w.roundTrip.median)} round trip (p90 ${ms(w.roundTrip.p90)}).`,
    `- **A poll reaches Home in ${perSize((s) => s.pollToHomeKit.median)} median for ${sizes} doors**, ${hold} ms of it HAP's hold; the simulator`,
    `  serves the sync in ${perSize((s) => s.served.median)}, and a whole sync cycle in the plugin takes ${perSize((s) => s.cycleOverhead.median)}.`,
    `- **Memory: ~${kib(r.memory.heapAfterGc.slopeKiBPerDoor)} of JavaScript heap per door** (V8 heap after a full GC, slope over ${r.memory.heapAfterGc.points.map((m) => m.doorCount).join(', ')} doors).`,
    `  VmRSS after a full GC: ${mib(bare?.afterGc?.rssKiB)} with 0 doors, ${mib(largest?.afterGc?.rssKiB)} with ${largest?.doorCount ?? '?'} (slope ~${kib(r.memory.rssAfterGc.slopeKiBPerDoor)} per door, rough: separate`,
    `  bridges differ by MiB whatever their doors); idle before it: ${mib(bare?.rssKiB.median)} and ${mib(largest?.rssKiB.median)}${heldBack ? ' (V8 had not yet given back its boot-time heap)' : ''}.`,
    `- **Idle CPU: ${percent(biggestIdle?.cpuPercent)} of one core** for ${biggestIdle?.doorCount ?? '?'} doors polled every ${SCALE_POLL_INTERVAL_S} s${resized(biggestIdle)}; ${percent(webhookIdle?.cpuPercent)} for ${webhookIdle?.doorCount ?? '?'} doors with webhooks${resized(webhookIdle)}.`,
    `- **Requests per hour at idle: ${perHour(polling.perHour)} polling at the default ${polling.intervalS} s** (measured), **${perHour(webhooks.perHour)} with webhooks** (computed from`,
    `  the ${webhooks.reconcileIntervalS} s reconcile interval; ${webhooks.syncsInQuiet} syncs seen in ${seconds(webhooks.quietMs)}): ~${Math.round(polling.perHour / webhooks.perHour)}× fewer, for a lag of ~${ms(l.toHomeKit.median)} instead of ~${seconds(p.derived.expectedMeanMs)}.`,
    '',
  ];
}

// Turns the bench's results into BENCHMARKS.md (at the repo root) and the same text for stdout: number formats, every section, the reading.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { ACTIVE_POLL_INTERVAL_MS, HISTORY_BASELINE_PACE_MS, WEBHOOK_MISS_GRACE_MS } from '../../src/settings.js';
import { CURRENT_DOOR_STATE } from '../harness/hap-types.js';
import { HOMEBRIDGE_2_VERSION, REPO_ROOT } from '../harness/homebridge-process.js';
import {
  LATENCY_EVENT_WAIT_MS,
  LATENCY_SPACING_MAX_MS,
  LATENCY_SPACING_MIN_MS,
  POLL_EVENT_WAIT_MS,
  THROUGHPUT_WARMUP_ROUNDS,
  WRITE_WAIT_MS,
} from './latency.js';
import type { PollBaselineResult, ThroughputResult, WebhookLatencyResult, WriteLatencyResult } from './latency.js';
import type { HapCoalescing, MachineInfo, Summary } from './probes.js';
import { DOORS_PER_DEVICE, SCALE_POLL_INTERVAL_S } from './rig.js';
import { CHANGE_AFTER_POLL_MS, IDLE_MEMORY_EVERY_MS, SYNC_EVENT_WAIT_MS } from './scale.js';
import {
  CONTACT_CHANGES,
  CONTACT_PERSON_SENSOR_S,
  CONTACT_RIG_POLL_INTERVAL_S,
  CONTACT_SPACING_MAX_MS,
  CONTACT_SPACING_MIN_MS,
  CONTACT_WARMUP_CHANGES,
  SAME_DELIVERY_MS,
} from './contact.js';
import type { ContactRuns } from './contact.js';
import { IMPORT_RUNS, MEMORY_ROUNDS, STARTUP_DOOR_COUNTS, STARTUP_SETTLE_MS } from './startup.js';
import type { StartupResult } from './startup.js';
import type { IdleResult, MemoryPerDoor, PerDoorFit, PollingRate, SyncReconcileResult, WebhookRate } from './scale.js';

// --- Number formatting for the report: durations, sizes, percentages and rates, and one Markdown table row per Summary.

const KIB_PER_MIB = 1024;
const MS_PER_S = 1000;

/** e.g. `3.42 ms`, `61.7 ms`, `254 ms`; `n/a` for NaN. */
export function ms(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  const digits = value < 10 ? 2 : value < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ms`;
}

/** e.g. `2.48 s` from milliseconds. */
export function seconds(valueMs: number | undefined): string {
  if (valueMs === undefined || !Number.isFinite(valueMs)) return 'n/a';
  return `${(valueMs / MS_PER_S).toFixed(2)} s`;
}

export function mib(kib: number | undefined): string {
  return kib === undefined ? 'n/a' : `${(kib / KIB_PER_MIB).toFixed(1)} MiB`;
}

export const SUMMARY_HEADER = '| | n | median | p90 | p99 | min | max | spread (IQR) |\n|---|---:|---:|---:|---:|---:|---:|---:|';

/** One table row: the label, then n, median, p90, p99, min, max, IQR, each through `unit`. */
export function summaryRow(label: string, summary: Summary, unit: (value: number) => string = ms): string {
  const cells = [summary.median, summary.p90, summary.p99, summary.min, summary.max, summary.iqr].map(unit);
  return `| ${label} | ${summary.n} | ${cells.join(' | ')} |`;
}

/** e.g. `412 KiB`, `38.5 KiB`, `n/a`. */
export function kib(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${value.toFixed(Math.abs(value) < 100 ? 1 : 0)} KiB`;
}

/** A size in bytes, e.g. `612 B`, `3.4 KiB`. */
export function bytes(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return value < 1024 ? `${Math.round(value)} B` : kib(value / 1024);
}

/** e.g. `0.42 %`. */
export function percent(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return `${value.toFixed(value < 10 ? 2 : 1)} %`;
}

/** A rate, e.g. `240` or `12.0`. */
export function perHour(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return 'n/a';
  return value < 100 ? value.toFixed(1) : value.toFixed(0);
}

// --- Section 4 of BENCHMARKS.md: a HomeKit write (a tap in Home) timed to the toggle request at the service and to the write's answer.

export function writeSection(w: WriteLatencyResult, holdMs: number | undefined): string[] {
  const hold = holdMs === undefined ? "HAP-NodeJS's event hold" : `HAP-NodeJS's ${holdMs} ms event hold`;
  return [
    '## 4. HomeKit write → toggle request',
    '',
    `The paired controller writes TargetDoorState on ${w.doorName}, as the Home app does when you tap the door: ${w.samples} writes`,
    `(after ${w.warmup} warm-up ones), alternating OPEN and CLOSED, each once the door had arrived in HomeKit from the previous one`,
    `(simulator travel time ${w.travelTimeMs} ms; the arrival comes by the simulator's own webhook). Same bridge as section 1,`,
    'run between sections 1 and 3.',
    "The simulator runs in the bench's process, so its requests are timed on the same `performance.now()` clock as the write:",
    "Node's `http.server.request.start` diagnostics channel fires when the toggle POST's headers are parsed and",
    "`http.server.response.finish` when its answer is handed to the OS. The simulator's own `requests[].at` is `Date.now()`",
    '(ms since the epoch, whole ms) taken after the body is read; it is shown as a cross-check.',
    '',
    SUMMARY_HEADER,
    summaryRow('write sent → toggle POST at the simulator', w.toToggle),
    summaryRow("the same, from the simulator's `at` (whole ms)", w.toToggleAt),
    summaryRow('toggle POST served by the simulator', w.toggleServed),
    summaryRow("toggle answered → the write's answer at the controller", w.toggleToAnswer),
    summaryRow('**write sent → write answered** (round trip)', w.roundTrip),
    summaryRow('write sent → HomeKit shows the door arrived', w.arrived),
    '',
    `Writes missed (failed, no toggle, or no arrival within ${ms(WRITE_WAIT_MS)}): ${w.missed}. Every toggle answered 200: ${w.allAccepted ? 'yes' : '**no**'}.`,
    '',
    '**What it consists of.** *Write → toggle*: hap-controller encrypts the write, HAP-NodeJS decrypts and parses it and',
    "calls the plugin's `onSet`, which logs `Opening …` and posts the toggle over its kept-alive connection. The write is",
    'answered only after the service answered the toggle (Home is told *Opening…* once the service accepted the command,',
    "and a refusal reaches Home as a failed write), so the round trip is *write → toggle* + the service's own time + the way",
    `back; against a real cloud the service's time dominates it. The answer to a write is a response, not an event, so`,
    `${hold} does not apply to it; it does apply to the *arrived* row (door travel + webhook + hold).`,
    '',
  ];
}

// --- Section 8 of BENCHMARKS.md: polling only vs webhooks, state lag (median) and API requests per hour at idle, side by side.

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
    "`pollInterval` or `reconcileInterval` in its config. A keypad change was delivered by the simulator's own webhook sender",
    `(answered ${w.firstWebhookStatus ?? 'never'}) just after boot. The sync already scheduled at the poll pace came ${seconds(w.pacedIntervalMs)} after the boot sync;`,
    `after it the plugin waits ${w.reconcileIntervalS} s between syncs, longer than the bench runs, so the rate is computed from that interval:`,
    `${perHour(w.perHour)} per hour. Measured check: in the ${seconds(w.quietMs)} from that sync to the end of the idle window the simulator got`,
    `${w.syncsInQuiet} syncs (${w.requestsInQuiet} requests in all), where polling alone would have made ${w.pollingWouldHaveMade}.`,
    '',
    `**At start** (measured): the plugin reads each controller's toggle history once, the baseline the first move a sync finds`,
    `is told from (docs/people.md, "What it costs"): ${w.historyRequests} history requests for the sample account's ${w.controllers} controllers, from the boot`,
    `to the end of the idle window, and none after (a door's history is read again only when a sync finds it moved). Where the`,
    `service refuses a controller's history, one request per door instead, one every ${seconds(HISTORY_BASELINE_PACE_MS)}. The idle figures above do not change.`,
    '',
    `So with webhooks a bridge asks the service ~${Math.round(fewer)}× less often than polling at the default interval, and shows a`,
    `change in ${Math.round(latency.toHomeKit.median)} ms instead of ~${seconds(poll.derived.expectedMeanMs)}. Not idle: after each command the plugin syncs within`,
    `${seconds(ACTIVE_POLL_INTERVAL_MS)} and every ${seconds(ACTIVE_POLL_INTERVAL_MS)} while the door moves (section 4 made those); a change a sync finds and no webhook`,
    `confirms within ${seconds(WEBHOOK_MISS_GRACE_MS)} brings back the poll pace.`,
    '',
  ];
}

// --- Sections 5–7 of BENCHMARKS.md: sync and reconcile by account size, memory per door, and CPU at idle.

/** Idle VmRSS above the after-GC reading by more than this (KiB) is called out as boot memory not yet given back. */
export const HELD_BACK_NOTE_KIB = 10 * 1024;

const doorsLabel = (n: number): string => `${n} door${n === 1 ? '' : 's'}`;

export function syncSection(syncs: SyncReconcileResult[], holdMs: number | undefined): string[] {
  const hold = holdMs ?? 0;
  const first = syncs[0];
  const rows = syncs.map(
    (s) =>
      `| ${s.doorCount} | ${s.devices} | ${seconds(s.doorsReadyMs)} | ${bytes(s.answerBytes)}${s.answerGzip ? ' gzip' : ''} (JSON ${bytes(s.answerJsonBytes)}) | ${ms(s.served.median)} | ${ms(s.pollToHomeKit.median)} | ${ms(s.answerToHomeKit.median - hold)} | ${ms(s.cycleOverhead.median)} | ${s.missed} |`,
  );
  return [
    '## 5. Sync and reconcile by account size',
    '',
    `One Homebridge per size, each with an account of that many doors (\`makeDoor\` defaults: wired sensor, no battery, no`,
    `extras) on controllers of up to ${DOORS_PER_DEVICE} doors, \`pollInterval\` ${SCALE_POLL_INTERVAL_S} s, no webhooks. The three measure at the same`,
    'time, booted side by side with the bridges of sections 2 and 6–8 (so 2 CPUs serve six idle-polling Homebridges here). Per size,',
    `${first?.samples.length ?? 0} measured polls after 1 warm-up: the account's last door (the plugin reconciles it after all the others) is`,
    `flipped silently in the simulator at least ${CHANGE_AFTER_POLL_MS} ms after a poll was answered, and the next poll carries it.`,
    'Simulator times come from the same diagnostics channels as section 4.',
    '',
    "| Doors | Controllers | Ready → every door in HomeKit (pairing included) | Sync answer on the wire | Sync served by the simulator (median) | Poll → HomeKit event (median) | Plugin's part: answer → event − hold (median) | Sync cycle: time between polls − interval (median) | Missed |",
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    SUMMARY_HEADER,
    ...syncs.map((s) => summaryRow(`poll at the simulator → HomeKit event, ${doorsLabel(s.doorCount)}`, s.pollToHomeKit)),
    ...syncs.map((s) => summaryRow(`sync served by the simulator, ${doorsLabel(s.doorCount)} (every poll of the phase)`, s.served)),
    ...syncs.map((s) => summaryRow(`time between polls − ${SCALE_POLL_INTERVAL_S} s, ${doorsLabel(s.doorCount)}`, s.cycleOverhead)),
    '',
    `Missed: a measured poll that never came, or whose event took over ${ms(SYNC_EVENT_WAIT_MS)}.`,
    '',
    "**What it consists of.** *Sync served*: the simulator building the account's JSON and gzipping it (the plugin asks for",
    "gzip): the simulated service's cost, not a prediction of the real one. *Poll → HomeKit event*: that, loopback, the plugin",
    'receiving, gunzipping and validating (zod) the answer and applying every door up to the changed one, then HAP-NodeJS',
    `holding the event ${holdMs === undefined ? '(unknown time)' : `${holdMs} ms`} (section 1), encrypting and sending it. *Plugin's part* takes the simulator's time and the hold`,
    'away. *Sync cycle*: the plugin schedules the next poll once a sync has been applied, so the time between polls minus the',
    'interval is the whole sync as the plugin runs it: request, parsing, every door, and Homebridge saving its accessory cache,',
    'which the plugin asks for on every sync (`updatePlatformAccessories`) and which Homebridge does synchronously, serializing',
    'every accessory. *Ready → every door*: pairing, then the first sync, at which the plugin registers the doors one by one',
    '(Homebridge saves the whole cache after each), until the controller sees them all in the attribute database.',
    '',
  ];
}

export function memorySection(memory: MemoryPerDoor, idle: IdleResult[]): string[] {
  const polling = idle.filter((r) => r.kind !== 'webhook');
  const rows = polling.map(
    (r) =>
      `| ${r.doorCount} | ${r.schedule} | ${mib(r.rssKiB.median)} (${mib(r.rssKiB.min)}–${mib(r.rssKiB.max)}) | ${mib(r.peakKiB)} | ${mib(r.afterGc?.rssKiB)} | ${mib(r.afterGc?.heapUsedKiB)} | ${mib(r.afterGc?.heapTotalKiB)} |`,
  );
  const counts = memory.rss.points.map((p) => p.doorCount);
  const span = Math.max(...counts) - Math.min(...counts);
  const fitRow = (label: string, fit: PerDoorFit): string =>
    `| ${label} | **${kib(fit.slopeKiBPerDoor)}** | ${mib(fit.interceptKiB)} | ${mib(fit.bareKiB)} | ${mib(fit.worstResidualKiB)} |`;
  return [
    '## 6. Memory per door',
    '',
    `Homebridge's resident memory (VmRSS, \`/proc/<pid>/status\`) read every ${seconds(IDLE_MEMORY_EVERY_MS)} over the idle window of section 7,`,
    'after boot, pairing and the measurements of section 5 (median per bridge); then, once the window was over, right after',
    'a full garbage collection: these bridges were started with `--expose-gc` and a small probe',
    '(`dev/bench/memory-probe.ts`, preloaded with `--import`) that on SIGUSR2 runs `gc()` and prints `process.memoryUsage()`.',
    'Each bridge has one paired controller that has read the attribute database and is subscribed to one door.',
    '',
    '| Doors | Schedule | VmRSS, idle: median (min–max) | VmHWM (peak so far) | VmRSS after a full GC | V8 heap used after it | V8 heap committed after it |',
    '|---:|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Per door: the least-squares slope over ${counts.join(', ')} doors (a span of ${span}).`,
    '',
    '| Reading | Per door | Line at 0 doors | Measured at 0 doors | Farthest point from the line |',
    '|---|---:|---:|---:|---:|',
    fitRow('VmRSS, idle median', memory.rss),
    fitRow('VmRSS after a full GC', memory.rssAfterGc),
    fitRow('V8 heap used after a full GC', memory.heapAfterGc),
    fitRow('VmRSS after a full GC − V8 heap committed but unused', memory.settledRss),
    '',
    ...memoryReading(polling),
    '',
  ];
}

/** Whether the idle readings still held boot memory that the forced GC gave back, and what to read instead. */
function memoryReading(polling: IdleResult[]): string[] {
  const lowestPeak = Math.min(...polling.map((r) => r.peakKiB ?? Number.POSITIVE_INFINITY));
  let held: { doorCount: number; kib: number } | undefined;
  for (const r of polling) {
    const kib = r.afterGc ? r.rssKiB.median - r.afterGc.rssKiB : 0;
    if (kib > HELD_BACK_NOTE_KIB && kib > (held?.kib ?? 0)) held = { doorCount: r.doorCount, kib };
  }
  const timing = held
    ? [
        `for minutes: in this run the ${held.doorCount}-door bridge still held ${mib(held.kib)} of it through the idle window and gave it`,
        'back at the forced GC.',
      ]
    : ['for minutes (in this run every bridge had given most of it back by the idle window).'];
  return [
    `**How to read it.** Every bridge, the 0-door one too, peaked at ${mib(lowestPeak)} or more while booting and pairing (VmHWM);`,
    'V8 gives that memory back only once it judges the process idle, which a bridge polling a big account every few seconds may not be',
    ...timing,
    'After a forced GC, the V8 heap in use is the live JavaScript objects alone (HAP accessories, services and characteristics,',
    "Homebridge's platform accessories, the plugin's door objects): it lines up across separate bridges, and its slope is the",
    'figure to read per door. VmRSS adds native memory (code, buffers, malloc) and heap V8 keeps committed, which differ between',
    'separate bridges, and over time, by several MiB whatever their doors (the two 0-door columns and the farthest point show how',
    'much in this run), as much as 149 doors add: read its slopes as rough.',
  ];
}

export function cpuSection(idle: IdleResult[]): string[] {
  const rows = idle.map(
    (r) =>
      `| ${r.label} | ${r.schedule} | ${seconds(r.windowMs)} | ${ms(r.cpuMs)} | **${percent(r.cpuPercent)}** | ${r.syncs > 0 && r.cpuMs !== undefined ? ms(r.cpuMs / r.syncs) : 'n/a'} | ${mib(r.rssKiB.min)}–${mib(r.rssKiB.max)} | ${r.requests} (${r.syncs} syncs) |`,
  );
  return [
    '## 7. CPU at idle',
    '',
    'CPU time (user + system, `/proc/<pid>/stat` utime + stime, in 10 ms ticks) each Homebridge used over the same',
    'window, as a share of one core. Idle: no door moves and no webhook comes; the syncs go on. The window ran alongside',
    "section 2's poll baseline on another bridge; each figure is that one process's own time. *CPU time per sync* divides by",
    'the syncs in the window, so it includes whatever else the bridge did meanwhile (timers, mDNS, garbage collection). A bridge',
    'whose VmRSS moved by tens of MiB in the window had V8 grow and trim its heap meanwhile, which costs CPU time of its own:',
    'read the figures across bridges as a range, not to the tick.',
    '',
    '| Bridge | Schedule | Window | CPU time | CPU, % of one core | CPU time per sync | VmRSS in the window (min–max) | API requests in the window |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ];
}

// --- The "Reading" section at the top of BENCHMARKS.md: one plain line per measurement, figures from the sections below.

/** A note for a bridge whose VmRSS moved by more than HELD_BACK_NOTE_KIB in the idle window: V8 resizing its heap costs CPU too. */
function resized(idle: IdleResult | undefined): string {
  return idle !== undefined && idle.rssKiB.max - idle.rssKiB.min > HELD_BACK_NOTE_KIB
    ? ' (V8 resized its heap in that window, which counts too)'
    : '';
}

export function reading(r: BenchReport): string[] {
  const l = r.latency;
  const t = r.throughput;
  const p = r.poll;
  const w = r.write;
  const hold = r.hap.delayMs ?? 0;
  const speedup = p.derived.expectedMeanMs / l.toHomeKit.median;
  const lost = t.nothingLost
    ? 'nothing was lost: every door ended on its last event, in every burst'
    : 'some door did **not** end on its last event';
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

// --- Turns the bench's results into BENCHMARKS.md (at the repo root) and the same text for stdout.

export const REPORT_FILE = path.join(REPO_ROOT, 'BENCHMARKS.md');

export interface PhaseTiming {
  name: string;
  ms: number;
}

export interface BenchReport {
  startedAt: Date;
  /** Whole bench, from start to the last process stopped (the build before it not included). */
  totalMs: number;
  phases: PhaseTiming[];
  machine: MachineInfo;
  /** 1, 5 and 15 minute load averages when the bench ended. */
  loadAtEnd: [number, number, number];
  homebridge: { packageName: string; version: string; hapVersion: string };
  hap: HapCoalescing;
  webhookRigPollIntervalS: number;
  latency: WebhookLatencyResult;
  throughput: ThroughputResult;
  poll: PollBaselineResult;
  write: WriteLatencyResult;
  /** One per measured account size, smallest first. */
  syncs: SyncReconcileResult[];
  idle: IdleResult[];
  memory: MemoryPerDoor;
  rates: Rates;
  startup: StartupResult;
  contact: ContactRuns;
}

const doorStateName = (value: unknown): string =>
  Object.entries(CURRENT_DOOR_STATE).find(([, code]) => code === value)?.[0] ?? String(value);

const load = (values: number[]): string => values.map((v) => v.toFixed(2)).join(' / ');

function header(r: BenchReport): string[] {
  const m = r.machine;
  return [
    '# Benchmarks',
    '',
    'Generated by `npm run bench` (`npm run build && npm run build:dev && node dist-dev/dev/bench/bench.js`); do not edit by hand. Every figure',
    'comes from one run on a real Homebridge child process with the plugin, the service simulator as the cloud and',
    '[`hap-controller`](https://www.npmjs.com/package/hap-controller) as a paired iPhone, all on loopback. It measures',
    'and reports; it asserts nothing. The machine is shared, so read medians first and treat p99/max as noise-prone.',
    '',
    '| | |',
    '|---|---|',
    `| Date | ${r.startedAt.toISOString()} |`,
    `| CPUs (nproc) | ${m.cpuCount} × ${m.cpuModel} |`,
    `| Load average (1/5/15 min) at start; at end | ${load(m.loadAverage)}; ${load(r.loadAtEnd)} (everything running on the machine counts) |`,
    `| OS | ${m.os} |`,
    `| Node.js | ${m.node} (the bench and Homebridge) |`,
    `| Homebridge | ${r.homebridge.version} (\`${r.homebridge.packageName}\`), HAP-NodeJS ${r.homebridge.hapVersion} |`,
    `| Bench run time | ${seconds(r.totalMs)} (${r.phases.map((p) => `${p.name} ${seconds(p.ms)}`).join(', ')}); from the side rigs on, phases overlap as named. ~5 s of a stop is Homebridge's own exit timer after SIGTERM (a bare Homebridge 1.11 bridge without plugins takes as long), so the bridges stop all at once |`,
    '',
  ];
}

function latencySection(r: BenchReport): string[] {
  const l = r.latency;
  const hold = r.hap.delayMs;
  const holdText = hold === undefined ? 'an unknown time (the timer was not found in its source)' : `${hold} ms`;
  return [
    '## 1. Webhook → HomeKit latency',
    '',
    `A door changes outside HomeKit (keypad), the service's webhook is posted to the plugin's listener`,
    `(127.0.0.1, plain HTTP, \`pollInterval\` ${r.webhookRigPollIntervalS} s so no poll interferes) and a paired controller`,
    `subscribed to the doors' CurrentDoorState gets the HomeKit event. ${l.changes} changes (after ${l.warmup} warm-up ones),`,
    `cycling over the 3 sample doors, each flipping its door, ${LATENCY_SPACING_MIN_MS}–${LATENCY_SPACING_MAX_MS} ms apart (random) so no two share an event.`,
    'The simulator does not time its own deliveries, so each change is made silently in the simulator and its webhook',
    '(built by `buildWebhookEvent`, sent by `sendRawWebhook`: the same sender and a new TCP connection each, as the',
    'simulator delivers) is posted and timed here.',
    '',
    SUMMARY_HEADER,
    summaryRow("POST sent → listener's 200 received", l.postRoundTrip),
    summaryRow('POST sent → HomeKit event at the controller', l.toHomeKit),
    summaryRow('200 received → HomeKit event', l.answerToHomeKit),
    '',
    `Non-200 answers: ${l.non200}. Changes whose event never came (within ${seconds(LATENCY_EVENT_WAIT_MS)}): ${l.missed}.`,
    '',
    '**What the latency consists of.**',
    '',
    `- *POST → 200*: a TCP connect on loopback, the listener's checks (path, method, key, size), reading and parsing`,
    '  the JSON body, and the answer. The listener answers **before** applying the event (contract 6.4: the service does',
    '  not wait), then applies it on the next turn of the event loop (`setImmediate`).',
    `- *200 → HomeKit event*: the plugin applies the event (door state, \`updateCharacteristic\`); then HAP-NodeJS`,
    `  **holds the event for ${holdText}** before writing it. In`,
    `  \`${r.hap.file}\` (${r.hap.packageName} ${r.hap.version}), \`HAPConnection.sendEvent\` queues each event per`,
    `  controller connection and starts \`setTimeout(handleEventsTimeout, ${hold ?? '?'})\` on the first queued one, so events`,
    `  of the next ${holdText} go out together in one \`EVENT/1.0\` message. Only ${r.hap.immediate.join(', ') || 'none'} are sent at`,
    '  once (and flush the queue); CurrentDoorState is not among them. Then encryption (ChaCha20-Poly1305), loopback,',
    `  and hap-controller decrypting and parsing it. All of it but the hold took ${ms(l.answerToHomeKit.median - (hold ?? 0))} median.`,
    `- So the end-to-end figure is about *POST → 200* + ${holdText} + a few ms; the hold is by far the largest`,
    "  part and is HAP-NodeJS's, not the plugin's. A real iPhone adds Wi-Fi or a home hub on top.",
    '',
  ];
}

function throughputSection(r: BenchReport): string[] {
  const t = r.throughput;
  const { cold, steady } = t;
  const doorRows = t.doors.map((d) => `| ${d.name} | ${d.lastSent} | ${doorStateName(d.shown)} | ${d.matches ? 'yes' : '**no**'} |`);
  const roundRows = t.rounds.map(
    (round, i) =>
      `| ${i + 1}${i === 0 ? ' (cold)' : ''}${i < THROUGHPUT_WARMUP_ROUNDS ? ' (warm-up)' : ''} | ${ms(round.wallMs)} | ${round.perSecond.toFixed(0)} | ${ms(round.latency.median)} | ${ms(round.latency.p99)} | ${round.non200} | ${round.doorsMatch ? 'yes' : '**no**'} | ${ms(round.settleMs)} | ${mib(round.memory?.rssKiB)} |`,
  );
  const rate = (value: number): string => value.toFixed(0);
  const firstSteady = THROUGHPUT_WARMUP_ROUNDS + 1;
  return [
    '## 3. Listener throughput',
    '',
    `Bursts of ${t.events} valid \`door_state_change\` events posted to the same listener, ${t.concurrency} in flight at a time over`,
    `${t.concurrency} kept-alive connections (undici \`Pool\`, new for each burst), unique ids, \`eventOccurred\` growing by 1 ms per`,
    'event (fractional UNIX seconds), spread over the 3 sample doors with random states; the last event of each door',
    'is the opposite of what it showed before, so a lost event would show. After each burst the controller reads every',
    `door's CurrentDoorState. ${t.rounds.length} bursts run back to back: the first is the cold figure (the listener had only`,
    `seen the few events of sections 1 and 4); the rate climbs over the first ${THROUGHPUT_WARMUP_ROUNDS} while V8 optimises, so bursts`,
    `${firstSteady}–${t.rounds.length} give the steady state.`,
    '',
    '| | Requests/s | Median answer | p99 answer | Non-200 (must be 0) | Every door ended on its last event |',
    '|---|---:|---:|---:|---:|---|',
    `| First burst of ${t.events} (cold) | ${rate(cold.perSecond)} | ${ms(cold.latency.median)} | ${ms(cold.latency.p99)} | ${cold.non200} | ${cold.doorsMatch ? 'yes' : '**no**'} |`,
    `| Steady state, bursts ${firstSteady}–${t.rounds.length} (median burst, min–max) | ${rate(steady.perSecond.median)} (${rate(steady.perSecond.min)}–${rate(steady.perSecond.max)}) | ${ms(steady.latency.median)} | ${ms(steady.latency.p99)} | ${t.non200} in all ${t.rounds.length} bursts | ${t.nothingLost ? 'yes, after every burst' : '**no**'} |`,
    '',
    SUMMARY_HEADER,
    summaryRow(`request sent → 200 received, first burst`, cold.latency),
    summaryRow(`request sent → 200 received, bursts ${firstSteady}–${t.rounds.length}`, steady.latency),
    '',
    '| Burst | Wall time | Requests/s | Median answer | p99 answer | Non-200 | Doors = last event | Last 200 → HomeKit shows it | Homebridge RSS after |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|',
    ...roundRows,
    '',
    ...(t.errors.length > 0 ? [`Failures: ${t.errors.map((e) => `\`${e}\``).join(', ')}.`, ''] : []),
    "**Nothing lost**: each door's CurrentDoorState read through the controller after the last burst:",
    '',
    '| Door | Last event sent | HomeKit shows | Equal |',
    '|---|---|---|---|',
    ...doorRows,
    '',
    `Homebridge logged ${t.changesLogged} door changes during the bursts (events whose state differed from the one shown`,
    'and that were not older than one already applied: an event overtaken by a newer one for the same door is dropped',
    `by design), and ${t.problemsLogged.length} lines telling of a failure${t.problemsLogged.length > 0 ? `: \`${t.problemsLogged.slice(0, 3).join('`, `')}\`` : ''}.`,
    '',
    '| Homebridge process memory (`/proc/<pid>/status`) | Before the bursts | After the bursts |',
    '|---|---:|---:|',
    `| VmRSS (resident) | ${mib(t.memoryBefore?.rssKiB)} | ${mib(t.memoryAfter?.rssKiB)} |`,
    `| VmHWM (peak resident so far) | ${mib(t.memoryBefore?.peakKiB)} | ${mib(t.memoryAfter?.peakKiB)} |`,
    '',
  ];
}

function pollSection(r: BenchReport): string[] {
  const p = r.poll;
  const d = p.derived;
  const sampleRows = p.samples.map(
    (s, i) => `| ${i + 1} | ${seconds(s.offsetMs)} | ${seconds(s.waitForPollMs)} | ${ms(s.pollToHomeKitMs)} | ${seconds(s.lagMs)} |`,
  );
  return [
    '## 2. Poll-only baseline',
    '',
    `The same plugin without the \`webhook\` block, \`pollInterval\` ${p.intervalS} s (the minimum). ${p.changes} changes outside`,
    'HomeKit at random offsets in the poll cycle (stratified: one in each eighth of the cycle, in random order); lag =',
    `change → the controller's HomeKit event. Missed (no event within ${seconds(POLL_EVENT_WAIT_MS)}): ${p.missed}. It ran alongside section 7's`,
    'idle window (five other bridges polling or idle on the same 2 CPUs).',
    '',
    SUMMARY_HEADER,
    summaryRow(`lag, measured at ${p.intervalS} s`, p.lag, seconds),
    summaryRow('change → next poll reaches the service', p.waitForPoll, seconds),
    summaryRow('poll reaches the service → HomeKit event', p.pollToHomeKit),
    summaryRow('time between polls', p.pollPeriod, seconds),
    summaryRow(`**derived** lag at ${d.intervalS} s (each wait × ${d.intervalS / p.intervalS}, plus its poll → event)`, d.scaled, seconds),
    '',
    '| # | Offset in cycle | Wait for poll | Poll → HomeKit event | Lag |',
    '|---:|---:|---:|---:|---:|',
    ...sampleRows,
    '',
    `The offsets are spread evenly over the cycle, so the mean wait for the poll, ${seconds(p.waitForPoll.mean)}, should be close to half`,
    `the measured time between polls (${seconds(p.pollPeriod.median / 2)}); that is what the derivation below relies on.`,
    '',
    `**Derived, not measured**: at the default \`pollInterval\` of ${d.intervalS} s a change made at a random moment waits on`,
    `average half the interval for the next poll, then the poll → event time measured above: about **${seconds(d.expectedMeanMs)}**`,
    `on average (${d.intervalS / 2} s + ${ms(p.pollToHomeKit.median)}) and up to **${seconds(d.worstMs)}** (${d.intervalS} s + the slowest`,
    'poll → event seen). The poll → event part includes the same HAP-NodeJS event hold as the webhook path.',
    '',
  ];
}

export function renderReport(r: BenchReport): string {
  return [
    ...header(r),
    ...reading(r),
    ...latencySection(r),
    ...pollSection(r),
    ...throughputSection(r),
    ...writeSection(r.write, r.hap.delayMs),
    ...syncSection(r.syncs, r.hap.delayMs),
    ...memorySection(r.memory, r.idle),
    ...cpuSection(r.idle),
    ...ratesSection(r.rates, r.poll, r.latency),
    ...startupSection(r.startup),
    ...contactSection(r.contact),
  ].join('\n');
}

/** Title of section 9: `npm run bench -- startup` replaces the file from here to its end. */
export const STARTUP_TITLE = '## 9. Start-up cost: import time and the memory the plugin adds';

const range = (s: Summary, format: (value: number) => string): string => `${format(s.median)} (${format(s.min)}–${format(s.max)})`;

export function startupSection(r: StartupResult): string[] {
  const rows = r.nodes.flatMap((n) =>
    n.trees.map((t) => {
      const added = t.bridgeRssKiB.map((b) => `**${mib(b.rss.median - n.bareRssKiB.median)}**`);
      const heap = t.bridgeRssKiB.map((b) => mib(b.heapUsed.median - n.bareHeapKiB.median)).join(' / ');
      return `| ${n.target} (${n.node}) | ${n.homebridge} | ${t.label} | **${range(t.importMs, ms)}** | **${mib(t.importRssKiB.median)}** | ${mib(n.bareRssKiB.median)} | ${added.join(' | ')} | ${heap} |`;
    }),
  );
  const heapRows = r.nodes.flatMap((n) =>
    n.trees.map(
      (t) =>
        `| ${n.target} | ${t.label} | ${t.bridgeRssKiB.map((b) => `${mib(b.rss.median)} (${mib(b.rss.min)}–${mib(b.rss.max)}); heap ${mib(b.heapUsed.median)}`).join(' | ')} | ${range(n.bareRssKiB, mib)}; heap ${mib(n.bareHeapKiB.median)} |`,
    ),
  );
  // With a baseline, what this tree's import costs against it on each Node, in words (issue 30 asks it said plainly).
  const compared = r.nodes.flatMap((n) => {
    const [before, after] = n.trees;
    if (n.trees.length !== 2 || before === undefined || after === undefined) return [];
    const msMore = after.importMs.median - before.importMs.median;
    const kibMore = after.importRssKiB.median - before.importRssKiB.median;
    return [
      `- ${n.target}: ${after.label} imports in ${ms(after.importMs.median)} and adds ${mib(after.importRssKiB.median)}, ` +
        `${msMore >= 0 ? `${ms(msMore)} more` : `${ms(-msMore)} less`} and ${kibMore >= 0 ? `${mib(kibMore)} more` : `${mib(-kibMore)} less`} than ${before.label}.`,
    ];
  });
  const parts = r.nodes[0]?.parts ?? [];
  const partRows = parts.map((p) => `| ${p.label} | ${range(p.ms, ms)} | ${mib(p.rssKiB.median)} |`);
  const counts = STARTUP_DOOR_COUNTS.join(', ');
  return [
    STARTUP_TITLE,
    '',
    `Measured ${r.startedAt.toISOString()} in ${seconds(r.ms)}, ${r.trees.length > 1 ? `for ${r.trees.map((t) => t.label).join(' and ')} (the baseline a built checkout named by \`BENCH_BASELINE_ROOT\`), each Node with the same load` : 'for this tree'}.`,
    `**Import**: \`import()\` of \`dist/index.js\` in a fresh Node process (cold module cache), ${IMPORT_RUNS} times per Node and tree, the trees`,
    'alternating; the time around the import and the VmRSS it added in that process. **Bridge**: a real Homebridge child process',
    `(dev/harness) with the plugin and the simulator as the cloud, an account of ${counts} doors, no controller paired, read ${seconds(STARTUP_SETTLE_MS)} after`,
    'the first sync was answered and every door registered, right after a full GC (the memory probe of section 6); the same Homebridge',
    `with no plugin at all (an empty plugin folder) booted alongside. ${MEMORY_ROUNDS} rounds per Node, each a bare bridge and one bridge per tree and`,
    'size side by side, every one a new process; *added* is the median with the plugin minus the median without it. Node 20 runs',
    `Homebridge 1.11.4 (\`homebridge\`), Node 22 and 24 Homebridge ${HOMEBRIDGE_2_VERSION} as the e2e matrix installs it (\`.cache/homebridge-${HOMEBRIDGE_2_VERSION}\`), through \`npx -y node@N\`:`,
    "the matrix of the e2e tests. How to read it: the import's time and the VmRSS it adds are steady from run to run (a bare Node",
    'process loading one thing); the VmRSS of separate Homebridge processes after a GC is not: it spreads by up to tens of MiB',
    'between bridges that load the same (min–max in the second table), so the *added* columns are rough, and the V8 heap in use',
    'after the GC (last column: live JavaScript objects, plugin minus bare) is the steady reading of what the plugin keeps.',
    '',
    `| Node | Homebridge | Plugin | Import, median (min–max) | RSS the import adds (median) | Bare Homebridge, VmRSS after GC | Added, ${STARTUP_DOOR_COUNTS.map((c) => `${c} doors`).join(' | Added, ')} | V8 heap added, ${STARTUP_DOOR_COUNTS.join(' / ')} doors |`,
    `|---|---|---|---:|---:|---:|${STARTUP_DOOR_COUNTS.map(() => '---:').join('|')}|---:|`,
    ...rows,
    '',
    ...(compared.length > 0 ? ['The import against the baseline, medians:', '', ...compared, ''] : []),
    "The plugin loads three of undici's files and leaves them as undici loads them (`src/client/undici.ts`): nothing stands in for",
    "undici's HTTP/2 connector any more (issue 30: plugins share one undici, and a stand-in in Node's require cache broke others),",
    'so node:http2, tls and crypto load with them at import; the row of the three files below is what undici costs the plugin.',
    '',
    'VmRSS after a full GC of each bridge, median (min–max) over the rounds, and its V8 heap in use:',
    '',
    `| Node | Plugin | ${STARTUP_DOOR_COUNTS.map((c) => `${c} doors`).join(' | ')} | No plugin |`,
    `|---|---|${STARTUP_DOOR_COUNTS.map(() => '---:').join('|')}|---:|`,
    ...heapRows,
    '',
    ...(partRows.length > 0
      ? [
          `What the dependencies cost alone (${r.nodes[0]?.target ?? ''}, imported the same way, ${IMPORT_RUNS} times each):`,
          '',
          '| Imported alone | Time, median (min–max) | RSS it adds |',
          '|---|---:|---:|',
          ...partRows,
          '',
        ]
      : []),
  ];
}

/** Title of section 10: `npm run bench -- contact` replaces it alone. */
export const CONTACT_TITLE = '## 10. Contact sensor on and off, and person sensors: webhook → HomeKit event';

export function contactSection(runs: ContactRuns): string[] {
  const rows = runs.results.flatMap((r) =>
    r.variants.flatMap((v) => {
      const door = summaryRow(`${r.homebridge}, ${v.label}: POST sent → CurrentDoorState event`, v.toDoorEvent);
      const contact =
        v.toContactEvent === undefined
          ? []
          : [summaryRow(`${r.homebridge}, ${v.label}: POST sent → ContactSensorState event`, v.toContactEvent)];
      const person =
        v.toPersonEvent === undefined
          ? []
          : [summaryRow(`${r.homebridge}, ${v.label}: POST sent → person sensor's MotionDetected event`, v.toPersonEvent)];
      return [door, ...contact, ...person];
    }),
  );
  const checks = runs.results.flatMap((r) =>
    r.variants.map(
      (v) =>
        `- ${r.homebridge}, ${v.label}: non-200 ${v.non200}, door events missed (within ${seconds(LATENCY_EVENT_WAIT_MS)}) ${v.missed}` +
        (v.sameDelivery === undefined
          ? ''
          : `; door event within ${SAME_DELIVERY_MS} ms of the contact event (same delivery) ${v.sameDelivery} of ${v.toDoorEvent.n}`) +
        (v.personMissed === undefined ? '' : `; person events missed ${v.personMissed}`) +
        '.',
    ),
  );
  const measured = runs.results.map((r) => `${r.homebridge}: ${r.startedAt.toISOString()}, ${seconds(r.ms)}`).join('; ');
  const gains = runs.results.map((r) => {
    const off = r.variants.find((v) => !v.contactSensor)?.toDoorEvent.median ?? Number.NaN;
    const on = r.variants.find((v) => v.contactSensor)?.toDoorEvent.median ?? Number.NaN;
    return `**${r.homebridge}: ${ms(off)} without, ${ms(on)} with** the contact sensor (median)`;
  });
  return [
    CONTACT_TITLE,
    '',
    `Measured ${measured} (\`npm run bench -- contact\` reruns this section alone; the figures above it may be from an earlier run).`,
    'Two bridges started the same way at the same time, each with the plugin, the sample account (3 doors), the webhook listener',
    `and \`pollInterval\` ${CONTACT_RIG_POLL_INTERVAL_S} s; one with \`contactSensor: true\` and a \`people\` entry for the user the webhooks name`,
    `(\`personSensorDuration\` ${CONTACT_PERSON_SENSOR_S} s). A paired controller per bridge subscribed, as a home hub does, to every door's CurrentDoorState`,
    "and, on the second bridge, to every contact sensor's ContactSensorState and the person sensor's MotionDetected. The bridges take",
    `turns, one change at a time on the machine, the order alternating: ${CONTACT_CHANGES} changes each (after ${CONTACT_WARMUP_CHANGES} warm-up ones),`,
    `${CONTACT_SPACING_MIN_MS}–${CONTACT_SPACING_MAX_MS} ms apart (a bridge's next change comes after its person sensor stopped detecting), made and`,
    'posted as in section 1. Homebridge 2.x runs under Node 22 (its engines), in',
    'the prefix the e2e matrix installs (`.cache/homebridge-2.4.0`), as a child bench.',
    '',
    SUMMARY_HEADER,
    ...rows,
    '',
    ...checks,
    ...runs.notes.map((n) => `- ${n}`),
    '',
    `${gains.join('; ')}. HAP-NodeJS holds a CurrentDoorState event up to 250 ms to batch it, but sends ContactSensorState at once and`,
    "flushes everything queued on that connection with it. The plugin updates the door's characteristics first and the contact sensor",
    "after, in the same tick, so the door's queued event leaves in the same delivery as the contact event instead of waiting out the hold.",
    'It only helps a controller subscribed to the contact sensor (a home hub is; an iPhone with Home open is for what it shows).',
    'MotionDetected is sent at once too: the person sensor, updated in the same tick after the door, is as fast as the contact sensor.',
    '',
  ];
}

/** BENCHMARKS.md with the section titled `title` replaced (up to the next `## ` heading) by `section`, or `section` appended. */
export async function writeSectionInPlace(title: string, section: string[]): Promise<string> {
  let existing = '';
  try {
    existing = await readFile(REPORT_FILE, 'utf8');
  } catch {
    // No report yet: the section alone.
  }
  const text = `${section.join('\n').replace(/\n*$/, '')}\n`;
  const at = existing.indexOf(title);
  let markdown: string;
  if (at < 0) {
    markdown = existing === '' ? text : `${existing.replace(/\n*$/, '')}\n\n${text}`;
  } else {
    const next = existing.indexOf('\n## ', at + title.length);
    markdown = next < 0 ? `${existing.slice(0, at)}${text}` : `${existing.slice(0, at)}${text}\n${existing.slice(next + 1)}`;
  }
  await writeFile(REPORT_FILE, markdown);
  return markdown;
}

export async function writeReport(markdown: string): Promise<void> {
  await writeFile(REPORT_FILE, markdown);
}

/** BENCHMARKS.md with section 9 replaced by (or, if missing, followed by) `section`; the other sections stay as the last full run wrote them. */
export async function writeStartupSection(section: string[]): Promise<string> {
  return writeSectionInPlace(STARTUP_TITLE, section);
}

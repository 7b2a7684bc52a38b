// Sections 5–7 of BENCHMARKS.md: sync and reconcile by account size, memory per door, and CPU at idle.
import { bytes, kib, mib, ms, percent, seconds, SUMMARY_HEADER, summaryRow } from './format.js';
import type { IdleResult } from './idle-window.js';
import { IDLE_MEMORY_EVERY_MS } from './idle-window.js';
import type { MemoryPerDoor, PerDoorFit } from './memory-per-door.js';
import { DOORS_PER_DEVICE } from './scale-account.js';
import { SCALE_POLL_INTERVAL_S } from './scale-rigs.js';
import { CHANGE_AFTER_POLL_MS, SYNC_EVENT_WAIT_MS } from './sync-reconcile.js';
import type { SyncReconcileResult } from './sync-reconcile.js';

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
    '| Doors | Controllers | Ready → every door in HomeKit (pairing included) | Sync answer on the wire | Sync served by the simulator (median) | Poll → HomeKit event (median) | Plugin\'s part: answer → event − hold (median) | Sync cycle: time between polls − interval (median) | Missed |',
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
    '**What it consists of.** *Sync served*: the simulator building the account\'s JSON and gzipping it (the plugin asks for',
    'gzip): the simulated service\'s cost, not a prediction of the real one. *Poll → HomeKit event*: that, loopback, the plugin',
    'receiving, gunzipping and validating (zod) the answer and applying every door up to the changed one, then HAP-NodeJS',
    `holding the event ${holdMs === undefined ? '(unknown time)' : `${holdMs} ms`} (section 1), encrypting and sending it. *Plugin's part* takes the simulator's time and the hold`,
    'away. *Sync cycle*: the plugin schedules the next poll once a sync has been applied, so the time between polls minus the',
    'interval is the whole sync as the plugin runs it: request, parsing, every door, and Homebridge saving its accessory cache,',
    "which the plugin asks for on every sync (`updatePlatformAccessories`) and which Homebridge does synchronously, serializing",
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
    ? [`for minutes: in this run the ${held.doorCount}-door bridge still held ${mib(held.kib)} of it through the idle window and gave it`, 'back at the forced GC.']
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

// Section 14 of BENCHMARKS.md: the Eve history's cost, in process: the start with it on and off for 149 doors (requests
// and time, against the simulator with a week of history), its memory per door when full, and Eve's full download.
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { Logging } from 'homebridge';

import { EveHistories } from '../../src/eve/eve-histories.js';
import { historyEntries } from '../../src/eve/eve-wire.js';
import { EVE_HISTORY_CAPACITY, PLATFORM_NAME } from '../../src/settings.js';
import { HomebridgeDouble, ManualClock } from '../../test/support/homebridge-double.js';
import { AccessControlSimulator } from '../simulator/server.js';
import { summarize } from './probes.js';
import type { Summary } from './probes.js';
import { SUMMARY_HEADER, summaryRow } from './report.js';
import { scaleAccount } from './rig.js';

export const EVE_TITLE = '## 14. Eve history: start-up with the backfill, memory per door, a full download';

const DOORS = 149;
const TOKEN = 'bench-eve-token';
/** Toggles per door in the simulator's history: a busy gate's week (an open and a close every 4 hours). */
const TOGGLES_PER_DOOR = 84;
const HOUR_MS = 60 * 60_000;
/** Starts of each setting measured (after one to warm up). */
const STARTS = 5;
const DOWNLOAD_RUNS = 50;

const quiet: Logging = Object.assign(() => undefined, {
  prefix: 'bench',
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
  success: () => undefined,
  log: () => undefined,
});

export interface EveRuns {
  startOn: Summary;
  startOff: Summary;
  requestsOn: number;
  requestsOff: number;
  controllers: number;
  recordsPerDoor: number;
  memoryPerDoorKiB: number;
  fileBytesPerDoor: number;
  downloadReads: number;
  download: Summary;
}

/** One start of the platform on the Homebridge double: its first sync and the history read after it; ms and requests. */
async function start(sim: AccessControlSimulator, eveHistory: boolean): Promise<{ ms: number; requests: number; records: number }> {
  const before = sim.countRequests('/endpoints/toggle-history');
  const api = new HomebridgeDouble();
  const clock = new ManualClock();
  const startedAt = performance.now();
  const platform = api.boot({ platform: PLATFORM_NAME, accessToken: TOKEN, baseUrl: sim.baseUrl, eveHistory }, quiet, clock, {
    readTimeoutMs: 30_000,
    clientTimeouts: { connectMs: 5_000, headersMs: 30_000, bodyMs: 30_000 },
  });
  clock.advance(0);
  await platform.syncSettled();
  const ms = performance.now() - startedAt;
  const first = [...api.registered.values()][0];
  const status = first?.services.find((s) => s.UUID.startsWith('E863F007'))?.characteristics.find((c) => c.UUID.startsWith('E863F116'));
  const used = typeof status?.value === 'string' ? Buffer.from(status.value, 'base64').readUInt16LE(15) : 1;
  await platform.shutdown();
  return { ms, requests: sim.countRequests('/endpoints/toggle-history') - before, records: used - 1 };
}

/** Heap bytes after a full collection. */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

export async function measureEveHistory(): Promise<EveRuns> {
  const devices = scaleAccount(DOORS);
  const sim = new AccessControlSimulator({ accessToken: TOKEN, devices, travelTimeMs: 0 });
  await sim.start();
  // The week before the simulated clock's start, which every start's clock begins at.
  const now = new ManualClock().now();
  for (const device of devices) {
    for (const door of device.doors) {
      for (let i = 0; i < TOGGLES_PER_DOOR; i += 1) {
        sim.addHistoryEvent({
          doorId: door.id,
          doorState: i % 2 === 0 ? 'OPEN' : 'CLOSED',
          at: new Date(now - (TOGGLES_PER_DOOR - i) * 2 * HOUR_MS),
        });
      }
    }
  }
  const on: number[] = [];
  const off: number[] = [];
  let requestsOn = 0;
  let requestsOff = 0;
  let recordsPerDoor = 0;
  try {
    await start(sim, true);
    for (let i = 0; i < STARTS; i += 1) {
      const a = await start(sim, true);
      const b = await start(sim, false);
      on.push(a.ms);
      off.push(b.ms);
      [requestsOn, requestsOff, recordsPerDoor] = [a.requests, b.requests, a.records];
    }
  } finally {
    await sim.stop();
  }

  // Memory: 149 doors' histories, each full.
  const clock = new ManualClock();
  const baseline = heapAfterGc();
  const histories = new EveHistories({ path: undefined, log: quiet, clock });
  for (let d = 0; d < DOORS; d += 1) {
    const { ring } = histories.door(`door-${d}`);
    for (let i = 0; i < EVE_HISTORY_CAPACITY; i += 1) ring.add(ring.referenceS + i * 600, i % 2, { opening: i % 2 === 1 });
  }
  const memoryPerDoorKiB = (heapAfterGc() - baseline) / DOORS / 1024;
  const full = histories.door('door-0').ring;
  const fileBytesPerDoor = full.toBytes().toString('base64').length;
  histories.stop();

  // Eve's download of a full history: reads until 00, timed whole.
  let downloadReads = 0;
  const times: number[] = [];
  for (let run = 0; run < DOWNLOAD_RUNS; run += 1) {
    const startedAt = performance.now();
    let next = full.referenceNumber;
    let reads = 0;
    for (;;) {
      reads += 1;
      const read = historyEntries(full, next, true);
      if (read.bytes.length === 1) break;
      // As HAP sends it: base64 text.
      read.bytes.toString('base64');
      next = read.next;
    }
    times.push(performance.now() - startedAt);
    downloadReads = reads;
  }
  return {
    startOn: summarize(on),
    startOff: summarize(off),
    requestsOn,
    requestsOff,
    controllers: devices.length,
    recordsPerDoor,
    memoryPerDoorKiB,
    fileBytesPerDoor,
    downloadReads,
    download: summarize(times),
  };
}

export function eveSection(runs: EveRuns): string[] {
  return [
    EVE_TITLE,
    '',
    `The plugin on the Homebridge double (in process, real HAP-NodeJS) against the simulator with ${DOORS} doors on ${runs.controllers} controllers, each door with ${TOGGLES_PER_DOOR} toggles in its last week; a start is the first sync and the history read after it (\`syncSettled\`), ${STARTS} starts each, Eve history on and off in turn.`,
    '',
    SUMMARY_HEADER,
    summaryRow('start, Eve history on (ms)', runs.startOn),
    summaryRow('start, Eve history off (ms)', runs.startOff),
    '',
    `- History requests at start: **${runs.requestsOn}** with the Eve history on, ${runs.requestsOff} with it off (one per controller either way: the backfill reads the history the plugin reads at start anyway, 8 days instead of 2).`,
    `- Records each door got from the backfill: ${runs.recordsPerDoor} (its successful toggles of the last 8 days with a time).`,
    `- Memory per door with a full history (${EVE_HISTORY_CAPACITY} records, heap after a full collection): **${runs.memoryPerDoorKiB.toFixed(1)} KiB**; ${((runs.memoryPerDoorKiB * DOORS) / 1024).toFixed(1)} MiB for ${DOORS} doors.`,
    `- The history file per door when full: ${runs.fileBytesPerDoor} bytes.`,
    `- Eve's full download of a full history: **${runs.downloadReads} reads** of HistoryEntries (11 records a read, then the one that says 00); all of them built in ${runs.download.median.toFixed(2)} ms (median of ${DOWNLOAD_RUNS}), so the download's time is HomeKit's round trips.`,
  ];
}

// `npm run bench`: measures webhook → HomeKit latency, the poll-only baseline and listener throughput on a real Homebridge.
import { performance } from 'node:perf_hooks';

import { homebridgePackage, READY_LINE } from '../dev/homebridge-process.js';
import { Cleanup } from './cleanup.js';
import { guardProcess } from './guard.js';
import { findHapCoalescing } from './hap-coalescing.js';
import { loadAverage, machineInfo } from './machine.js';
import { measurePollBaseline, POLL_BASELINE_INTERVAL_S } from './poll-baseline.js';
import { renderReport, REPORT_FILE, writeReport } from './report.js';
import type { PhaseTiming } from './report.js';
import { startRig } from './rig.js';
import { measureThroughput } from './throughput.js';
import { measureWebhookLatency } from './webhook-latency.js';

/** Poll interval of the webhook rig: long enough that no poll happens while it is measured. */
const WEBHOOK_RIG_POLL_INTERVAL_S = 300;
/** The bench normally takes under 3 minutes; past this it cleans up and exits on its own. */
const HARD_LIMIT_MS = 6 * 60_000;
/** After clean-up, the process is made to exit if some handle still holds it open this long. */
const EXIT_GRACE_MS = 5_000;

const progress = (text: string): void => {
  process.stderr.write(`bench: ${text}\n`);
};

async function timed<T>(phases: PhaseTiming[], name: string, run: () => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  progress(`${name}…`);
  try {
    return await run();
  } finally {
    phases.push({ name, ms: performance.now() - startedAt });
  }
}

async function run(cleanup: Cleanup): Promise<void> {
  const startedAt = new Date();
  const benchStart = performance.now();
  const machine = machineInfo();
  const packageName = homebridgePackage();
  const hap = findHapCoalescing(packageName);
  const phases: PhaseTiming[] = [];

  const webhookRig = await timed(phases, 'webhook rig start', () =>
    startRig(cleanup, { pollIntervalS: WEBHOOK_RIG_POLL_INTERVAL_S, webhook: true }),
  );
  const ready = READY_LINE.exec(webhookRig.hb.log());
  const homebridge = { packageName, version: ready?.[1] ?? webhookRig.hb.version, hapVersion: ready?.[2] ?? 'unknown' };
  const latency = await timed(phases, 'webhook latency', () => measureWebhookLatency(webhookRig));
  const throughput = await timed(phases, 'throughput', () => measureThroughput(webhookRig));
  await timed(phases, 'webhook rig stop', () => webhookRig.close());

  const pollRig = await timed(phases, 'poll rig start', () => startRig(cleanup, { pollIntervalS: POLL_BASELINE_INTERVAL_S, webhook: false }));
  const poll = await timed(phases, 'poll baseline', () => measurePollBaseline(pollRig));
  await timed(phases, 'poll rig stop', () => pollRig.close());

  const markdown = renderReport({
    startedAt,
    totalMs: performance.now() - benchStart,
    phases,
    machine,
    loadAtEnd: loadAverage(),
    homebridge,
    hap,
    webhookRigPollIntervalS: WEBHOOK_RIG_POLL_INTERVAL_S,
    latency,
    throughput,
    poll,
  });
  await writeReport(markdown);
  process.stdout.write(`${markdown}\n`);
  progress(`wrote ${REPORT_FILE}`);
}

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  const unguard = guardProcess(cleanup, HARD_LIMIT_MS);
  let exitCode = 0;
  try {
    await run(cleanup);
  } catch (error) {
    exitCode = 1;
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  } finally {
    for (const failure of await cleanup.runAll()) {
      exitCode = 1;
      process.stderr.write(`bench: clean-up step failed: ${failure}\n`);
    }
    unguard();
  }
  process.exitCode = exitCode;
  setTimeout(() => {
    progress(`something still held the process open ${EXIT_GRACE_MS} ms after clean-up; exiting anyway`);
    process.exit(exitCode);
  }, EXIT_GRACE_MS).unref();
}

void main();

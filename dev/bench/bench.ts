// `npm run bench`: measures latency, throughput, sync cost by account size, memory, idle CPU and request rates on real Homebridges.
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { optionSpec } from '../../src/option-catalog.js';
import { DEFAULT_RECONCILE_INTERVAL_S } from '../../src/settings.js';
import { homebridgeDir, READY_LINE, REPO_ROOT } from '../harness/homebridge-process.js';
import { CONTACT_JSON_MARK, measureContactAll, measureContactLatency } from './contact.js';
import { measurePollBaseline, measureThroughput, measureWebhookLatency, measureWriteLatency, POLL_BASELINE_INTERVAL_S } from './latency.js';
import { findHapCoalescing, loadAverage, machineInfo, SimRequestClock } from './probes.js';
import {
  CONTACT_TITLE,
  contactSection,
  renderReport,
  REPORT_FILE,
  startupSection,
  writeReport,
  writeSectionInPlace,
  writeStartupSection,
} from './report.js';
import type { PhaseTiming } from './report.js';
import { Cleanup, SCALE_POLL_INTERVAL_S, sendFirstWebhook, startRig, startScaleRigs } from './rig.js';
import { measureSyncReconcile, memoryPerDoor, pollingRate, watchIdle, webhookRate } from './scale.js';
import type { IdleTarget } from './scale.js';
import { measureRedaction, REDACTION_TITLE, redactionSection } from './redaction.js';
import { measureSettings, settingsSection, SETTINGS_TITLE } from './settings.js';
import { GATE_TITLE, gateSection, measureGate } from './gate.js';
import { measureStartup } from './startup.js';
import { EVE_TITLE, eveSection, measureEveHistory } from './eve-history.js';

// --- Makes the bench stop by itself: Ctrl+C, SIGTERM and a hard time limit all clean up before the process exits.

/** Exit code after SIGINT/SIGTERM (128 + signal number is the shell convention; 130 is Ctrl+C). */
const SIGNAL_EXIT_CODE = 130;
/** Exit code when the hard time limit fired. */
const WATCHDOG_EXIT_CODE = 124;

/** Installs the handlers; the returned function removes them (call it once the bench ended normally). */
export function guardProcess(cleanup: Cleanup, hardLimitMs: number): () => void {
  let ending = false;
  const bail = (why: string, code: number): void => {
    if (ending) {
      return;
    }
    ending = true;
    process.stderr.write(`\nbench: ${why}; cleaning up.\n`);
    void cleanup.runAll().then((failures) => {
      for (const failure of failures) {
        process.stderr.write(`bench: clean-up step failed: ${failure}\n`);
      }
      process.exit(code);
    });
  };
  const onSignal = (signal: NodeJS.Signals): void => bail(`got ${signal}`, SIGNAL_EXIT_CODE);
  const watchdog = setTimeout(
    () => bail(`still running after ${Math.round(hardLimitMs / 1000)} s (hard limit)`, WATCHDOG_EXIT_CODE),
    hardLimitMs,
  );
  watchdog.unref();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    clearTimeout(watchdog);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}

/** Poll interval of the webhook rig: long enough that no poll happens while it is measured. */
const WEBHOOK_RIG_POLL_INTERVAL_S = 300;
/** The bench normally takes under 12 minutes (half of it section 9); past this it cleans up and exits on its own. */
const HARD_LIMIT_MS = 25 * 60_000;
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
  const runDir = homebridgeDir();
  const packageName = path.relative(REPO_ROOT, runDir);
  const hap = findHapCoalescing(runDir);
  const phases: PhaseTiming[] = [];
  const requests = new SimRequestClock();
  requests.start();
  cleanup.add('simulator request clock', () => requests.stop());

  // Alone on the machine: the millisecond-scale measurements.
  const webhookRig = await timed(phases, 'webhook rig start', () =>
    startRig(cleanup, { pollIntervalS: WEBHOOK_RIG_POLL_INTERVAL_S, webhook: true }),
  );
  const ready = READY_LINE.exec(webhookRig.hb.log());
  const homebridge = { packageName, version: ready?.[1] ?? webhookRig.hb.version, hapVersion: ready?.[2] ?? 'unknown' };
  const latency = await timed(phases, 'webhook latency', () => measureWebhookLatency(webhookRig));
  // Before the bursts: they stamp events up to ~15 s ahead of the clock, which would make the arrivals' webhooks look stale.
  const write = await timed(phases, 'write → toggle', () => measureWriteLatency(webhookRig, requests));
  const throughput = await timed(phases, 'throughput', () => measureThroughput(webhookRig));
  const webhookRigStopped = webhookRig.close();

  await webhookRigStopped;
  // Two bridges side by side, taking turns: the contact sensor on and off (section 10; then Homebridge 2.x in a child bench).
  const contact = await timed(phases, 'contact sensor on/off (2 bridges, then Homebridge 2.x)', () => measureContactAll(cleanup, progress));

  // Side by side: six bridges. From here on a figure is per process, seconds long, or compares sizes under the same load.
  const pollRigStart = startRig(cleanup, { pollIntervalS: POLL_BASELINE_INTERVAL_S, webhook: false });
  const sideStart = startScaleRigs(cleanup);
  const [side, pollRig] = await timed(phases, 'side rigs start (6 at once; the webhook rig stops meanwhile)', async () => {
    // A barrier first: every boot ends (and registers what it started) before a failure is thrown.
    await Promise.allSettled([pollRigStart, sideStart]);
    return [await sideStart, await pollRigStart] as const;
  });
  const firstWebhook = await sendFirstWebhook(side.webhookDefaults);
  const syncs = await timed(phases, 'sync and reconcile (3 sizes at once)', () =>
    Promise.all(side.sized.map((s) => measureSyncReconcile(s, requests))),
  );
  const doors = (n: number): string => `${n} door${n === 1 ? '' : 's'}`;
  const idleTargets: IdleTarget[] = [
    { label: doors(0), kind: 'bare', schedule: `polls every ${optionSpec('pollInterval').default} s (default)`, rig: side.bare },
    ...side.sized.map((s): IdleTarget => ({
      label: doors(s.doorCount),
      kind: 'sized',
      schedule: `polls every ${SCALE_POLL_INTERVAL_S} s`,
      rig: s.rig,
    })),
    {
      label: `${doors(side.webhookDefaults.doorCount)}, webhooks`,
      kind: 'webhook',
      schedule: `webhooks arrived: syncs every ${DEFAULT_RECONCILE_INTERVAL_S} s (default reconcileInterval)`,
      rig: side.webhookDefaults,
    },
  ];
  const [idle, poll] = await Promise.all([
    timed(phases, 'idle window (alongside the poll baseline)', () => watchIdle(idleTargets, requests)),
    timed(phases, 'poll baseline', () => measurePollBaseline(pollRig)),
  ]);
  const watchEnd = performance.now();
  const memory = memoryPerDoor(idle);
  const rates = {
    polling: pollingRate(side.bare, requests, watchEnd),
    webhooks: webhookRate(side.webhookDefaults, requests, firstWebhook, watchEnd),
  };
  const rigs = [side.bare, side.webhookDefaults, ...side.sized.map((s) => s.rig), pollRig];
  await timed(phases, 'stop (all at once)', () => Promise.all([...rigs.map((rig) => rig.close())]));
  // Alone on the machine again: its bridges are its own.
  const startup = await timed(phases, 'start-up cost (section 9, Node 20, 22 and 24 one after another)', () => measureStartup(progress));

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
    write,
    syncs,
    idle,
    memory,
    rates,
    startup,
    contact,
  });
  await writeReport(markdown);
  // Sections 11 to 14 run in process, in seconds: appended to what the rigs measured.
  await writeSectionInPlace(SETTINGS_TITLE, settingsSection(measureSettings()));
  await writeSectionInPlace(REDACTION_TITLE, redactionSection(measureRedaction()));
  await writeSectionInPlace(GATE_TITLE, gateSection(measureGate()));
  const full = await writeSectionInPlace(EVE_TITLE, eveSection(await measureEveHistory()));
  process.stdout.write(`${full}\n`);
  progress(`wrote ${REPORT_FILE}`);
}

/** `npm run bench -- startup`: section 9 alone, written into the existing BENCHMARKS.md (the other sections keep their run's figures). */
async function runStartupOnly(): Promise<void> {
  const markdown = await writeStartupSection(startupSection(await measureStartup(progress)));
  process.stdout.write(`${markdown}\n`);
  progress(`wrote section 9 of ${REPORT_FILE}`);
}

/** `npm run bench -- contact`: section 10 alone, written into the existing BENCHMARKS.md (the other sections keep their run's figures). */
async function runContactOnly(cleanup: Cleanup): Promise<void> {
  const markdown = await writeSectionInPlace(CONTACT_TITLE, contactSection(await measureContactAll(cleanup, progress)));
  process.stdout.write(`${markdown}\n`);
  progress(`wrote section 10 of ${REPORT_FILE}`);
}

/** `npm run bench -- settings`: section 11 alone, written into the existing BENCHMARKS.md. */
async function runSettingsOnly(): Promise<void> {
  const markdown = await writeSectionInPlace(SETTINGS_TITLE, settingsSection(measureSettings()));
  process.stdout.write(`${markdown}\n`);
  progress(`wrote section 11 of ${REPORT_FILE}`);
}

/** `npm run bench -- redaction`: section 12 alone, written into the existing BENCHMARKS.md. */
async function runRedactionOnly(): Promise<void> {
  const markdown = await writeSectionInPlace(REDACTION_TITLE, redactionSection(measureRedaction()));
  process.stdout.write(`${markdown}\n`);
  progress(`wrote section 12 of ${REPORT_FILE}`);
}

/** `npm run bench -- gate`: section 13 alone, written into the existing BENCHMARKS.md. */
async function runGateOnly(): Promise<void> {
  const markdown = await writeSectionInPlace(GATE_TITLE, gateSection(measureGate()));
  process.stdout.write(`${markdown}\n`);
  progress(`wrote section 13 of ${REPORT_FILE}`);
}

/** `npm run bench -- eve`: section 14 alone, written into the existing BENCHMARKS.md. */
async function runEveOnly(): Promise<void> {
  const markdown = await writeSectionInPlace(EVE_TITLE, eveSection(await measureEveHistory()));
  process.stdout.write(`${markdown}\n`);
  progress(`wrote section 13 of ${REPORT_FILE}`);
}

/** `bench.js contact-json`: the child bench of section 10 for Homebridge 2.x; prints its result as one JSON line. */
async function runContactJson(cleanup: Cleanup): Promise<void> {
  const result = await measureContactLatency(cleanup);
  process.stdout.write(`${CONTACT_JSON_MARK}${JSON.stringify(result)}\n`);
}

async function main(): Promise<void> {
  const cleanup = new Cleanup();
  const unguard = guardProcess(cleanup, HARD_LIMIT_MS);
  let exitCode = 0;
  try {
    const mode = process.argv[2];
    await (mode === 'startup'
      ? runStartupOnly()
      : mode === 'contact'
        ? runContactOnly(cleanup)
        : mode === 'settings'
          ? runSettingsOnly()
          : mode === 'redaction'
            ? runRedactionOnly()
            : mode === 'gate'
              ? runGateOnly()
              : mode === 'eve'
                ? runEveOnly()
                : mode === 'contact-json'
                  ? runContactJson(cleanup)
                  : run(cleanup));
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

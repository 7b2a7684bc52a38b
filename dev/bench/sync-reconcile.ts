// Measurement 5: for one account size, the sync as the simulator serves it, and a poll's trip to HomeKit for a door changed just before.
import { performance } from 'node:perf_hooks';

import { syncBody } from '../simulator/contract.js';
import { DoorEventClock } from './door-events.js';
import { homeKitCurrent, opposite } from './door-values.js';
import { SCALE_POLL_INTERVAL_S } from './scale-rigs.js';
import type { ScaleRig } from './scale-rigs.js';
import { SYNC_PATH_SUFFIX } from './sim-request-clock.js';
import type { SimRequestClock, TimedRequest } from './sim-request-clock.js';
import { sleepUntil } from './sleep.js';
import { summarize } from './stats.js';
import type { Summary } from './stats.js';

/** Measured polls per size. */
export const SYNC_SAMPLES = 6;
/** Changes made first and not counted (the plugin's first "changed outside HomeKit", JIT). */
export const SYNC_WARMUP = 1;
/** A change is made at least this long after the previous poll was answered: "just after a poll". */
export const CHANGE_AFTER_POLL_MS = 100;
/** Longest wait for the next poll: two intervals and slack. */
const POLL_WAIT_MS = SCALE_POLL_INTERVAL_S * 2_000 + 5_000;
/** A poll whose HomeKit event takes longer than this counts as missed. */
export const SYNC_EVENT_WAIT_MS = 5_000;
const CHANNEL = 'Keypad';

export interface SyncSample {
  /** The change → the next poll's headers parsed at the simulator. */
  waitForPollMs: number;
  /** That poll at the simulator: headers parsed → answer handed to the OS. */
  pollServedMs: number;
  /** That poll's headers parsed → the HomeKit event at the controller. */
  pollToHomeKitMs: number;
  /** The answer handed to the OS → the HomeKit event: the plugin's part plus HAP-NodeJS's event hold and delivery. */
  answerToHomeKitMs: number;
}

export interface SyncReconcileResult {
  doorCount: number;
  devices: number;
  /** The ready line → every door in HomeKit (the first sync registers them one by one). */
  doorsReadyMs: number;
  samples: SyncSample[];
  /** Measured polls that never came, or whose HomeKit event never came. */
  missed: number;
  /** Every poll seen during the phase: headers parsed → answer handed to the OS, at the simulator. */
  served: Summary;
  /** Size of the sync answer on the wire, headers included (median over the polls). */
  answerBytes: number;
  /** The plugin asked for gzip (the simulator then compresses). */
  answerGzip: boolean;
  /** The same answer as plain JSON, bytes. */
  answerJsonBytes: number;
  pollToHomeKit: Summary;
  answerToHomeKit: Summary;
  /** Time between consecutive polls minus the interval: the plugin schedules the next poll when a sync has been applied. */
  cycleOverhead: Summary;
}

export async function measureSyncReconcile(scale: ScaleRig, requests: SimRequestClock): Promise<SyncReconcileResult> {
  const { rig, doorCount } = scale;
  const door = rig.doors[0];
  if (!door) {
    throw new Error(`the ${doorCount}-door rig tracks no door`);
  }
  const isPollAfter =
    (afterMs: number) =>
    (r: TimedRequest): boolean =>
      r.port === rig.simPort && r.path.endsWith(SYNC_PATH_SUFFIX) && r.startMs > afterMs;
  const phaseStart = performance.now();
  const clock = await DoorEventClock.start(rig.controller, [door.current]);
  let previous = await requests.waitForAnswered(isPollAfter(phaseStart), POLL_WAIT_MS);
  const samples: SyncSample[] = [];
  for (let i = 0; i < SYNC_WARMUP + SYNC_SAMPLES && previous?.finishMs !== undefined; i += 1) {
    await sleepUntil(previous.finishMs + CHANGE_AFTER_POLL_MS);
    const state = opposite(rig.sim.getDoor(door.id)?.state ?? 'CLOSED');
    const expected = clock.expect(door.current, homeKitCurrent(state));
    const changedAt = performance.now();
    rig.sim.setDoorState(door.id, state, { channel: CHANNEL, silent: true });
    const poll = await requests.waitForAnswered(isPollAfter(changedAt), POLL_WAIT_MS);
    const arrival = poll === undefined ? undefined : await expected.wait(SYNC_EVENT_WAIT_MS);
    if (i >= SYNC_WARMUP && poll?.finishMs !== undefined && arrival !== undefined) {
      samples.push({
        waitForPollMs: poll.startMs - changedAt,
        pollServedMs: poll.finishMs - poll.startMs,
        pollToHomeKitMs: arrival.perfMs - poll.startMs,
        answerToHomeKitMs: arrival.perfMs - poll.finishMs,
      });
    }
    previous = poll;
  }
  const polls = requests.requests(rig.simPort, SYNC_PATH_SUFFIX).filter((r) => r.startMs >= phaseStart && r.finishMs !== undefined);
  const periods = polls.slice(1).map((r, k) => r.startMs - (polls[k]?.startMs ?? r.startMs) - SCALE_POLL_INTERVAL_S * 1000);
  const bytes = summarize(polls.map((r) => r.bytes ?? Number.NaN).filter(Number.isFinite));
  return {
    doorCount,
    devices: rig.sim.devices.length,
    doorsReadyMs: rig.doorsReadyMs,
    samples,
    // A poll that never came ends the loop early; a poll whose event never came is skipped.
    missed: SYNC_SAMPLES - samples.length,
    served: summarize(polls.map((r) => (r.finishMs ?? r.startMs) - r.startMs)),
    answerBytes: bytes.median,
    answerGzip: polls.some((r) => r.gzipAsked),
    answerJsonBytes: Buffer.byteLength(JSON.stringify(syncBody(rig.sim.devices))),
    pollToHomeKit: summarize(samples.map((s) => s.pollToHomeKitMs)),
    answerToHomeKit: summarize(samples.map((s) => s.answerToHomeKitMs)),
    cycleOverhead: summarize(periods),
  };
}

// Measurement 2: the same changes without webhooks, found by polling at the shortest interval; lag at the default interval derived.
import { DEFAULT_POLL_INTERVAL_S, MIN_POLL_INTERVAL_S } from '../../src/settings.js';
import { DoorEventClock } from './door-events.js';
import { homeKitCurrent, opposite } from './door-values.js';
import type { Rig } from './rig.js';
import { sleep } from './sleep.js';
import { summarize } from './stats.js';
import type { Summary } from './stats.js';

/** The poll interval measured: the shortest the config allows, to keep the bench short. */
export const POLL_BASELINE_INTERVAL_S = MIN_POLL_INTERVAL_S;
/** The interval users get unless they set one; its lag is derived, not measured. */
export const POLL_DERIVED_INTERVAL_S = DEFAULT_POLL_INTERVAL_S;
/** Measured changes; their offsets within the poll cycle are stratified (one per 1/N of the cycle) in random order. */
export const POLL_CHANGES = 8;
/** A change must wait at least this long after "now" to be scheduled at its offset (else the next cycle is used). */
const SCHEDULE_MARGIN_MS = 50;
/** A change whose HomeKit event takes longer than this (a cycle and a half plus slack) counts as missed. */
export const POLL_EVENT_WAIT_MS = POLL_BASELINE_INTERVAL_S * 1500 + 5_000;
const SYNC_PATH_SUFFIX = '/endpoints/sync';
const CHANNEL = 'Keypad';

export interface PollSample {
  /** Where in the poll cycle the change was made, ms after the previous poll. */
  offsetMs: number;
  /** Change → the next poll reaching the simulator. */
  waitForPollMs: number;
  /** That poll reaching the simulator → the HomeKit event (sync answer, plugin's work, HAP event hold, delivery). */
  pollToHomeKitMs: number;
  /** Change → HomeKit event. */
  lagMs: number;
}

export interface PollBaselineResult {
  intervalS: number;
  changes: number;
  missed: number;
  samples: PollSample[];
  lag: Summary;
  waitForPoll: Summary;
  pollToHomeKit: Summary;
  /** Time between consecutive polls as the simulator saw them (the interval plus the sync's own duration). */
  pollPeriod: Summary;
  derived: DerivedPollLag;
}

/** The lag at POLL_DERIVED_INTERVAL_S, computed (not measured) from the samples above. */
export interface DerivedPollLag {
  intervalS: number;
  /** Each sample's wait for the poll scaled by derived/measured interval, plus its measured poll → HomeKit time. */
  scaled: Summary;
  /** Half the interval plus the median poll → HomeKit time: the average for a change at a random moment. */
  expectedMeanMs: number;
  /** The whole interval plus the slowest poll → HomeKit time seen. */
  worstMs: number;
}

function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    const a = out[i] as T;
    out[i] = out[j] as T;
    out[j] = a;
  }
  return out;
}

export async function measurePollBaseline(rig: Rig): Promise<PollBaselineResult> {
  const { sim, doors } = rig;
  const intervalMs = POLL_BASELINE_INTERVAL_S * 1000;
  const syncTimes = (): number[] =>
    sim.requests.filter((request) => request.path.replace(/\/+$/, '').endsWith(SYNC_PATH_SUFFIX)).map((request) => request.at);
  const clock = await DoorEventClock.start(rig.controller, doors.map((door) => door.current));
  const offsets = shuffled(Array.from({ length: POLL_CHANGES }, (_, k) => ((k + Math.random()) / POLL_CHANGES) * intervalMs));
  const samples: PollSample[] = [];
  let missed = 0;
  for (const [i, offsetMs] of offsets.entries()) {
    const door = doors[i % doors.length];
    const simDoor = door && sim.getDoor(door.id);
    if (!door || !simDoor) {
      throw new Error('the sample account lost a door');
    }
    const lastPoll = syncTimes().at(-1) ?? Date.now();
    let changeAt = lastPoll + offsetMs;
    while (changeAt < Date.now() + SCHEDULE_MARGIN_MS) {
      changeAt += intervalMs;
    }
    await sleep(changeAt - Date.now());
    const state = opposite(simDoor.state);
    const expected = clock.expect(door.current, homeKitCurrent(state));
    // The simulator records a sync and answers it in one go, so every sync recorded after this count sees the change.
    const pollsBefore = syncTimes().length;
    const changedAt = Date.now();
    // No webhook target in this rig: the change is only seen by the next poll.
    sim.setDoorState(door.id, state, { channel: CHANNEL });
    const arrival = await expected.wait(POLL_EVENT_WAIT_MS);
    const pollAt = syncTimes()[pollsBefore];
    if (arrival === undefined || pollAt === undefined) {
      missed += 1;
      continue;
    }
    samples.push({
      offsetMs: (changedAt - lastPoll) % intervalMs,
      waitForPollMs: pollAt - changedAt,
      pollToHomeKitMs: arrival.epochMs - pollAt,
      lagMs: arrival.epochMs - changedAt,
    });
  }
  const polls = syncTimes();
  const periods = polls.slice(1).map((at, i) => at - (polls[i] ?? at));
  const scale = POLL_DERIVED_INTERVAL_S / POLL_BASELINE_INTERVAL_S;
  const pollToHomeKit = summarize(samples.map((s) => s.pollToHomeKitMs));
  return {
    intervalS: POLL_BASELINE_INTERVAL_S,
    changes: POLL_CHANGES,
    missed,
    samples,
    lag: summarize(samples.map((s) => s.lagMs)),
    waitForPoll: summarize(samples.map((s) => s.waitForPollMs)),
    pollToHomeKit,
    pollPeriod: summarize(periods),
    derived: {
      intervalS: POLL_DERIVED_INTERVAL_S,
      scaled: summarize(samples.map((s) => s.waitForPollMs * scale + s.pollToHomeKitMs)),
      expectedMeanMs: (POLL_DERIVED_INTERVAL_S * 1000) / 2 + pollToHomeKit.median,
      worstMs: POLL_DERIVED_INTERVAL_S * 1000 + pollToHomeKit.max,
    },
  };
}

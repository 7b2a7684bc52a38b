// Measurement 4: the paired controller writes TargetDoorState (a tap in Home); timed to the toggle POST at the simulator and to the write's answer.
import { performance } from 'node:perf_hooks';

import { TARGET_DOOR_STATE } from '../harness/hap-types.js';
import { ACTIVE_POLL_INTERVAL_MS } from '../../src/settings.js';
import type { SimDoorState } from '../simulator/server.js';
import { DoorEventClock } from './door-events.js';
import { homeKitCurrent, opposite } from './door-values.js';
import type { Rig } from './rig.js';
import { SYNC_PATH_SUFFIX, TOGGLE_PATH_SUFFIX } from './sim-request-clock.js';
import type { SimRequestClock, TimedRequest } from './sim-request-clock.js';
import { randomBetween, sleep } from './sleep.js';
import { summarize } from './stats.js';
import type { Summary } from './stats.js';

/** Measured writes, alternating OPEN and CLOSED on one door. */
export const WRITE_SAMPLES = 30;
/** Writes made first and not counted (connections, JIT). */
export const WRITE_WARMUP = 3;
/** The simulator's door travel time during this phase: short, so the door arrives quickly between writes. */
export const WRITE_TRAVEL_TIME_MS = 100;
/** A write whose toggle or whose arrival in HomeKit takes longer than this counts as missed. */
export const WRITE_WAIT_MS = 5_000;
/** Pause after the door arrived before the next write (drawn anew each time). */
const WRITE_PAUSE_MIN_MS = 100;
const WRITE_PAUSE_MAX_MS = 200;
/** Slack on top of ACTIVE_POLL_INTERVAL_MS when waiting for the sync that follows the last command. */
const QUIET_SLACK_MS = 1_000;

export interface WriteSample {
  /** performance.now() just before controller.write → the simulator parsed the toggle POST's headers. */
  toToggleMs: number;
  /** The same, from the simulator's own `at` (Date.now() after reading the body, whole ms) and Date.now() before the write. */
  toToggleAtMs: number;
  /** The simulator's toggle POST: headers parsed → answer handed to the OS. */
  toggleServedMs: number;
  /** The toggle answer handed to the OS → the write's answer at the controller (plugin reads it, HAP answers the write). */
  toggleToAnswerMs: number;
  /** controller.write called → it resolved. */
  roundTripMs: number;
  /** controller.write called → the CurrentDoorState event for the target (travel time, webhook, HAP event hold included). */
  arrivedMs: number;
}

export interface WriteLatencyResult {
  samples: number;
  warmup: number;
  doorName: string;
  travelTimeMs: number;
  toToggle: Summary;
  toToggleAt: Summary;
  toggleServed: Summary;
  toggleToAnswer: Summary;
  roundTrip: Summary;
  arrived: Summary;
  /** Writes that failed, sent no toggle, or whose door never showed as arrived. */
  missed: number;
  /** Every toggle the simulator answered with 200. */
  allAccepted: boolean;
}

export async function measureWriteLatency(rig: Rig, requests: SimRequestClock): Promise<WriteLatencyResult> {
  const { sim, controller } = rig;
  const door = rig.doors[0];
  if (!door) {
    throw new Error('the rig tracks no door');
  }
  sim.setTravelTime(WRITE_TRAVEL_TIME_MS);
  const clock = await DoorEventClock.start(controller, [door.current]);
  const samples: WriteSample[] = [];
  const statuses: (number | undefined)[] = [];
  let missed = 0;
  let lastArrivalMs = performance.now();
  for (let i = 0; i < WRITE_WARMUP + WRITE_SAMPLES; i += 1) {
    const wanted: SimDoorState = opposite(sim.getDoor(door.id)?.state ?? 'CLOSED');
    const expected = clock.expect(door.current, homeKitCurrent(wanted));
    const togglesBefore = sim.countRequests(TOGGLE_PATH_SUFFIX);
    const sentEpochMs = Date.now();
    const sentAt = performance.now();
    const isToggle = (r: TimedRequest): boolean => r.port === rig.simPort && r.path.endsWith(TOGGLE_PATH_SUFFIX) && r.startMs >= sentAt;
    let ok = true;
    try {
      await controller.write(door.target, wanted === 'OPEN' ? TARGET_DOOR_STATE.OPEN : TARGET_DOOR_STATE.CLOSED);
    } catch {
      ok = false;
    }
    const answeredAt = performance.now();
    const toggle = await requests.waitForAnswered(isToggle, WRITE_WAIT_MS);
    const arrival = await expected.wait(WRITE_WAIT_MS);
    lastArrivalMs = performance.now();
    const recorded = sim.requests.filter((r) => r.path.endsWith(TOGGLE_PATH_SUFFIX))[togglesBefore];
    if (i >= WRITE_WARMUP) {
      statuses.push(toggle?.status);
      if (!ok || toggle?.finishMs === undefined || arrival === undefined || recorded === undefined) {
        missed += 1;
      } else {
        samples.push({
          toToggleMs: toggle.startMs - sentAt,
          toToggleAtMs: recorded.at - sentEpochMs,
          toggleServedMs: toggle.finishMs - toggle.startMs,
          toggleToAnswerMs: answeredAt - toggle.finishMs,
          roundTripMs: answeredAt - sentAt,
          arrivedMs: arrival.perfMs - sentAt,
        });
      }
    }
    await sleep(randomBetween(WRITE_PAUSE_MIN_MS, WRITE_PAUSE_MAX_MS));
  }
  // After a command the plugin syncs within ACTIVE_POLL_INTERVAL_MS (every time while a door moves): once a sync has run
  // with the door arrived, the next is a reconcile interval away, and the next phase starts quiet.
  const isSettlingSync = (r: TimedRequest): boolean => r.port === rig.simPort && r.path.endsWith(SYNC_PATH_SUFFIX) && r.startMs > lastArrivalMs;
  await requests.waitForAnswered(isSettlingSync, ACTIVE_POLL_INTERVAL_MS + QUIET_SLACK_MS);
  const pick = (key: keyof WriteSample): Summary => summarize(samples.map((s) => s[key]));
  return {
    samples: WRITE_SAMPLES,
    warmup: WRITE_WARMUP,
    doorName: door.name,
    travelTimeMs: WRITE_TRAVEL_TIME_MS,
    toToggle: pick('toToggleMs'),
    toToggleAt: pick('toToggleAtMs'),
    toggleServed: pick('toggleServedMs'),
    toggleToAnswer: pick('toggleToAnswerMs'),
    roundTrip: pick('roundTripMs'),
    arrived: pick('arrivedMs'),
    missed,
    allAccepted: statuses.every((status) => status === 200),
  };
}

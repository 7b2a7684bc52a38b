// Measurement 1: a door moved outside HomeKit, its webhook posted to the plugin's listener, and the HomeKit event timed.
import { performance } from 'node:perf_hooks';

import { DoorEventClock } from './door-events.js';
import { homeKitCurrent, opposite } from './door-values.js';
import type { Rig } from './rig.js';
import { randomBetween, sleepUntil } from './sleep.js';
import { summarize } from './stats.js';
import type { Summary } from './stats.js';

/** Measured changes; alternating doors, each change flips its door. */
export const LATENCY_CHANGES = 60;
/** Changes made first and not counted: connections, JIT and caches warm up. */
export const LATENCY_WARMUP_CHANGES = 6;
/** Gap between two posts, drawn anew each time; well above HAP-NodeJS's event hold, so no two changes share one event. */
export const LATENCY_SPACING_MIN_MS = 400;
export const LATENCY_SPACING_MAX_MS = 600;
/** A change whose HomeKit event takes longer than this counts as missed. */
export const LATENCY_EVENT_WAIT_MS = 5_000;
/** The channel the webhooks name, like a keypad at the gate. */
const CHANNEL = 'Keypad';

export interface WebhookLatencyResult {
  changes: number;
  warmup: number;
  /** Webhook POST sent → the listener's answer fully received (new TCP connection each, as the simulator delivers). */
  postRoundTrip: Summary;
  /** Webhook POST sent → the HomeKit event at the controller. */
  toHomeKit: Summary;
  /** The listener's answer received → the HomeKit event: the plugin's work plus HAP-NodeJS's event hold and delivery. */
  answerToHomeKit: Summary;
  /** Answers other than 200. */
  non200: number;
  /** Changes whose HomeKit event never came within LATENCY_EVENT_WAIT_MS. */
  missed: number;
}

interface Sample {
  postMs: number;
  eventMs: number | undefined;
  status: number;
}

/**
 * The simulator exposes no delivery timing, so each change is made silently in the simulator and its webhook
 * (built by the simulator, same sender code as its automatic deliveries) is posted here with sendRawWebhook and timed.
 */
export async function measureWebhookLatency(rig: Rig): Promise<WebhookLatencyResult> {
  const { sim, doors } = rig;
  const clock = await DoorEventClock.start(rig.controller, doors.map((door) => door.current));
  const samples: Sample[] = [];
  let nextAt = performance.now();
  for (let i = 0; i < LATENCY_WARMUP_CHANGES + LATENCY_CHANGES; i += 1) {
    const door = doors[i % doors.length];
    const simDoor = door && sim.getDoor(door.id);
    if (!door || !simDoor) {
      throw new Error('the sample account lost a door');
    }
    await sleepUntil(nextAt);
    const state = opposite(simDoor.state);
    sim.setDoorState(door.id, state, { channel: CHANNEL, silent: true });
    const event = sim.buildWebhookEvent(door.id, { doorState: state, eventOccurred: Math.floor(Date.now() / 1000), channel: CHANNEL });
    const expected = clock.expect(door.current, homeKitCurrent(state));
    const sentAt = performance.now();
    nextAt = sentAt + randomBetween(LATENCY_SPACING_MIN_MS, LATENCY_SPACING_MAX_MS);
    const response = await sim.sendRawWebhook(event);
    const answeredAt = performance.now();
    const arrival = await expected.wait(LATENCY_EVENT_WAIT_MS);
    if (i >= LATENCY_WARMUP_CHANGES) {
      samples.push({
        postMs: answeredAt - sentAt,
        eventMs: arrival === undefined ? undefined : arrival.perfMs - sentAt,
        status: response.status,
      });
    }
  }
  const arrived = samples.filter((s): s is Sample & { eventMs: number } => s.eventMs !== undefined);
  return {
    changes: LATENCY_CHANGES,
    warmup: LATENCY_WARMUP_CHANGES,
    postRoundTrip: summarize(samples.map((s) => s.postMs)),
    toHomeKit: summarize(arrived.map((s) => s.eventMs)),
    answerToHomeKit: summarize(arrived.map((s) => s.eventMs - s.postMs)),
    non200: samples.filter((s) => s.status !== 200).length,
    missed: samples.length - arrived.length,
  };
}

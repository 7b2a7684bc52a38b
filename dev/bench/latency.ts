// Measurements 1-4: webhook to HomeKit, polling to HomeKit, a HomeKit write to the service, and webhook throughput in bursts.
import { performance } from 'node:perf_hooks';

import { Pool } from 'undici';

import { optionSpec } from '../../src/option-catalog.js';
import { ACTIVE_POLL_INTERVAL_MS, DEFAULT_WEBHOOK_HEADER_NAME } from '../../src/settings.js';
import { TARGET_DOOR_STATE } from '../harness/hap-types.js';
import type { SimDoorState } from '../simulator/server.js';
import {
  DoorEventClock,
  homeKitCurrent,
  opposite,
  randomBetween,
  readProcessMemory,
  sleep,
  sleepUntil,
  summarize,
  SYNC_PATH_SUFFIX,
  TOGGLE_PATH_SUFFIX,
} from './probes.js';
import type { ProcessMemory, SimRequestClock, Summary, TimedRequest } from './probes.js';
import type { Rig } from './rig.js';

/** The channel the webhooks and the doors moved outside HomeKit name, like a keypad at the gate. */
const CHANNEL = 'Keypad';

// --- Measurement 1: a door moved outside HomeKit, its webhook posted to the plugin's listener, and the HomeKit event timed.

/** Measured changes; alternating doors, each change flips its door. */
export const LATENCY_CHANGES = 60;
/** Changes made first and not counted: connections, JIT and caches warm up. */
export const LATENCY_WARMUP_CHANGES = 6;
/** Gap between two posts, drawn anew each time; well above HAP-NodeJS's event hold, so no two changes share one event. */
export const LATENCY_SPACING_MIN_MS = 400;
export const LATENCY_SPACING_MAX_MS = 600;
/** A change whose HomeKit event takes longer than this counts as missed. */
export const LATENCY_EVENT_WAIT_MS = 5_000;

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
  const clock = await DoorEventClock.start(
    rig.controller,
    doors.map((door) => door.current),
  );
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

// --- Measurement 2: the same changes without webhooks, found by polling at the shortest interval; lag at the default interval derived.

/** The poll interval measured: the shortest the config allows, to keep the bench short. */
export const POLL_BASELINE_INTERVAL_S = optionSpec('pollInterval').min;
/** The interval users get unless they set one; its lag is derived, not measured. */
export const POLL_DERIVED_INTERVAL_S = optionSpec('pollInterval').default;
/** Measured changes; their offsets within the poll cycle are stratified (one per 1/N of the cycle) in random order. */
export const POLL_CHANGES = 8;
/** A change must wait at least this long after "now" to be scheduled at its offset (else the next cycle is used). */
const SCHEDULE_MARGIN_MS = 50;
/** A change whose HomeKit event takes longer than this (a cycle and a half plus slack) counts as missed. */
export const POLL_EVENT_WAIT_MS = POLL_BASELINE_INTERVAL_S * 1500 + 5_000;

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
  const clock = await DoorEventClock.start(
    rig.controller,
    doors.map((door) => door.current),
  );
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

// --- Measurement 4: the paired controller writes TargetDoorState (a tap in Home); timed to the toggle POST at the simulator and to the write's answer.

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
  const isSettlingSync = (r: TimedRequest): boolean =>
    r.port === rig.simPort && r.path.endsWith(SYNC_PATH_SUFFIX) && r.startMs > lastArrivalMs;
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

// --- One burst of valid webhooks at the listener, many in flight over kept-alive connections, then a check that HomeKit shows each door's last one.

/** Below the listener's 5 s keep-alive, so the client never reuses a socket the listener is closing. */
const CLIENT_KEEP_ALIVE_MS = 4_000;
/** One request may take at most this long for its headers, and again for its body. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Longest wait for HomeKit to show every door's last event once the last answer came. */
export const SETTLE_WAIT_MS = 10_000;
const SETTLE_POLL_MS = 25;
/** Distinct failure texts kept for the report. */
const MAX_ERRORS_KEPT = 5;

export interface BurstOptions {
  events: number;
  concurrency: number;
  /** eventOccurred of the first event, in ms since the epoch; each next event is 1 ms later. */
  firstOccurredMs: number;
  /** Makes event ids unique across bursts. */
  tag: string;
}

export interface DoorOutcome {
  name: string;
  /** State of the door's last event (highest eventOccurred). */
  lastSent: SimDoorState;
  /** CurrentDoorState read through the controller at the end. */
  shown: unknown;
  matches: boolean;
}

export interface BurstResult {
  wallMs: number;
  perSecond: number;
  /** Request sent → whole answer received, per request, in ms. */
  latencies: number[];
  non200: number;
  errors: string[];
  doors: DoorOutcome[];
  /** Last answer → every door's CurrentDoorState equal to its last event; undefined if not within SETTLE_WAIT_MS. */
  settleMs: number | undefined;
}

interface PlannedEvent {
  doorId: string;
  state: SimDoorState;
  body: string;
}

/**
 * Unique ids; eventOccurred grows by 1 ms per event (fractional UNIX seconds, which the plugin reads to the ms), so
 * per door the last event is the newest and must win whatever order the requests arrive in. Every door's last event
 * is the opposite of what it shows now, so a lost event cannot pass unnoticed; the others are random.
 */
function planEvents(rig: Rig, options: BurstOptions): PlannedEvent[] {
  const { sim, doors } = rig;
  const doorAt = (i: number): string => doors[i % doors.length]?.id ?? '';
  const lastIndex = new Map<string, number>();
  for (let i = 0; i < options.events; i += 1) {
    lastIndex.set(doorAt(i), i);
  }
  return Array.from({ length: options.events }, (_, i) => {
    const doorId = doorAt(i);
    const shown = sim.getDoor(doorId)?.state ?? 'CLOSED';
    const state: SimDoorState = lastIndex.get(doorId) === i ? opposite(shown) : Math.random() < 0.5 ? 'OPEN' : 'CLOSED';
    const event = sim.buildWebhookEvent(doorId, {
      id: `bench-${options.tag}-${i}`,
      doorState: state,
      eventOccurred: (options.firstOccurredMs + i) / 1000,
      channel: CHANNEL,
    });
    return { doorId, state, body: JSON.stringify(event) };
  });
}

async function readDoors(rig: Rig, lastSent: Map<string, SimDoorState>): Promise<DoorOutcome[]> {
  const outcomes: DoorOutcome[] = [];
  for (const door of rig.doors) {
    const sent = lastSent.get(door.id) ?? 'CLOSED';
    const shown = await rig.controller.read(door.current);
    outcomes.push({ name: door.name, lastSent: sent, shown, matches: shown === homeKitCurrent(sent) });
  }
  return outcomes;
}

interface PostOutcome {
  latencies: number[];
  errors: string[];
  non200: number;
}

/** Posts every planned event, `concurrency` workers each sending its next one as soon as the previous was answered. */
async function post(
  pool: Pool,
  planned: PlannedEvent[],
  path: string,
  headers: Record<string, string>,
  concurrency: number,
): Promise<PostOutcome> {
  const latencies: number[] = [];
  const errors = new Set<string>();
  let non200 = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < planned.length; i = next++) {
      const body = planned[i]?.body ?? '';
      const sentAt = performance.now();
      try {
        const response = await pool.request({ path, method: 'POST', headers, body });
        const text = await response.body.text();
        latencies.push(performance.now() - sentAt);
        if (response.statusCode !== 200) {
          non200 += 1;
          if (errors.size < MAX_ERRORS_KEPT) errors.add(`HTTP ${response.statusCode}: ${text.slice(0, 120)}`);
        }
      } catch (error) {
        non200 += 1;
        if (errors.size < MAX_ERRORS_KEPT) errors.add(error instanceof Error ? error.message : String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  return { latencies, errors: [...errors], non200 };
}

/** A fresh connection pool per burst, so every burst pays the same connection set-up. */
export async function runBurst(rig: Rig, options: BurstOptions): Promise<BurstResult> {
  if (rig.webhookUrl === undefined) {
    throw new Error("a burst needs the rig's webhook listener");
  }
  const url = new URL(rig.webhookUrl);
  const planned = planEvents(rig, options);
  const lastSent = new Map<string, SimDoorState>(planned.map((p) => [p.doorId, p.state]));
  const headers = { 'content-type': 'application/json', [DEFAULT_WEBHOOK_HEADER_NAME.toLowerCase()]: rig.webhookApiKey };
  const pool = new Pool(url.origin, {
    connections: options.concurrency,
    pipelining: 1,
    keepAliveTimeout: CLIENT_KEEP_ALIVE_MS,
    headersTimeout: REQUEST_TIMEOUT_MS,
    bodyTimeout: REQUEST_TIMEOUT_MS,
  });
  let sent: PostOutcome;
  const startedAt = performance.now();
  try {
    sent = await post(pool, planned, url.pathname, headers, options.concurrency);
  } finally {
    await pool.close();
  }
  const answeredAt = performance.now();
  const wallMs = answeredAt - startedAt;
  // Keep the simulator's account in line with what was announced, as the real service's would be.
  for (const [doorId, state] of lastSent) {
    rig.sim.setDoorState(doorId, state, { channel: CHANNEL, silent: true });
  }
  let doors = await readDoors(rig, lastSent);
  while (!doors.every((d) => d.matches) && performance.now() - answeredAt < SETTLE_WAIT_MS) {
    await sleep(SETTLE_POLL_MS);
    doors = await readDoors(rig, lastSent);
  }
  return {
    wallMs,
    perSecond: (planned.length / wallMs) * 1000,
    ...sent,
    doors,
    settleMs: doors.every((d) => d.matches) ? performance.now() - answeredAt : undefined,
  };
}

// --- Measurement 3: repeated bursts of valid webhooks against the listener; rate, answer times, nothing lost, Homebridge's memory.

/** Events per burst. */
export const THROUGHPUT_EVENTS = 2_000;
/** Requests in flight at any moment, one kept-alive connection each. */
export const THROUGHPUT_CONCURRENCY = 50;
/** Bursts run back to back: the first is reported as the cold figure, the last ones give the steady state. */
export const THROUGHPUT_ROUNDS = 8;
/** Bursts left out of the steady state: the rate climbs over the first few while V8 optimises the hot paths. */
export const THROUGHPUT_WARMUP_ROUNDS = 3;

export interface RoundResult {
  wallMs: number;
  perSecond: number;
  latency: Summary;
  non200: number;
  settleMs: number | undefined;
  doorsMatch: boolean;
  /** Homebridge's memory right after the burst was checked. */
  memory: ProcessMemory | undefined;
}

export interface SteadyState {
  rounds: number;
  /** Requests/s of each steady burst. */
  perSecond: Summary;
  /** Request sent → 200 received, over every request of the steady bursts. */
  latency: Summary;
}

export interface ThroughputResult {
  events: number;
  concurrency: number;
  rounds: RoundResult[];
  /** The first burst, on a listener that has only seen the latency phase's few events. */
  cold: RoundResult;
  /** The bursts after THROUGHPUT_WARMUP_ROUNDS. */
  steady: SteadyState;
  /** Over every burst. */
  non200: number;
  errors: string[];
  /** Every round ended with every door showing its last event. */
  nothingLost: boolean;
  /** The doors after the last round. */
  doors: DoorOutcome[];
  /** Homebridge log lines saying a door changed: events neither equal to the state shown nor overtaken by a newer one. */
  changesLogged: number;
  /** Homebridge log lines that tell of a failure. */
  problemsLogged: string[];
  memoryBefore: ProcessMemory | undefined;
  memoryAfter: ProcessMemory | undefined;
}

export async function measureThroughput(rig: Rig): Promise<ThroughputResult> {
  const { hb } = rig;
  const logMark = hb.lineCount();
  const memoryBefore = readProcessMemory(hb.pid);
  const rounds: RoundResult[] = [];
  const steadyLatencies: number[] = [];
  const errors = new Set<string>();
  let doors: DoorOutcome[] = [];
  let nextOccurredMs = Date.now();
  for (let round = 0; round < THROUGHPUT_ROUNDS; round += 1) {
    // Every event is newer than every earlier one, across rounds too.
    const firstOccurredMs = Math.max(Date.now(), nextOccurredMs);
    nextOccurredMs = firstOccurredMs + THROUGHPUT_EVENTS;
    const burst = await runBurst(rig, {
      events: THROUGHPUT_EVENTS,
      concurrency: THROUGHPUT_CONCURRENCY,
      firstOccurredMs,
      tag: `${firstOccurredMs.toString(36)}-${round}`,
    });
    if (round >= THROUGHPUT_WARMUP_ROUNDS) {
      steadyLatencies.push(...burst.latencies);
    }
    burst.errors.forEach((e) => errors.add(e));
    doors = burst.doors;
    rounds.push({
      wallMs: burst.wallMs,
      perSecond: burst.perSecond,
      latency: summarize(burst.latencies),
      non200: burst.non200,
      settleMs: burst.settleMs,
      doorsMatch: burst.doors.every((d) => d.matches),
      memory: readProcessMemory(hb.pid),
    });
  }
  const burstLog = hb.log().split('\n').slice(logMark);
  const cold = rounds[0];
  if (cold === undefined) {
    throw new Error('no burst was run');
  }
  const steadyRounds = rounds.slice(THROUGHPUT_WARMUP_ROUNDS);
  return {
    events: THROUGHPUT_EVENTS,
    concurrency: THROUGHPUT_CONCURRENCY,
    rounds,
    cold,
    steady: {
      rounds: steadyRounds.length,
      perSecond: summarize(steadyRounds.map((r) => r.perSecond)),
      latency: summarize(steadyLatencies),
    },
    non200: rounds.reduce((sum, r) => sum + r.non200, 0),
    errors: [...errors],
    nothingLost: rounds.every((r) => r.doorsMatch),
    doors,
    changesLogged: burstLog.filter((line) => / is now (open|closed) /.test(line)).length,
    problemsLogged: burstLog.filter((line) => /error|failed|refused|could not/i.test(line)),
    memoryBefore,
    memoryAfter: readProcessMemory(hb.pid),
  };
}

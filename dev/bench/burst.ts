// One burst of valid webhooks at the listener, many in flight over kept-alive connections, then a check that HomeKit shows each door's last one.
import { performance } from 'node:perf_hooks';

import { Pool } from 'undici';

import { DEFAULT_WEBHOOK_HEADER_NAME } from '../../src/settings.js';
import type { SimDoorState } from '../simulator/server.js';
import { homeKitCurrent, opposite } from './door-values.js';
import type { Rig } from './rig.js';
import { sleep } from './sleep.js';

/** Below the listener's 5 s keep-alive, so the client never reuses a socket the listener is closing. */
const CLIENT_KEEP_ALIVE_MS = 4_000;
/** One request may take at most this long for its headers, and again for its body. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Longest wait for HomeKit to show every door's last event once the last answer came. */
export const SETTLE_WAIT_MS = 10_000;
const SETTLE_POLL_MS = 25;
/** Distinct failure texts kept for the report. */
const MAX_ERRORS_KEPT = 5;
const CHANNEL = 'Keypad';

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
async function post(pool: Pool, planned: PlannedEvent[], path: string, headers: Record<string, string>, concurrency: number): Promise<PostOutcome> {
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
    throw new Error('a burst needs the rig\'s webhook listener');
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

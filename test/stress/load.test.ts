// Load: 2,000 webhook events, 50 in flight, through WebhookReceiver and then RealtimeUpdates: all answered, each applied once, the newest state wins.
import { randomBytes, randomUUID } from 'node:crypto';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

import { Pool } from 'undici';
import { describe, expect, it, vi } from 'vitest';

import type { DoorState } from '../../src/client/types.js';
import { WEBHOOK_SEEN_IDS_MAX } from '../../src/settings.js';
import type { WebhookEvent } from '../../src/webhook/event.js';
import { WebhookReceiver } from '../../src/webhook/receiver.js';
import { captureLog } from '../support/log.js';
import { seededRandom, shuffle } from '../support/random.js';
import { collectionSizes, OrderedDoor, startRealtime } from '../support/realtime-harness.js';

const KEY = randomBytes(48).toString('hex');
const EVENTS = 2_000;
const IN_FLIGHT = 50;
const DOOR_IDS = ['door-a', 'door-b', 'door-c', 'door-d', 'door-e'] as const;
const FIRST_SECOND = 1_700_000_000;
/** Duplicates are shuffled within blocks this many events long, so a repeat always comes while its id is still remembered. */
const SHUFFLE_BLOCK = 200;
/** Long enough for any loaded machine; the waits end as soon as the condition holds. */
const SETTLE = { timeout: 10_000, interval: 5 };

interface SentEvent {
  id: string;
  doorId: string;
  state: DoorState;
  occurredAtMs: number;
  body: string;
}

/** Unique ids, eventOccurred one second apart in sending order, spread over a few doors. */
function makeEvents(random: () => number): SentEvent[] {
  return Array.from({ length: EVENTS }, (_, i) => {
    const doorId = DOOR_IDS[Math.floor(random() * DOOR_IDS.length)] ?? DOOR_IDS[0];
    const state: DoorState = random() < 0.5 ? 'OPEN' : 'CLOSED';
    const seconds = FIRST_SECOND + i;
    const id = randomUUID();
    const body = JSON.stringify({
      id,
      eventType: 'door_state_change',
      doorID: doorId,
      doorState: state,
      eventOccurred: seconds,
      channel: 'Keypad',
      userThatToggled: { firstName: 'Ada', lastName: 'Lovelace' },
    });
    return { id, doorId, state, occurredAtMs: seconds * 1000, body };
  });
}

/** The state of the last event sent for each door. */
function lastStates(events: readonly SentEvent[]): Map<string, DoorState> {
  const last = new Map<string, DoorState>();
  for (const event of events) {
    last.set(event.doorId, event.state);
  }
  return last;
}

interface Burst {
  statuses: Map<number, number>;
}

/** POSTs every body over a pool of IN_FLIGHT kept-alive connections, IN_FLIGHT requests at a time. */
async function burst(url: string, bodies: readonly string[]): Promise<Burst> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: IN_FLIGHT, pipelining: 1 });
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let body = bodies[next++]; body !== undefined; body = bodies[next++]) {
      const response = await pool.request({
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-api-key': KEY },
        body,
      });
      await response.body.text();
      statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  } finally {
    await pool.close();
  }
  return { statuses };
}

/**
 * The connections a server served requests on, as the server saw them (Node's `http.server.request.start` channel): what
 * the listener did with the burst, not what the client sent. Call the returned function to stop watching.
 */
function watchServedConnections(port: () => number): { sockets: Set<Socket>; requests: () => number; stop: () => void } {
  const sockets = new Set<Socket>();
  let requests = 0;
  const onRequest = (message: unknown): void => {
    const { server, socket } = message as { server: Server; socket: Socket };
    const address = server.address();
    if (typeof address !== 'object' || address?.port !== port()) return;
    sockets.add(socket);
    requests += 1;
  };
  subscribe('http.server.request.start', onRequest);
  return { sockets, requests: () => requests, stop: () => void unsubscribe('http.server.request.start', onRequest) };
}

/** Lets deliveries queued with setImmediate run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('a burst of webhooks', () => {
  it('WebhookReceiver answers 2,000 events sent 50 at a time with 200 and hands each to onEvent once, intact', async () => {
    const events = makeEvents(seededRandom(1));
    const received: WebhookEvent[] = [];
    const receiver = new WebhookReceiver({
      port: 0,
      host: '127.0.0.1',
      apiKey: KEY,
      onEvent: (event) => void received.push(event),
      log: captureLog(),
    });
    await receiver.start();
    const served = watchServedConnections(() => receiver.port);
    try {
      const { statuses } = await burst(
        receiver.url,
        events.map((event) => event.body),
      );
      expect(Object.fromEntries(statuses)).toEqual({ 200: EVENTS });
      // The listener took every request, over the client's IN_FLIGHT kept-alive connections at once: none refused, none
      // closed after its answer (a new connection per request would show as more sockets, a refusal as a failed request).
      expect({ requests: served.requests(), connections: served.sockets.size }).toEqual({ requests: EVENTS, connections: IN_FLIGHT });
      await vi.waitFor(() => expect(received).toHaveLength(EVENTS), SETTLE);
      await turn();
      expect(received).toHaveLength(EVENTS);
      expect(receiver.stats).toEqual({ accepted: EVENTS, unauthorized: 0, rejected: 0 });

      const sent = new Map(events.map((event) => [event.id, event]));
      expect(new Set(received.map((event) => event.id)).size).toBe(EVENTS);
      for (const event of received) {
        const original = sent.get(event.id ?? '');
        expect({ doorId: event.doorId, doorState: event.doorState, occurredAtMs: event.occurredAtMs }).toEqual({
          doorId: original?.doorId,
          doorState: original?.state,
          occurredAtMs: original?.occurredAtMs,
        });
      }

      // Arrival order is the network's; reading each door's newest event by eventOccurred gives the last one sent.
      const newest = new Map<string, { at: number; state: DoorState | undefined }>();
      for (const event of received) {
        const door = event.doorId ?? '';
        const at = event.occurredAtMs ?? Number.NEGATIVE_INFINITY;
        if (at > (newest.get(door)?.at ?? Number.NEGATIVE_INFINITY)) {
          newest.set(door, { at, state: event.doorState });
        }
      }
      expect(new Map([...newest].map(([door, { state }]) => [door, state]))).toEqual(lastStates(events));
    } finally {
      served.stop();
      await receiver.stop();
    }
  });

  it('RealtimeUpdates applies each of 2,000 events sent twice, shuffled, 50 at a time, exactly once, and every door ends in its newest state', async () => {
    const random = seededRandom(2);
    const events = makeEvents(random);
    const now = (): number => 1_700_000_000_000;
    const applications = new Map<number | undefined, number>();
    const countApplication = (at: number | undefined): void => void applications.set(at, (applications.get(at) ?? 0) + 1);
    const doors = new Map(DOOR_IDS.map((id) => [id as string, new OrderedDoor(id, 'CLOSED', now, countApplication)]));
    const { realtime, log, url } = await startRealtime({
      config: { apiKey: KEY },
      findDoor: (event) => (event.doorId === undefined ? undefined : doors.get(event.doorId)),
      now,
    });
    const repeats = (): number => log.texts('debug').filter((text) => text.includes('came again; applied once')).length;
    try {
      const sends: string[] = [];
      for (let start = 0; start < EVENTS; start += SHUFFLE_BLOCK) {
        const block = events.slice(start, start + SHUFFLE_BLOCK).flatMap((event) => [event.body, event.body]);
        sends.push(...shuffle(block, random));
      }
      const { statuses } = await burst(url, sends);
      expect(Object.fromEntries(statuses)).toEqual({ 200: 2 * EVENTS });

      const calls = (): number => [...doors.values()].reduce((sum, door) => sum + door.calls, 0);
      await vi.waitFor(() => expect(calls() + repeats()).toBe(2 * EVENTS), SETTLE);
      await turn();

      expect(calls()).toBe(EVENTS);
      expect(repeats()).toBe(EVENTS);
      expect(applications.size).toBe(EVENTS);
      expect([...applications.values()].every((count) => count === 1)).toBe(true);
      for (const [doorId, state] of lastStates(events)) {
        expect({ doorId, state: doors.get(doorId)?.model.reported }).toEqual({ doorId, state });
      }
      expect(realtime.flowing).toBe(true);
      expect(log.counts.error).toBe(0);
      const sizes = collectionSizes({ realtime });
      expect(sizes.get('realtime.seenIds.order')).toBeLessThanOrEqual(WEBHOOK_SEEN_IDS_MAX);
      expect(sizes.get('realtime.seenIds.seen')).toBe(sizes.get('realtime.seenIds.order'));
    } finally {
      await realtime.stop();
    }
  });
});

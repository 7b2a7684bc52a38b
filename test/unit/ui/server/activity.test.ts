// "People and activity" on the settings server: each door's history read once, at most 4 in flight, one door's failure its own, the service's text cleaned.
import { describe, expect, it } from 'vitest';

import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_PEOPLE, SAMPLE_SHARED_GATE_ID } from '../../../../dev/simulator/server.js';
import type { AccessControlSimulator } from '../../../../dev/simulator/server.js';
import type { ToggleEvent } from '../../../../src/client/types.js';
import { ACTIVITY_DAYS, ACTIVITY_REQUESTS_IN_FLIGHT_MAX, MAX_RETRY_AFTER_MS } from '../../../../src/settings.js';
import { activityDays, HistoryPause, readActivity, waitWords } from '../../../../src/ui/server/activity.js';
import { InFlightLimit } from '../../../../src/ui/server/in-flight-limit.js';
import type { ActivityAnswer, DoorActivity } from '../../../../src/ui/shared/messages.js';
import { useSimulator } from '../../../support/simulator.js';

const TOKEN = 'activity-token-5e2a';
const SHORT_TIMEOUTS = { connectMs: 500, headersMs: 500, bodyMs: 500 };
const BASE = 'https://api.example.com';

let sim: AccessControlSimulator;
useSimulator({ accessToken: TOKEN }, (started) => (sim = started));

const doorsOf = (answer: ActivityAnswer): DoorActivity[] => {
  if (!answer.ok) throw new Error(answer.message);
  return answer.doors;
};

describe('readActivity, the bound', () => {
  it('reads 20 doors with at most 4 requests in flight, each door once even when asked twice', async () => {
    const asked: string[] = [];
    let running = 0;
    let peak = 0;
    const readDoor = async (doorId: string): Promise<ToggleEvent[]> => {
      asked.push(doorId);
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return [];
    };
    const ids = Array.from({ length: 20 }, (_, i) => `door-${i}`);
    const answer = await readActivity(BASE, TOKEN, [...ids, 'door-3'], {
      readDoor,
      limit: new InFlightLimit(ACTIVITY_REQUESTS_IN_FLIGHT_MAX),
    });
    expect(peak).toBe(ACTIVITY_REQUESTS_IN_FLIGHT_MAX);
    expect(asked.sort()).toEqual([...ids].sort());
    expect(doorsOf(answer).map((door) => door.doorId)).toEqual(ids);
  });

  it("one door failing is that door's result; the others are read; a stalled door ends at the deadline", async () => {
    const readDoor = (doorId: string): Promise<ToggleEvent[]> =>
      doorId === 'bad'
        ? Promise.reject(new Error('socket hang up'))
        : doorId === 'stalled'
          ? new Promise<ToggleEvent[]>(() => undefined)
          : Promise.resolve([]);
    const doors = doorsOf(await readActivity(BASE, TOKEN, ['a', 'bad', 'stalled', 'b'], { readDoor, deadlineMs: 50 }));
    expect(doors.map((door) => [door.doorId, door.ok])).toEqual([
      ['a', true],
      ['bad', false],
      ['stalled', false],
      ['b', true],
    ]);
    expect(doors[2]).toMatchObject({ message: 'The service did not answer in time for this door. Reload the page to try again.' });
  });

  it('asks for the last 7 days, today included, in UTC', () => {
    expect(ACTIVITY_DAYS).toBe(7);
    expect(activityDays(Date.UTC(2026, 10, 25, 23, 59))).toEqual({ startDate: '2026-11-19', endDate: '2026-11-25' });
  });

  it('refuses settings that cannot sync, naming the field, and asks nothing', async () => {
    let asked = 0;
    const answer = await readActivity('', TOKEN, ['a'], { readDoor: () => ((asked += 1), Promise.resolve([])) });
    expect(answer).toEqual({ ok: false, message: expect.stringMatching(/^Fix the settings first: Service address/) as unknown });
    expect(asked).toBe(0);
  });
});

describe('readActivity against the simulator', () => {
  it('gives each door its own entries, newest first, with who, how and the refused ones', async () => {
    const now = Date.now();
    sim.addHistoryEvent({
      doorId: SAMPLE_FRONT_GATE_ID,
      doorState: 'OPEN',
      at: new Date(now - 60_000),
      channel: 'Keypad',
      user: SAMPLE_PEOPLE.grace,
    });
    sim.addHistoryEvent({
      doorId: SAMPLE_FRONT_GATE_ID,
      doorState: 'OPEN',
      at: new Date(now - 30_000),
      channel: 'App',
      user: SAMPLE_PEOPLE.alan,
      wasSuccess: false,
    });
    sim.addHistoryEvent({
      doorId: SAMPLE_GARAGE_DOOR_ID,
      doorState: 'CLOSED',
      at: new Date(now - 10_000),
      channel: 'Remote',
      user: SAMPLE_PEOPLE.alan,
    });
    // Older than the 7 days: not asked for.
    sim.addHistoryEvent({
      doorId: SAMPLE_GARAGE_DOOR_ID,
      doorState: 'OPEN',
      at: new Date(now - 9 * 24 * 3_600_000),
      user: SAMPLE_PEOPLE.grace,
    });
    const doors = doorsOf(
      await readActivity(sim.baseUrl, TOKEN, [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID], {
        timeouts: SHORT_TIMEOUTS,
      }),
    );
    const [front, garage, shared] = doors;
    expect(front).toMatchObject({
      ok: true,
      more: 0,
      entries: [
        { state: 'OPEN', outcome: 'refused', channel: 'App', person: { name: 'Alan Turing', email: 'alan@example.com' } },
        { state: 'OPEN', outcome: 'done', channel: 'Keypad', person: { name: 'Grace Hopper', email: 'grace@example.com' } },
      ],
    });
    expect(garage).toMatchObject({ ok: true, entries: [{ state: 'CLOSED', outcome: 'done', channel: 'Remote' }] });
    expect(garage?.ok && garage.entries).toHaveLength(1);
    expect(shared).toEqual({ doorId: SAMPLE_SHARED_GATE_ID, ok: true, entries: [], more: 0, total: 0, refused: 0, people: [] });
    expect(JSON.stringify(doors)).not.toContain(TOKEN);
  });

  it.each([
    [401, /^The service refused to show this door's history \(HTTP 401\)/],
    [403, /^The service refused to show this door's history \(HTTP 403\)/],
    [500, /^The service answered with an error for this door \(HTTP 500\)/],
    [404, /^The service has no history for this door\.$/],
  ])('says in words that the service answered %i, for that door only', async (status, words) => {
    sim.setFault('history', { kind: 'status', status }, { times: 1 });
    const doors = doorsOf(
      await readActivity(sim.baseUrl, TOKEN, [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID], {
        timeouts: SHORT_TIMEOUTS,
        limit: new InFlightLimit(1),
      }),
    );
    expect(doors[0]).toMatchObject({
      ok: false,
      message: expect.stringMatching(words) as unknown,
      detail: expect.stringContaining(String(status)) as unknown,
    });
    expect(doors[1]).toMatchObject({ ok: true });
  });

  it('after a 429 asks no more history until the wait has passed: the other doors say so, and the service saw one request', async () => {
    sim.setFault('history', { kind: 'status', status: 429, retryAfterS: 30 }, { times: 1 });
    let nowMs = Date.now();
    const pause = new HistoryPause(() => nowMs);
    const ids = [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID];
    const historyRequests = () => sim.requests.filter((request) => request.path.includes('toggle-history')).length;
    const before = historyRequests();
    const doors = doorsOf(await readActivity(sim.baseUrl, TOKEN, ids, { timeouts: SHORT_TIMEOUTS, limit: new InFlightLimit(1), pause }));
    expect(historyRequests() - before).toBe(1);
    for (const door of doors) {
      expect(door).toMatchObject({ ok: false, message: expect.stringMatching(/^The service is limiting requests for now/) as unknown });
      // Worded from the service's Retry-After of 30 s, not "in a minute".
      expect(door.ok ? '' : door.message).toContain('Reload the page in 30 seconds to try again.');
    }
    // A second page load within the wait asks nothing either; after it, the doors are read.
    await readActivity(sim.baseUrl, TOKEN, ids, { timeouts: SHORT_TIMEOUTS, pause });
    expect(historyRequests() - before).toBe(1);
    nowMs += 30_000;
    const later = doorsOf(await readActivity(sim.baseUrl, TOKEN, ids, { timeouts: SHORT_TIMEOUTS, pause }));
    expect(later.every((door) => door.ok)).toBe(true);
  });

  it('words the wait from Retry-After: seconds, a minute, minutes, at most an hour', () => {
    expect(waitWords(5_000)).toBe('in 5 seconds');
    expect(waitWords(1_000)).toBe('in a second');
    expect(waitWords(60_000)).toBe('in a minute');
    expect(waitWords(undefined)).toBe('in a minute');
    expect(waitWords(61_000)).toBe('in 2 minutes');
    expect(waitWords(3 * 24 * 60 * 60_000)).toBe('in an hour');
  });

  it('waits at most as long as the sync would after a 429 asking for days', () => {
    let nowMs = 0;
    const pause = new HistoryPause(() => nowMs);
    pause.rateLimited(3 * 24 * 60 * 60_000);
    expect(pause.left()).toBe(MAX_RETRY_AFTER_MS);
    nowMs += MAX_RETRY_AFTER_MS;
    expect(pause.left()).toBeUndefined();
  });

  it('says the service did not answer in time when it hangs', async () => {
    sim.setFault('history', { kind: 'hang' });
    const doors = doorsOf(await readActivity(sim.baseUrl, TOKEN, [SAMPLE_FRONT_GATE_ID], { timeouts: SHORT_TIMEOUTS, deadlineMs: 300 }));
    sim.clearFaults();
    expect(doors[0]).toMatchObject({
      ok: false,
      message: 'The service did not answer in time for this door. Reload the page to try again.',
    });
  });
});

describe("readActivity, the service's text without a secret (issue 38)", () => {
  it('shows a person or channel holding the token or a saved webhook key as [redacted]', async () => {
    const key = 'ab12'.repeat(24);
    sim.addHistoryEvent({
      doorId: SAMPLE_SHARED_GATE_ID,
      doorState: 'OPEN',
      at: new Date(Date.now() - 5_000),
      channel: `Keypad ${key}`,
      user: { id: 'u-38', firstName: TOKEN, lastName: 'Lovelace', emailAddress: 'ada@example.com' },
    });
    const doors = doorsOf(await readActivity(sim.baseUrl, TOKEN, [SAMPLE_SHARED_GATE_ID], { timeouts: SHORT_TIMEOUTS, secrets: [key] }));
    expect(doors[0]).toMatchObject({
      ok: true,
      entries: [{ channel: 'Keypad [redacted]', person: { name: '[redacted] Lovelace', email: 'ada@example.com' } }],
    });
    expect(JSON.stringify(doors)).not.toContain(key);
  });
});

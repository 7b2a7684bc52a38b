// The history read once at start (issue 43): one request per controller, one at a time; per door, paced, where the
// service refuses a controller's history or its entries name no door; stopped by a rate limit; a door looked at first
// needs none.
import { describe, expect, it, vi } from 'vitest';

import { ServiceError } from '../../../src/client/errors.js';
import type { HistoryQuery } from '../../../src/client/service-client.js';
import type { ToggleEvent } from '../../../src/client/types.js';
import { HISTORY_BASELINE_PACE_MS, HISTORY_BASELINE_RETRIES, HISTORY_BASELINE_RETRY_MS } from '../../../src/settings.js';
import { HistoryBaseline } from '../../../src/sync/history-baseline.js';
import { ManualClock } from '../../support/homebridge-double.js';
import { captureLog } from '../../support/log.js';

const doors = [
  { doorId: 'door-1', deviceId: 'device-1', name: 'Front Gate' },
  { doorId: 'door-2', deviceId: 'device-1', name: 'Garage Door' },
  { doorId: 'door-3', deviceId: 'device-2', name: 'Shared Gate' },
];
const entry = (doorId: string | undefined): ToggleEvent => ({
  doorId,
  doorName: undefined,
  doorState: 'OPEN',
  channel: 'Keypad',
  userName: 'Alan Turing',
  wasSuccess: true,
  at: '2026-11-21',
});

/** A baseline on a manual clock (2026-11-21T12:00:00Z), its history answered by `answer`; what it settled, per door. */
function setup(answer: (query: HistoryQuery) => Promise<ToggleEvent[]>) {
  const log = captureLog();
  const clock = new ManualClock();
  const history = vi.fn<(q: HistoryQuery) => Promise<ToggleEvent[]>>(answer);
  const settled = new Map<string, number>();
  const baseline = new HistoryBaseline({
    history,
    log,
    clock,
    name: (doorId) => doors.find((d) => d.doorId === doorId)?.name ?? doorId,
    settle: (doorId, entries) => settled.set(doorId, entries.length),
  });
  const asked = (): string[] => history.mock.calls.map(([q]) => q.deviceId ?? q.doorId ?? '');
  const wait = async (ms: number): Promise<void> => {
    await baseline.settled();
    clock.advance(ms);
    await baseline.settled();
  };
  return { log, clock, history, settled, baseline, asked, wait };
}

describe('the history read at start', () => {
  it('reads each controller once, one at a time, and gives each door its own entries; never twice', async () => {
    const t = setup((q) => Promise.resolve(q.deviceId === 'device-1' ? [entry('door-1'), entry('door-1'), entry('door-2')] : []));
    t.baseline.track(doors);
    t.baseline.track(doors);
    await t.wait(0);
    expect(t.history.mock.calls.map(([q]) => q)).toEqual([
      { historyType: 'device', deviceId: 'device-1', startDate: '2026-11-20', endDate: '2026-11-21' },
      { historyType: 'device', deviceId: 'device-2', startDate: '2026-11-20', endDate: '2026-11-21' },
    ]);
    expect(Object.fromEntries(t.settled)).toEqual({ 'door-1': 2, 'door-2': 1, 'door-3': 0 });
    // No timer is left for a controller's history: only a door's is paced.
    expect(t.clock.nextDueInMs).toBeUndefined();
  });

  it('reads each door, one every HISTORY_BASELINE_PACE_MS, where the service refuses a controller’s history', async () => {
    const t = setup((q) =>
      q.historyType === 'device'
        ? Promise.reject(new ServiceError('http', 'the history request failed with HTTP 400', 400))
        : Promise.resolve([entry(q.doorId)]),
    );
    t.baseline.track(doors);
    await t.wait(0);
    expect(t.clock.nextDueInMs).toBe(HISTORY_BASELINE_PACE_MS);
    expect(t.log.texts('debug')).toContain(
      "The service does not give a controller's history (the history request failed with HTTP 400); the history of each door is read at start instead, one every 2 s.",
    );
    expect(t.asked()).toEqual(['device-1']);
    await t.wait(HISTORY_BASELINE_PACE_MS);
    expect(t.asked()).toEqual(['device-1', 'door-1']);
    await t.wait(HISTORY_BASELINE_PACE_MS);
    await t.wait(HISTORY_BASELINE_PACE_MS);
    // device-2 is read door by door too: the service refused device histories once.
    expect(t.asked()).toEqual(['device-1', 'door-1', 'door-2', 'door-3']);
    expect(Object.fromEntries(t.settled)).toEqual({ 'door-1': 1, 'door-2': 1, 'door-3': 1 });
  });

  it('reads the doors alone when a controller’s history names no door', async () => {
    const t = setup((q) => Promise.resolve([entry(q.historyType === 'device' ? undefined : q.doorId)]));
    t.baseline.track(doors.slice(0, 2));
    for (let i = 0; i < 3; i += 1) await t.wait(HISTORY_BASELINE_PACE_MS);
    expect(t.asked()).toEqual(['device-1', 'door-1', 'door-2']);
    expect(Object.fromEntries(t.settled)).toEqual({ 'door-1': 1, 'door-2': 1 });
  });

  it('asks again later, with the reads left, when the service limits requests; the doors go without once the tries are spent', async () => {
    const t = setup(() => Promise.reject(new ServiceError('rate-limited', 'the service is limiting requests (HTTP 429)', 429)));
    t.baseline.track(doors);
    await t.wait(HISTORY_BASELINE_PACE_MS * 3);
    // Nothing more is asked during the limit: the other controller's read waits with the refused one.
    expect(t.asked()).toEqual(['device-1']);
    expect(t.log.texts('debug')).toEqual([
      'The history of Front Gate; Garage Door could not be read at start (the service is limiting requests (HTTP 429)); it is asked again later.',
    ]);
    let waitMs = HISTORY_BASELINE_RETRY_MS;
    for (let i = 0; i < HISTORY_BASELINE_RETRIES; i += 1) {
      await t.wait(waitMs);
      waitMs *= 4;
    }
    await t.wait(waitMs * 4);
    // Each try asks the first read again, which the limit refuses again: never a request on top of it.
    expect(t.asked()).toEqual(Array.from({ length: HISTORY_BASELINE_RETRIES + 1 }, () => 'device-1'));
    expect(t.log.texts('debug').at(-1)).toBe(
      'The history of Front Gate; Garage Door could not be read at start (the service is limiting requests (HTTP 429)); the first move a sync finds there may name nobody.',
    );
  });

  it('reads a history that timed out at start again later, for the doors no look has read meanwhile', async () => {
    let failing = true;
    const t = setup((q) =>
      failing
        ? Promise.reject(new ServiceError('timeout', 'the service did not answer in time'))
        : Promise.resolve(q.deviceId === 'device-1' ? [entry('door-1'), entry('door-2')] : [entry('door-3')]),
    );
    t.baseline.track(doors);
    await t.wait(0);
    expect(t.settled.size).toBe(0);
    failing = false;
    void t.baseline.takeOver('door-2');
    await t.wait(HISTORY_BASELINE_RETRY_MS);
    // door-2 was looked at meanwhile: its look is its baseline, and the read asked again gives it nothing.
    expect(Object.fromEntries(t.settled)).toEqual({ 'door-1': 1, 'door-3': 1 });
    expect(t.asked()).toEqual(['device-1', 'device-2', 'device-1', 'device-2']);
  });

  it('leaves out a door looked at before its turn, and hands over the read under way that holds one', async () => {
    let release: () => void = () => undefined;
    const t = setup(
      (q) =>
        new Promise<ToggleEvent[]>((resolve) => {
          release = () => resolve([entry(q.doorId ?? 'door-2')]);
        }),
    );
    t.baseline.track(doors);
    const underway = t.baseline.takeOver('door-1');
    expect(underway).toBeInstanceOf(Promise);
    expect(t.baseline.takeOver('door-3')).toBeUndefined();
    release();
    await underway;
    await t.wait(HISTORY_BASELINE_PACE_MS * 2);
    expect(t.asked()).toEqual(['device-1']);
    // The read under way settles door-1 too (its look compares with it); door-3's, not asked yet, is never asked.
    expect(Object.fromEntries(t.settled)).toEqual({ 'door-1': 0, 'door-2': 1 });
    // Once taken over, a door is never read again.
    t.baseline.track(doors);
    await t.wait(0);
    expect(t.asked()).toEqual(['device-1']);
  });

  it('asks nothing after stop(), and settles nothing from an answer that comes after it', async () => {
    let release: () => void = () => undefined;
    const t = setup(
      () =>
        new Promise<ToggleEvent[]>((resolve) => {
          release = () => resolve([entry('door-1')]);
        }),
    );
    t.baseline.track(doors);
    t.baseline.stop();
    release();
    await t.wait(HISTORY_BASELINE_PACE_MS * 3);
    expect(t.asked()).toEqual(['device-1']);
    expect(t.settled.size).toBe(0);
  });
});

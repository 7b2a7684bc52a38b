// Who moved a door, from its toggle history: the attribution rule's entry for each move found, the per-door pace that
// delays a look (never drops it), the baseline read at start per controller or per door, failures kept quiet.
import { describe, expect, it, vi } from 'vitest';

import type { HistoryQuery } from '../../../src/client/service-client.js';
import type { ToggleEvent } from '../../../src/client/types.js';
import { HISTORY_BASELINE_PACE_MS, HISTORY_MIN_INTERVAL_PER_DOOR_MS } from '../../../src/settings.js';
import { beforeThisStart, WhoMovedIt } from '../../../src/sync/who-moved-it.js';
import { ManualClock } from '../../support/homebridge-double.js';
import { captureLog } from '../../support/log.js';

const event = (
  state: string,
  userName: string,
  channel: string,
  wasSuccess = true,
  at = '2026-11-21 10:00:00',
  doorId: string | undefined = 'door-1',
): ToggleEvent => ({
  doorId,
  doorName: 'Front Gate',
  doorState: state,
  channel,
  userName,
  wasSuccess,
  at,
});

/** WhoMovedIt on a manual clock (2026-11-21T12:00:00Z), its history answered by `answer`, what it found recorded. */
function setup(answer: (query: HistoryQuery) => Promise<ToggleEvent[]>, tracksSyncs = false) {
  const log = captureLog();
  const clock = new ManualClock();
  const history = vi.fn<(q: HistoryQuery) => Promise<ToggleEvent[]>>(answer);
  const found: string[] = [];
  const who = new WhoMovedIt({
    history,
    log,
    clock,
    found: (_doorId, doorName, state, e) => found.push(`${doorName} ${state} ${e.userName ?? ''}`),
    tracksSyncs,
  });
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
  /** Lets the answers under way arrive, moves the clock on, and lets the answers of the looks it started arrive. */
  const wait = async (ms: number): Promise<void> => {
    await settle();
    clock.advance(ms);
    await settle();
  };
  return { log, clock, history, found, who, wait };
}

describe('WhoMovedIt', () => {
  it('logs the newest successful event that moved the door to its new state', async () => {
    const t = setup(() =>
      Promise.resolve([
        event('OPEN', 'Mallory', 'App', false, '2026-11-21 10:00:20'),
        event('OPEN', 'Ada Lovelace', 'Keypad', true, '2026-11-21 10:00:10'),
        event('CLOSED', 'Bob', 'Remote', true, '2026-11-21 09:00:00'),
      ]),
    );
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 10:00:10');
    await vi.waitFor(() => expect(t.log.texts('info')).toContain('Front Gate was opened by Ada Lovelace (Keypad).'));
    expect(t.history).toHaveBeenCalledWith({ historyType: 'door', doorId: 'door-1', startDate: '2026-11-20', endDate: '2026-11-21' });
    expect(t.found).toEqual(['Front Gate OPEN Ada Lovelace']);
  });

  it('names nobody when the newest successful move is not the one found: the history has not recorded it yet', async () => {
    const t = setup(() =>
      Promise.resolve([event('CLOSED', 'Bob', 'Remote', true, '2026-11-21 10:00:05'), event('OPEN', 'Ada Lovelace', 'Keypad')]),
    );
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 10:00:25');
    await vi.waitFor(() =>
      expect(t.log.texts('debug')).toContain('The history of Front Gate does not say who opened it: its newest entry is not this move.'),
    );
    expect(t.log.texts('info')).toEqual([]);
    expect(t.found).toEqual([]);
  });

  it('names the move in a history sent oldest first, and never one older than the previous move', async () => {
    // Alan opened at 10:00:00, Grace closed at 10:00:20, Katherine opened at 10:00:40: oldest first.
    const entries = [
      event('OPEN', 'Alan Turing', 'Keypad', true, '2026-11-21 10:00:00'),
      event('CLOSED', 'Grace Hopper', 'App', true, '2026-11-21 10:00:20'),
      event('OPEN', 'Katherine Johnson', 'Remote', true, '2026-11-21 10:00:40'),
    ];
    const t = setup(() => Promise.resolve(entries));
    t.who.seen('door-1', '2026-11-21 10:00:20');
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 10:00:40');
    await vi.waitFor(() => expect(t.log.texts('info')).toEqual(['Front Gate was opened by Katherine Johnson (Remote).']));
    // A move a minute later whose entry is not recorded yet: Alan's older opening is not it, nor is Grace's closing.
    const u = setup(() => Promise.resolve(entries.slice(0, 2)));
    u.who.seen('door-1', '2026-11-21 10:00:20');
    u.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 10:01:40');
    await vi.waitFor(() => expect(u.log.texts('debug').some((t) => t.startsWith('The history of Front Gate does not say'))).toBe(true));
    expect(u.found).toEqual([]);
  });

  it('delays a look the pace holds back, never drops it: open and close 15 s apart name both, each once, in order', async () => {
    const recorded: ToggleEvent[] = [];
    const t = setup(() => Promise.resolve([...recorded]));
    recorded.push(event('OPEN', 'Alan Turing', 'Keypad', true, '2026-11-21 12:00:00'));
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 12:00:00');
    await vi.waitFor(() => expect(t.found).toEqual(['Front Gate OPEN Alan Turing']));
    await t.wait(15_000);
    recorded.push(event('CLOSED', 'Grace Hopper', 'Keypad', true, '2026-11-21 12:00:15'));
    t.who.explain('door-1', 'Front Gate', 'CLOSED', '2026-11-21 12:00:15');
    expect(t.log.texts('debug')).toContain('Asking who moved Front Gate in 15 s: its history was asked moments ago.');
    expect(t.history).toHaveBeenCalledTimes(1);
    // Another door is not held back by this one.
    t.who.explain('door-2', 'Back Gate', 'OPEN');
    expect(t.history).toHaveBeenCalledTimes(2);
    await t.wait(HISTORY_MIN_INTERVAL_PER_DOOR_MS - 15_000);
    await vi.waitFor(() => expect(t.found).toEqual(['Front Gate OPEN Alan Turing', 'Front Gate CLOSED Grace Hopper']));
    expect(t.history).toHaveBeenCalledTimes(3);
    expect(t.log.texts('info')).toEqual([
      'Front Gate was opened by Alan Turing (Keypad).',
      'Front Gate was closed by Grace Hopper (Keypad).',
    ]);
  });

  it('names every move found while a look waited, from one look, in order', async () => {
    const recorded: ToggleEvent[] = [event('OPEN', 'Alan Turing', 'Keypad', true, '2026-11-21 12:00:00')];
    const t = setup(() => Promise.resolve([...recorded].reverse()));
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 12:00:00');
    await vi.waitFor(() => expect(t.found).toHaveLength(1));
    await t.wait(5_000);
    recorded.push(event('CLOSED', 'Grace Hopper', 'Keypad', true, '2026-11-21 12:00:05'));
    t.who.explain('door-1', 'Front Gate', 'CLOSED', '2026-11-21 12:00:05');
    await t.wait(5_000);
    recorded.push(event('OPEN', 'Katherine Johnson', 'Remote', true, '2026-11-21 12:00:10'));
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 12:00:10');
    await t.wait(HISTORY_MIN_INTERVAL_PER_DOOR_MS);
    await vi.waitFor(() =>
      expect(t.found).toEqual(['Front Gate OPEN Alan Turing', 'Front Gate CLOSED Grace Hopper', 'Front Gate OPEN Katherine Johnson']),
    );
    expect(t.history).toHaveBeenCalledTimes(2);
  });

  it('keeps a failed lookup to the debug log', async () => {
    const t = setup(() => Promise.reject(new Error('HTTP 500')));
    t.who.explain('door-1', 'Front Gate', 'OPEN');
    await vi.waitFor(() => expect(t.log.lines).toEqual([{ level: 'debug', text: 'Who moved Front Gate is unknown: HTTP 500.' }]));
  });

  it('asks nothing more after stop(), not even a look the pace held back', async () => {
    const t = setup(() => Promise.resolve([]));
    t.who.explain('door-1', 'Front Gate', 'OPEN');
    t.who.explain('door-1', 'Front Gate', 'CLOSED');
    t.who.stop();
    await t.wait(HISTORY_MIN_INTERVAL_PER_DOOR_MS * 2);
    t.who.explain('door-1', 'Front Gate', 'OPEN');
    t.who.track([{ doorId: 'door-3', deviceId: 'device-1', name: 'Side Door' }]);
    expect(t.history).toHaveBeenCalledTimes(1);
  });
});

describe('the baseline at start (issue 43)', () => {
  const doors = [
    { doorId: 'door-1', deviceId: 'device-1', name: 'Front Gate' },
    { doorId: 'door-2', deviceId: 'device-1', name: 'Garage Door' },
    { doorId: 'door-3', deviceId: 'device-2', name: 'Shared Gate' },
  ];
  /** A history dated without a time: Alan opened and closed Front Gate earlier today. */
  const earlier = [
    event('CLOSED', 'Alan Turing', 'Keypad', true, '2026-11-21'),
    event('OPEN', 'Alan Turing', 'Keypad', true, '2026-11-21'),
  ];

  it('names the first move after the history read at start, from a history dated without a time', async () => {
    const recorded = [...earlier, event('OPEN', 'Bob', 'App', true, '2026-11-21', 'door-2')];
    const t = setup((q) => Promise.resolve(recorded.filter((e) => q.historyType === 'device' || e.doorId === q.doorId)));
    t.who.track(doors);
    await t.wait(0);
    expect(t.history).toHaveBeenCalledTimes(2);
    recorded.unshift(event('OPEN', 'Grace Hopper', 'Keypad', true, '2026-11-21'));
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 12:00:00');
    await vi.waitFor(() => expect(t.found).toEqual(['Front Gate OPEN Grace Hopper']));
  });

  it('without a baseline, that first move names nobody (what the baseline is for)', async () => {
    const t = setup(() => Promise.resolve([event('OPEN', 'Grace Hopper', 'Keypad', true, '2026-11-21'), ...earlier]));
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 12:00:00');
    await vi.waitFor(() =>
      expect(t.log.texts('debug')).toContain(
        'The history of Front Gate does not say who opened it: its entries carry no time, and there is no earlier look to tell the new ones.',
      ),
    );
  });

  it('looks after a baseline under way has settled, and takes a door out of the queue once it is looked at', async () => {
    let release: (entries: ToggleEvent[]) => void = () => undefined;
    const recorded = [...earlier];
    const t = setup((q) =>
      q.historyType === 'device'
        ? new Promise<ToggleEvent[]>((resolve) => {
            release = resolve;
          })
        : Promise.resolve([...recorded]),
    );
    t.who.track(doors);
    // A move found while the baseline is under way: its entry came after the baseline was asked.
    recorded.unshift(event('OPEN', 'Grace Hopper', 'Keypad', true, '2026-11-21'));
    t.who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 12:00:00');
    // Shared Gate's look comes before its controller's baseline is asked: that baseline is not asked at all.
    t.who.explain('door-3', 'Shared Gate', 'OPEN', '2026-11-21 12:00:00');
    await t.wait(0);
    expect(t.found).toEqual([]);
    release(earlier);
    await vi.waitFor(() => expect(t.found).toEqual(['Front Gate OPEN Grace Hopper']));
    await t.wait(HISTORY_BASELINE_PACE_MS * 2);
    expect(t.history.mock.calls.map(([q]) => q.deviceId ?? q.doorId)).toEqual(['device-1', 'door-3', 'door-1']);
  });
});

describe('a move found at start (issue 52)', () => {
  it('is told as history, with its age, and handed to no person sensor', async () => {
    const t = setup(
      () =>
        Promise.resolve([
          event('OPEN', 'Grace Hopper', 'Keypad', true, '2026-11-20 16:00:00'),
          event('CLOSED', 'Ada', 'App', true, '2026-11-20 09:00:00'),
        ]),
      true,
    );
    t.clock.advance(Date.parse('2026-11-21T12:00:00Z') - t.clock.now());
    t.who.explain('door-1', 'Yard Gate', 'OPEN', '2026-11-20 16:00:00');
    await vi.waitFor(() =>
      expect(t.log.texts('info')).toContain('Yard Gate was opened by Grace Hopper (Keypad) 20 hours ago, before this start.'),
    );
    expect(t.found).toEqual([]);
  });

  it('is news when the service dates it after this start (the first sync came late)', async () => {
    const start = new ManualClock().now();
    const after = new Date(start + 60_000).toISOString().slice(0, 19).replace('T', ' ');
    const t = setup(() => Promise.resolve([event('OPEN', 'Grace Hopper', 'Keypad', true, after)]), true);
    t.clock.advance(120_000);
    t.who.explain('door-1', 'Yard Gate', 'OPEN', after);
    await vi.waitFor(() => expect(t.log.texts('info')).toContain('Yard Gate was opened by Grace Hopper (Keypad).'));
    expect(t.found).toEqual(['Yard Gate OPEN Grace Hopper']);
  });

  it('says how long ago in minutes, hours or days, and no age it cannot vouch for', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(beforeThisStart(now - 20 * 3_600_000, now)).toBe('20 hours ago, before this start');
    expect(beforeThisStart(now - 3_600_000, now)).toBe('1 hour ago, before this start');
    expect(beforeThisStart(now - 5 * 60_000, now)).toBe('5 minutes ago, before this start');
    expect(beforeThisStart(now - 10_000, now)).toBe('moments ago, before this start');
    expect(beforeThisStart(now - 3 * 86_400_000, now)).toBe('3 days ago, before this start');
    expect(beforeThisStart(now + 60_000, now)).toBe('before this start');
    expect(beforeThisStart(undefined, now)).toBe('before this start');
  });
});

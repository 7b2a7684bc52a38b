// Who moved a door, from its toggle history: the attribution rule's entry for the move found; rate-limited per door, failures kept quiet.
import { describe, expect, it, vi } from 'vitest';

import type { HistoryQuery } from '../../../src/client/service-client.js';
import type { ToggleEvent } from '../../../src/client/types.js';
import { HISTORY_MIN_INTERVAL_PER_DOOR_MS } from '../../../src/settings.js';
import { WhoMovedIt } from '../../../src/sync/who-moved-it.js';
import { captureLog } from '../../support/log.js';

const event = (state: string, userName: string, channel: string, wasSuccess = true, at = '2026-11-21 10:00:00'): ToggleEvent => ({
  doorId: 'door-1',
  doorName: 'Front Gate',
  doorState: state,
  channel,
  userName,
  wasSuccess,
  at,
});

function setup(answer: () => Promise<ToggleEvent[]>) {
  const log = captureLog();
  const clock = { now: Date.parse('2026-11-21T10:00:30Z') };
  const history = vi.fn<(q: HistoryQuery) => Promise<ToggleEvent[]>>(answer);
  return { log, clock, history, who: new WhoMovedIt(history, log, () => clock.now) };
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
  });

  it('names nobody when the newest successful move is not the one found: the history has not recorded it yet', async () => {
    const found = vi.fn();
    const log = captureLog();
    const history = () =>
      Promise.resolve([event('CLOSED', 'Bob', 'Remote', true, '2026-11-21 10:00:05'), event('OPEN', 'Ada Lovelace', 'Keypad')]);
    const who = new WhoMovedIt(history, log, () => Date.parse('2026-11-21T10:00:30Z'), found);
    who.explain('door-1', 'Front Gate', 'OPEN', '2026-11-21 10:00:25');
    await vi.waitFor(() =>
      expect(log.texts('debug')).toContain('The history of Front Gate does not say who opened it: its newest entry is not this move.'),
    );
    expect(log.texts('info')).toEqual([]);
    expect(found).not.toHaveBeenCalled();
  });

  it('names the move in a history sent oldest first, and never one older than the previous move', async () => {
    const found = vi.fn();
    const log = captureLog();
    // Alan opened at 10:00:00, Grace closed at 10:00:20, Katherine opened at 10:00:40: oldest first.
    const entries = [
      event('OPEN', 'Alan Turing', 'Keypad', true, '2026-11-21 10:00:00'),
      event('CLOSED', 'Grace Hopper', 'App', true, '2026-11-21 10:00:20'),
      event('OPEN', 'Katherine Johnson', 'Remote', true, '2026-11-21 10:00:40'),
    ];
    /** One look at `nowIso` for a move to open dated `lastToggled`, the door's previous move dated `previous`. */
    const look = (answer: ToggleEvent[], nowIso: string, previous: string, lastToggled: string): void => {
      const who = new WhoMovedIt(
        () => Promise.resolve(answer),
        log,
        () => Date.parse(nowIso),
        found,
      );
      who.seen('door-1', previous);
      who.explain('door-1', 'Front Gate', 'OPEN', lastToggled);
    };
    look(entries, '2026-11-21T10:00:45Z', '2026-11-21 10:00:20', '2026-11-21 10:00:40');
    await vi.waitFor(() => expect(log.texts('info')).toEqual(['Front Gate was opened by Katherine Johnson (Remote).']));
    expect(found.mock.calls.map((call) => (call[3] as ToggleEvent).userName)).toEqual(['Katherine Johnson']);
    // A move a minute later whose entry is not recorded yet: Alan's older opening is not it, nor is Grace's closing.
    look(entries.slice(0, 2), '2026-11-21T10:01:45Z', '2026-11-21 10:00:20', '2026-11-21 10:01:40');
    await vi.waitFor(() => expect(log.texts('debug').some((t) => t.startsWith('The history of Front Gate does not say'))).toBe(true));
    expect(found).toHaveBeenCalledTimes(1);
  });

  it('asks a door at most once per interval', () => {
    const t = setup(() => Promise.resolve([]));
    t.who.explain('door-1', 'Front Gate', 'OPEN');
    t.who.explain('door-1', 'Front Gate', 'CLOSED');
    t.who.explain('door-2', 'Back Gate', 'OPEN');
    expect(t.history).toHaveBeenCalledTimes(2);
    t.clock.now += HISTORY_MIN_INTERVAL_PER_DOOR_MS;
    t.who.explain('door-1', 'Front Gate', 'CLOSED');
    expect(t.history).toHaveBeenCalledTimes(3);
  });

  it('keeps a failed lookup to the debug log', async () => {
    const t = setup(() => Promise.reject(new Error('HTTP 500')));
    t.who.explain('door-1', 'Front Gate', 'OPEN');
    await vi.waitFor(() => expect(t.log.lines).toEqual([{ level: 'debug', text: 'Who moved Front Gate is unknown: HTTP 500.' }]));
  });
});

// A door's history as the page gets it: the service's text on one line and cut short, newest first, bounded, refused attempts marked.
import { describe, expect, it } from 'vitest';

import type { ToggleEvent } from '../../../../src/client/types.js';
import { ACTIVITY_ENTRIES_PER_DOOR_MAX, ACTIVITY_TEXT_MAX_CHARS } from '../../../../src/settings.js';
import { doorActivity, personOf } from '../../../../src/ui/server/activity-entries.js';

const event = (partial: Partial<ToggleEvent>): ToggleEvent => ({
  doorId: 'door-1',
  doorName: 'Front Gate',
  doorState: 'OPEN',
  channel: 'Keypad',
  userName: undefined,
  wasSuccess: true,
  at: '2026-11-20 10:00:00',
  ...partial,
});

const entriesOf = (events: ToggleEvent[], max?: number) => {
  const result = doorActivity('door-1', events, max);
  if (!result.ok) throw new Error('not read');
  return result;
};

describe('doorActivity', () => {
  it('puts the newest first whatever order the service sent, an entry without a time last; leaves out other doors', () => {
    const { entries } = entriesOf([
      event({ at: '2026-11-19 08:00:00', channel: 'a' }),
      event({ at: 'yesterday', channel: 'b' }),
      event({ at: '2026-11-21 08:00:00', channel: 'c' }),
      event({ at: '2026-11-22 08:00:00', channel: 'd', doorId: 'door-2' }),
    ]);
    expect(entries.map((entry) => entry.channel)).toEqual(['c', 'a', 'b']);
    expect(entries[0]?.atMs).toBe(Date.UTC(2026, 10, 21, 8));
    expect(entries[2]).toMatchObject({ at: 'yesterday', atMs: undefined });
  });

  it('marks was_success false as refused, an enforcer or unauthorized entry as unauthorized, and an unsaid outcome as unknown', () => {
    const { entries } = entriesOf([
      event({ at: '2026-11-20 10:00:04', wasSuccess: false }),
      event({ at: '2026-11-20 10:00:03', channel: 'Enforcer', wasSuccess: true }),
      event({ at: '2026-11-20 10:00:02', channel: 'Unauthorised user' }),
      event({ at: '2026-11-20 10:00:01', wasSuccess: undefined }),
      event({ at: '2026-11-20 10:00:00', doorState: 'closed' }),
    ]);
    expect(entries.map((entry) => [entry.outcome, entry.state])).toEqual([
      ['refused', 'OPEN'],
      ['unauthorized', 'OPEN'],
      ['unauthorized', 'OPEN'],
      ['unknown', 'OPEN'],
      ['done', 'CLOSED'],
    ]);
  });

  it('counts every entry read, not only the newest 50: 200 entries, 150 refused, one person 200 times', () => {
    const grace = { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' };
    // Oldest first, as a service may send them: the newest are still the ones shown.
    const events = Array.from({ length: 200 }, (_, i) =>
      event({ at: new Date(Date.UTC(2026, 10, 20, 10, 0, i)).toISOString(), user: grace, wasSuccess: i % 4 === 3, channel: String(i) }),
    );
    const result = entriesOf(events);
    expect([result.entries.length, result.more, result.total, result.refused]).toEqual([50, 150, 200, 150]);
    expect(result.entries[0]?.channel).toBe('199');
    expect(result.people).toEqual([{ person: { name: 'Grace Hopper', email: 'grace@example.com' }, times: 200, refused: 150 }]);
  });

  it('leaves out entries dated outside the days asked, keeps one whose date cannot be read, and sorts dates alone by day', () => {
    const window = { startDate: '2026-11-15', endDate: '2026-11-21' };
    const result = doorActivity(
      'door-1',
      [
        event({ at: '2026-11-14 23:59:59', channel: 'before' }),
        event({ at: '2026-11-16', channel: 'day' }),
        event({ at: '2026-11-22 00:00:00', channel: 'after' }),
        event({ at: '2026-11-21', channel: 'today' }),
        event({ at: 'soon', channel: 'unread' }),
      ],
      50,
      window,
    );
    if (!result.ok) throw new Error('not read');
    expect(result.entries.map((entry) => entry.channel)).toEqual(['today', 'day', 'unread']);
    expect(result.total).toBe(3);
  });

  it('keeps at most the newest 50 and counts the rest', () => {
    const events = Array.from({ length: 70 }, (_, i) =>
      event({ at: new Date(Date.UTC(2026, 10, 20, 10, 0, i)).toISOString(), channel: String(i) }),
    );
    const result = entriesOf(events);
    expect(ACTIVITY_ENTRIES_PER_DOOR_MAX).toBe(50);
    expect(result.entries).toHaveLength(50);
    expect(result.more).toBe(20);
    expect(result.entries[0]?.channel).toBe('69');
    expect(result.entries[49]?.channel).toBe('20');
  });

  it('cleans the service text: no control characters or line breaks, names and channels cut short', () => {
    // Words: a run of 20 letters or more that is no word is elided (src/util/dense-runs.ts), which would hide the cut.
    const long = ' word'.repeat(100);
    const { entries } = entriesOf([
      event({ channel: `App\n[forged] line\u0007${long}`, user: { firstName: 'Eve\r\n', lastName: long, email: 'eve@example.com' } }),
    ]);
    const [entry] = entries;
    expect(entry?.channel).toMatch(/^App \[forged\] line +(word ?)+w?o?r?…$/);
    expect(entry?.channel?.length).toBe(ACTIVITY_TEXT_MAX_CHARS);
    expect(entry?.person?.name.length).toBe(ACTIVITY_TEXT_MAX_CHARS);
    expect(entry?.person?.name).not.toMatch(/[\r\n]/);
  });

  it('drops the marks that turn text around, and an e-mail holding one', () => {
    const { entries } = entriesOf([
      event({ channel: 'App\u202eppa', user: { firstName: 'Eve\u2067', lastName: 'Moss', email: 'eve\u202e@example.com' } }),
    ]);
    expect(entries[0]?.channel).toBe('Appppa');
    expect(entries[0]?.person).toEqual({ name: 'Eve Moss', email: undefined });
  });
});

describe('personOf', () => {
  it('names a person by first and last name, keeps a plausible e-mail, and drops one that is not a single address', () => {
    expect(personOf(event({ user: { firstName: 'Grace', lastName: 'Hopper', email: ' grace@example.com ' } }))).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.com',
    });
    expect(personOf(event({ user: { firstName: 'Grace', email: 'grace@example.com, eve@evil.test' } }))).toEqual({
      name: 'Grace',
      email: undefined,
    });
    expect(personOf(event({ user: { email: `${'a'.repeat(260)}@example.com` } }))).toBeUndefined();
    expect(personOf(event({ user: { email: 'ada@example.com' } }))).toEqual({ name: 'ada@example.com', email: 'ada@example.com' });
    expect(personOf(event({ user: undefined }))).toBeUndefined();
    expect(personOf(event({ user: { firstName: ' ', lastName: '' } }))).toBeUndefined();
  });
});

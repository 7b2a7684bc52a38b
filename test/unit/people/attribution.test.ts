// The attribution rule (issue 37): who made a move a sync found, over any history order, dates with or without a time,
// any zone the service writes, ties, the door's previous move, the previous look and the moves webhooks told of.
import { describe, expect, it } from 'vitest';

import type { ToggleEvent } from '../../../src/client/types.js';
import { attribute, readServiceTime, sameMomentInSomeZone } from '../../../src/people/attribution.js';
import type { HistoryLooks, SeenMove } from '../../../src/people/attribution.js';

const people = {
  alan: { firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' },
  katherine: { firstName: 'Katherine', lastName: 'Johnson', email: 'katherine@example.com' },
  grace: { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' },
};
type Who = keyof typeof people;

const entry = (who: Who, state: 'OPEN' | 'CLOSED', at: string, wasSuccess = true, doorId = 'gate'): ToggleEvent => ({
  doorId,
  doorName: 'Front Gate',
  doorState: state,
  channel: 'Keypad',
  userName: `${people[who].firstName} ${people[who].lastName}`,
  user: people[who],
  wasSuccess,
  at,
});

/** Katherine opened the gate at 10:00:40, which the sync saw; Alan opened it 40 s before, Grace closed it between. */
const move: SeenMove = {
  doorId: 'gate',
  state: 'OPEN',
  lastToggled: '2026-11-21 10:00:40',
  previousLastToggled: '2026-11-21 10:00:20',
  seenAtMs: Date.parse('2026-11-21T10:00:45Z'),
};
const timed = [
  entry('katherine', 'OPEN', '2026-11-21 10:00:40'),
  entry('grace', 'CLOSED', '2026-11-21 10:00:20'),
  entry('alan', 'OPEN', '2026-11-21 10:00:00'),
];
const who = (m: SeenMove, looks: HistoryLooks): string | undefined => attribute(m, looks).entry?.user?.firstName;

describe('the attribution rule, with times of day', () => {
  it('names the newest successful entry, newest first, oldest first or shuffled', () => {
    expect(who(move, { now: timed })).toBe('Katherine');
    expect(who(move, { now: [...timed].reverse() })).toBe('Katherine');
    expect(who(move, { now: [timed[1], timed[0], timed[2]] as ToggleEvent[] })).toBe('Katherine');
  });

  it('skips refused attempts and other doors, and names nobody when the newest successful entry is a move back', () => {
    const refused = entry('alan', 'OPEN', '2026-11-21 10:00:50', false);
    const otherDoor = entry('alan', 'OPEN', '2026-11-21 10:00:55', true, 'garage');
    expect(who(move, { now: [...timed, refused, otherDoor] })).toBe('Katherine');
    // The history has not recorded Katherine's move yet: Alan's older entry is not it.
    expect(attribute(move, { now: timed.slice(1) })).toEqual({ entry: undefined, why: 'its newest entry is not this move' });
  });

  it("never names an entry older than the door's previous move, nor one far from last_toggled", () => {
    const lagging = [timed[2]] as ToggleEvent[];
    expect(attribute(move, { now: lagging }).entry).toBeUndefined();
    const noPrevious = { ...move, previousLastToggled: undefined };
    expect(attribute(noPrevious, { now: lagging }).why).toBe('its newest entry is not dated this move');
    // Within the slack: the service may date its entry at the request, and last_toggled when the door got there.
    expect(who({ ...noPrevious, lastToggled: '2026-11-21 10:00:25' }, { now: lagging })).toBe('Alan');
  });

  it('names nobody on a tie between two people or two states, and one person on a tie with themselves', () => {
    const tie = entry('alan', 'OPEN', '2026-11-21 10:00:40');
    expect(attribute(move, { now: [...timed, tie] }).why).toBe('two people share its newest entry');
    expect(attribute(move, { now: [...timed, entry('grace', 'CLOSED', '2026-11-21 10:00:40')] }).entry).toBeUndefined();
    expect(who(move, { now: [...timed, entry('katherine', 'OPEN', '2026-11-21 10:00:40')] })).toBe('Katherine');
  });

  it('reads entries in a zone: the instant orders them, their digits compare with last_toggled', () => {
    // The service writes local time (UTC+1) with its offset; last_toggled carries the same digits without it.
    const zoned = [
      entry('alan', 'OPEN', '2026-11-21T11:00:00+01:00'),
      entry('katherine', 'OPEN', '2026-11-21T11:00:40+01:00'),
      entry('grace', 'CLOSED', '2026-11-21T11:00:20+0100'),
    ];
    const local = { ...move, lastToggled: '2026-11-21 11:00:40', previousLastToggled: '2026-11-21 11:00:20' };
    expect(who(local, { now: zoned })).toBe('Katherine');
    // In UTC with Z, as last_toggled in UTC.
    expect(who(move, { now: [entry('katherine', 'OPEN', '2026-11-21T10:00:40Z'), entry('alan', 'OPEN', '2026-11-21T10:00:00Z')] })).toBe(
      'Katherine',
    );
  });

  it('names nobody for an entry a webhook already told of, or one already there at the previous look', () => {
    const toldAt = (at: string) => [{ state: 'OPEN' as const, atMs: Date.parse(at), user: people.katherine }];
    const told = toldAt('2026-11-21T10:00:40Z');
    expect(attribute(move, { now: timed, told }).why).toBe('a webhook already told of its newest entry');
    // Told in another zone's digits (UTC+1): the same moment all the same.
    const toldLocal = toldAt('2026-11-21T09:00:40Z');
    expect(attribute(move, { now: timed, told: toldLocal }).entry).toBeUndefined();
    expect(attribute(move, { now: timed, previous: timed }).why).toBe('its newest entry was there at the previous look');
    expect(who(move, { now: timed, previous: timed.slice(1) })).toBe('Katherine');
  });
});

describe('the attribution rule, with dates alone', () => {
  const day = (who: Who, state: 'OPEN' | 'CLOSED', wasSuccess = true): ToggleEvent => entry(who, state, '2026-11-21', wasSuccess);
  const before = [day('alan', 'OPEN'), day('grace', 'CLOSED')];

  it('names the entry new since the previous look, in the move’s state and dated its day, in any order', () => {
    expect(who(move, { now: [day('katherine', 'OPEN'), ...before], previous: before })).toBe('Katherine');
    expect(who(move, { now: [...before, day('katherine', 'OPEN')], previous: [...before].reverse() })).toBe('Katherine');
    // The same person twice in a day: the second entry is new even though the first looks the same.
    expect(who(move, { now: [...before, day('alan', 'OPEN')], previous: before })).toBe('Alan');
  });

  it('names nobody at the first look unless the previous move was on an earlier day', () => {
    expect(attribute(move, { now: [day('katherine', 'OPEN'), ...before] }).why).toBe(
      'its entries carry no time, and there is no earlier look to tell the new ones',
    );
    const yesterday = { ...move, previousLastToggled: '2026-11-20 22:00:00' };
    expect(who(yesterday, { now: [day('katherine', 'OPEN'), entry('grace', 'CLOSED', '2026-11-20')] })).toBe('Katherine');
    expect(attribute(yesterday, { now: [day('katherine', 'OPEN'), ...before] }).entry).toBeUndefined();
  });

  it('names nobody when the new entries hold a move back, two people, or nothing new', () => {
    expect(attribute(move, { now: [day('katherine', 'OPEN'), day('grace', 'CLOSED')], previous: [] }).why).toBe(
      'its new entries carry no time and hold a move back',
    );
    expect(attribute(move, { now: [day('katherine', 'OPEN'), day('alan', 'OPEN')], previous: [] }).why).toBe(
      'its new entries carry no time and name more than one person',
    );
    expect(attribute(move, { now: before, previous: before }).entry).toBeUndefined();
    // A move back dated an earlier day came before the move: its order is known.
    const yesterday = [entry('grace', 'CLOSED', '2026-11-20'), entry('alan', 'OPEN', '2026-11-20')];
    expect(who(move, { now: [day('katherine', 'OPEN'), ...yesterday], previous: [] })).toBe('Katherine');
    expect(who(move, { now: [day('katherine', 'OPEN'), day('alan', 'OPEN', false)], previous: [] })).toBe('Katherine');
  });

  it('names nobody for the entry a webhook already told of, and tells the next move apart from it', () => {
    const told = [{ state: 'OPEN' as const, atMs: Date.parse('2026-11-21T10:00:40Z'), user: people.katherine }];
    expect(attribute(move, { now: [day('katherine', 'OPEN')], previous: [], told }).entry).toBeUndefined();
    expect(who(move, { now: [day('katherine', 'OPEN'), day('katherine', 'OPEN')], previous: [], told })).toBe('Katherine');
    // Told before the previous look, whose entries held it: her new entry of the same day is another move.
    const earlier = { now: [day('katherine', 'OPEN'), day('katherine', 'OPEN')], previous: [day('katherine', 'OPEN')], told };
    expect(who(move, { ...earlier, previousAtMs: Date.parse('2026-11-21T10:05:00Z') })).toBe('Katherine');
    expect(attribute(move, { ...earlier, previousAtMs: Date.parse('2026-11-21T10:00:00Z') }).entry).toBeUndefined();
  });

  it('uses the day of the sync when the service gives no last_toggled', () => {
    const bare = { ...move, lastToggled: undefined, previousLastToggled: undefined };
    expect(who(bare, { now: [day('katherine', 'OPEN')], previous: [] })).toBe('Katherine');
    expect(attribute(bare, { now: [entry('katherine', 'OPEN', '2026-11-20')], previous: [] }).entry).toBeUndefined();
  });
});

describe('reading the service’s times', () => {
  it('reads a day, a time without seconds, a zone; refuses anything else', () => {
    expect(readServiceTime('2026-11-21')).toEqual({ day: '2026-11-21' });
    expect(readServiceTime('2026-11-21 10:05')?.wallMs).toBe(Date.parse('2026-11-21T10:05:00Z'));
    expect(readServiceTime('2026-11-21T11:05:00+01:00')).toEqual({
      day: '2026-11-21',
      wallMs: Date.parse('2026-11-21T11:05:00Z'),
      instantMs: Date.parse('2026-11-21T10:05:00Z'),
    });
    expect(readServiceTime('21/11/2026')).toBeUndefined();
    expect(readServiceTime('2026-13-45')).toBeUndefined();
    expect(readServiceTime(undefined)).toBeUndefined();
  });

  it('takes two times as one moment when a zone apart, within a second or two', () => {
    const at = Date.parse('2026-11-21T10:00:40Z');
    expect(sameMomentInSomeZone(at, at + 5.5 * 3_600_000 + 1000)).toBe(true);
    expect(sameMomentInSomeZone(at, at + 30_000)).toBe(false);
    expect(sameMomentInSomeZone(at, at + 15 * 3_600_000)).toBe(false);
  });
});

// Which toggle history entries become Eve records: the door's successful toggles with a time, oldest first, new only.
import { describe, expect, it } from 'vitest';

import { backfillWindow, movesToImport } from '../../../src/eve/backfill.js';
import { gateToggle } from '../../support/eve-download.js';

const entry = gateToggle;
const s = (text: string): number => Date.parse(`${text}Z`) / 1000;

describe('the Eve backfill', () => {
  const oldestFirst = [
    entry('2026-11-20 08:00:00', 'OPEN'),
    entry('2026-11-20 08:00:00', 'CLOSED'),
    entry('2026-11-20 09:00:00', 'OPEN', { wasSuccess: false }),
    entry('2026-11-21', 'OPEN'),
    entry('2026-11-21 10:00:00', 'OPEN', { doorId: 'other' }),
    entry('2026-11-21 11:00:05', 'open'),
    entry('yesterday', 'CLOSED'),
    entry('2026-11-21 12:00:00', 'STUCK'),
    entry('2026-11-22T07:00:00+01:00', 'CLOSED'),
  ];
  const expected = [
    { timeS: s('2026-11-20T08:00:00'), open: true },
    { timeS: s('2026-11-20T08:00:00'), open: false },
    { timeS: s('2026-11-21T11:00:05'), open: true },
    { timeS: s('2026-11-22T06:00:00'), open: false },
  ];

  it("takes the door's successful toggles with a date and a time, oldest first, in either order the service sends", () => {
    expect(movesToImport(oldestFirst, 'gate', 0, 0)).toEqual(expected);
    expect(movesToImport([...oldestFirst].reverse(), 'gate', 0, 0)).toEqual(expected);
    // Shuffled (the contract does not say the order): by time.
    const [a, , c, d, e, f, g, h, i] = oldestFirst;
    expect(
      movesToImport(
        [f, i, a, c, d, e, g, h].flatMap((x) => x ?? []),
        'gate',
        0,
        0,
      ),
    ).toEqual([expected[0], expected[2], expected[3]]);
  });

  it('takes only what is newer than the newest record, and nothing before the reference time', () => {
    expect(movesToImport(oldestFirst, 'gate', s('2026-11-20T08:00:00'), 0)).toEqual(expected.slice(2));
    expect(movesToImport(oldestFirst, 'gate', 0, s('2026-11-21T00:00:00'))).toEqual(expected.slice(2));
  });

  it('starts its window seven days before today, and its reference time 14 hours before that day (the widest zone)', () => {
    const window = backfillWindow(Date.parse('2026-11-28T01:00:00Z'), 8);
    expect(window).toEqual({ startDay: '2026-11-21', fromS: s('2026-11-20T10:00:00') });
  });
});

// One door's Eve history while the plugin runs: moves held until the backfill is in, never written twice, the repeat.
import { describe, expect, it } from 'vitest';

import { EveDoor } from '../../../src/eve/eve-door.js';
import { EveRing } from '../../../src/eve/eve-ring.js';
import { gateToggle } from '../../support/eve-download.js';

const REF = Date.parse('2026-11-14T10:00:00Z') / 1000;
const NOW = Date.parse('2026-11-21T12:00:00Z') / 1000;

function door(): { door: EveDoor; ring: EveRing; clock: { s: number }; writes: number[] } {
  const clock = { s: NOW };
  const writes: number[] = [];
  const ring = new EveRing(REF, 100);
  return { door: new EveDoor(ring, { nowS: () => clock.s, changed: () => writes.push(ring.size) }), ring, clock, writes };
}

const entry = gateToggle;
const records = (ring: EveRing): string[] =>
  Array.from({ length: ring.size }, (_, i) => ring.record(ring.referenceNumber + 1 + i)).map(
    (r) => `${new Date((r?.timeS ?? 0) * 1000).toISOString().slice(11, 19)} ${r?.status === 1 ? 'open' : 'closed'}`,
  );

describe("one door's Eve history", () => {
  it('writes no record for the state the door is in at start, and one for each move after', () => {
    const { door: history, ring, clock } = door();
    history.goLive();
    history.observe(false);
    history.observe(false);
    clock.s += 60;
    history.observe(true);
    clock.s += 60;
    history.observe(false);
    expect(records(ring)).toEqual(['12:01:00 open', '12:02:00 closed']);
    expect([ring.timesOpened, ring.lastMoveS]).toEqual([1, NOW + 120]);
  });

  it('holds the moves learnt before the backfill, then writes them after it, the one the history already has not twice', () => {
    const { door: history, ring, clock } = door();
    history.observe(false);
    clock.s += 30;
    history.observe(true);
    clock.s += 30;
    expect(records(ring)).toEqual([]);
    // The history holds the opening (a second before the plugin learnt it), and one earlier pair.
    history.imported(
      [entry('2026-11-21 12:00:29', 'OPEN'), entry('2026-11-20 08:00:10', 'CLOSED'), entry('2026-11-20 08:00:00', 'OPEN')],
      'gate',
    );
    expect(records(ring)).toEqual(['08:00:00 open', '08:00:10 closed', '12:00:29 open']);
    // A later read (a look at who moved it) adds nothing: the moves since are the live ones.
    history.imported([entry('2026-11-21 12:05:00', 'CLOSED')], 'gate');
    expect(ring.size).toBe(3);
  });

  it("dates a move by the service's last_toggled when that is this move, else by now", () => {
    const { door: history, ring, clock } = door();
    history.goLive();
    history.observe(false);
    clock.s += 90;
    history.observe(true, '2026-11-21 12:01:00');
    clock.s += 60;
    // A webhook's move: last_toggled is still the previous move's.
    history.observe(false, '2026-11-21 12:01:00');
    clock.s += 3600;
    // Hours before now (another zone), or not a time at all: now.
    history.observe(true, '2026-11-21 11:00:00');
    clock.s += 60;
    history.observe(false, '2026-11-21');
    expect(records(ring)).toEqual(['12:01:00 open', '12:02:30 closed', '13:02:30 open', '13:03:30 closed']);
  });

  it('repeats the state it is in every 10 minutes from the start or its newest record, at their own times, once live', () => {
    const { door: history, ring, clock } = door();
    history.observe(true);
    history.repeatUntil(NOW, 600, NOW + 3600);
    expect(ring.size).toBe(0);
    history.goLive();
    // A sync 25 minutes after the start: the two repeats due by then, at 10 and 20 minutes.
    history.repeatUntil(NOW, 600, NOW + 1500);
    expect(records(ring)).toEqual(['12:10:00 open', '12:20:00 open']);
    clock.s = NOW + 1800;
    history.observe(false);
    history.repeatUntil(NOW, 600, NOW + 2999);
    expect(records(ring).slice(2)).toEqual(['12:30:00 closed', '12:40:00 closed']);
    expect(ring.timesOpened).toBe(0);
  });

  it('tells its listeners and the file of each change, and Eve resets the count of openings', () => {
    const { door: history, ring, writes } = door();
    let heard = 0;
    history.onChange(() => (heard += 1));
    history.imported([entry('2026-11-20 08:00:00', 'OPEN'), entry('2026-11-20 09:00:00', 'OPEN')], 'gate');
    expect([heard, writes.length, ring.timesOpened]).toEqual([1, 1, 2]);
    history.resetTotal();
    expect([heard, ring.timesOpened]).toEqual([2, 0]);
  });
});

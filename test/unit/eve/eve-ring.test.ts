// One door's Eve ring: entry numbers that never go back, a bound, times in order, counters, and its bytes in the file.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { EveRing } from '../../../src/eve/eve-ring.js';

const REF = 1_780_000_000;

describe('the Eve ring of one door', () => {
  it('numbers its records from 2, after the reference record (entry 1)', () => {
    const ring = new EveRing(REF, 10);
    expect([ring.referenceNumber, ring.lastNumber, ring.last()]).toEqual([1, 1, undefined]);
    ring.add(REF + 60, 1, { opening: true });
    ring.add(REF + 120, 0, { opening: false });
    expect(ring.record(2)).toEqual({ number: 2, timeS: REF + 60, status: 1 });
    expect(ring.last()).toEqual({ number: 3, timeS: REF + 120, status: 0 });
    expect([ring.timesOpened, ring.lastMoveS]).toEqual([1, REF + 120]);
  });

  it('keeps its newest records when full, numbers going on, the reference one before the oldest kept', () => {
    const ring = new EveRing(REF, 3);
    for (let i = 1; i <= 5; i += 1) ring.add(REF + i, i % 2);
    expect([ring.size, ring.referenceNumber, ring.lastNumber]).toEqual([3, 3, 6]);
    expect(ring.record(4)?.timeS).toBe(REF + 3);
    expect(ring.record(3)).toBeUndefined();
  });

  it('never lets a time go back, nor before the reference time; a repeat counts no opening', () => {
    const ring = new EveRing(REF, 10);
    ring.add(REF - 50, 1);
    ring.add(REF + 100, 1);
    ring.add(REF + 40, 0);
    expect([ring.record(2)?.timeS, ring.record(4)?.timeS]).toEqual([REF, REF + 100]);
    expect([ring.timesOpened, ring.lastMoveS]).toEqual([0, 0]);
  });

  it('reads back from its bytes exactly what it held, for any records', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(100_000), fc.boolean()), { maxLength: 40 }),
        fc.integer({ min: 1, max: 50 }),
        (moves, capacity) => {
          const ring = new EveRing(REF, capacity);
          for (const [delta, open] of moves) ring.add(REF + delta, open ? 1 : 0, { opening: open });
          const back = EveRing.fromBytes(ring.toBytes(), capacity);
          expect(back?.toBytes().equals(ring.toBytes())).toBe(true);
          expect([back?.referenceNumber, back?.lastNumber, back?.timesOpened, back?.lastMoveS]).toEqual([
            ring.referenceNumber,
            ring.lastNumber,
            ring.timesOpened,
            ring.lastMoveS,
          ]);
        },
      ),
    );
  });

  it('refuses bytes it did not write whole: cut, grown, out of order, another version', () => {
    const ring = new EveRing(REF, 10);
    ring.add(REF + 10, 1);
    ring.add(REF + 20, 0);
    const bytes = ring.toBytes();
    expect(EveRing.fromBytes(bytes.subarray(0, bytes.length - 1), 10)).toBeUndefined();
    expect(EveRing.fromBytes(Buffer.concat([bytes, Buffer.from([0])]), 10)).toBeUndefined();
    const swapped = Buffer.from(bytes);
    swapped.writeUInt32LE(REF + 30, 21);
    expect(EveRing.fromBytes(swapped, 10)).toBeUndefined();
    const other = Buffer.from(bytes);
    other.writeUInt8(9, 0);
    expect(EveRing.fromBytes(other, 10)).toBeUndefined();
  });
});

// When a door's renames in the account are said, and when they go quiet until its name holds.
import { describe, expect, it } from 'vitest';

import { RenameRate } from '../../../../src/door/model/rename-rate.js';

const MINUTE = 60_000;

describe('RenameRate', () => {
  it('says a few renames, goes quiet once past them within the window, and speaks again once the name held a window', () => {
    const rate = new RenameRate(3, 60 * MINUTE);
    expect([0, 1, 2].map((m) => rate.record(m * MINUTE))).toEqual(['say', 'say', 'say']);
    expect(rate.record(3 * MINUTE)).toBe('goes-quiet');
    expect(rate.quiet).toBe(true);
    expect(rate.record(4 * MINUTE)).toBe('quiet');
    // Not yet a whole window since the last rename.
    expect(rate.settle(63 * MINUTE)).toBe(false);
    expect(rate.settle(64 * MINUTE)).toBe(true);
    expect(rate.quiet).toBe(false);
    expect(rate.settle(65 * MINUTE)).toBe(false);
    expect(rate.record(65 * MINUTE)).toBe('say');
  });

  it('never goes quiet for renames spread wider than the window', () => {
    const rate = new RenameRate(3, 60 * MINUTE);
    for (let i = 0; i < 50; i += 1) {
      expect(rate.record(i * 21 * MINUTE)).toBe('say');
    }
  });
});

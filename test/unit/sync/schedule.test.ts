// The sync schedule: poll interval, fast follow-up while a door moves, back-off that grows, is capped and honours Retry-After.
import { describe, expect, it } from 'vitest';

import { MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS } from '../../../src/settings.js';
import { describeWait, nextSyncDelayMs } from '../../../src/sync/schedule.js';

const base = { pollIntervalMs: 15_000, failedSyncs: 0, retryAfterMs: undefined, doorMoving: false, random: 0.5 };

describe('nextSyncDelayMs', () => {
  it('waits the poll interval when all is well, and 2 s while a door moves', () => {
    expect(nextSyncDelayMs(base)).toBe(15_000);
    expect(nextSyncDelayMs({ ...base, doorMoving: true })).toBe(2_000);
  });

  it('doubles after each failure up to the cap', () => {
    const delays = [1, 2, 3, 10].map((failedSyncs) => nextSyncDelayMs({ ...base, failedSyncs }));
    expect(delays).toEqual([15_000, 30_000, 60_000, MAX_BACKOFF_MS]);
  });

  it('spreads retries by up to 20 % either way', () => {
    expect(nextSyncDelayMs({ ...base, failedSyncs: 1, random: 0 })).toBe(12_000);
    expect(nextSyncDelayMs({ ...base, failedSyncs: 1, random: 1 })).toBe(18_000);
  });

  it('syncs just after a door is expected to close by itself, then closely for a while', () => {
    expect(nextSyncDelayMs({ ...base, autoCloseInMs: 5_000 })).toBe(7_000);
    expect(nextSyncDelayMs({ ...base, autoCloseInMs: 60_000 })).toBe(15_000);
    expect(nextSyncDelayMs({ ...base, autoCloseInMs: -10_000 })).toBe(2_000);
    expect(nextSyncDelayMs({ ...base, autoCloseInMs: -60_000 })).toBe(15_000);
  });

  it('never asks again before Retry-After has passed', () => {
    expect(nextSyncDelayMs({ ...base, failedSyncs: 1, retryAfterMs: 120_000 })).toBe(120_000);
  });

  it('waits at most the longest wait, whatever Retry-After asks (days, or a number too large to hold)', () => {
    for (const retryAfterMs of [MAX_RETRY_AFTER_MS + 1, 30 * 86_400_000, 2 ** 40, Number.POSITIVE_INFINITY]) {
      expect(nextSyncDelayMs({ ...base, failedSyncs: 1, retryAfterMs })).toBe(MAX_RETRY_AFTER_MS);
    }
  });
});

describe('describeWait', () => {
  it('says a wait in the unit a person would use', () => {
    expect([45_000, 12 * 60_000, 3 * 3_600_000, 30 * 86_400_000, Number.POSITIVE_INFINITY].map(describeWait)).toEqual([
      '45 s',
      '12 minutes',
      '3 hours',
      '30 days',
      'forever',
    ]);
  });
});

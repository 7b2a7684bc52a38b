// The sync loop on a simulated clock: one sync at a time, the chosen delay between runs, hurry after a command, clean stop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { SyncLoop } from '../../../src/sync/loop.js';

/** A loop whose sync only counts its runs, waiting 15 s between them; none before `notBefore` (a Retry-After), if given. */
function countingLoop(delayMs = 15_000, notBefore?: () => number | undefined): { loop: SyncLoop; runs: () => number } {
  let runs = 0;
  const loop = new SyncLoop(
    () => {
      runs += 1;
      return Promise.resolve();
    },
    () => delayMs,
    undefined,
    notBefore,
  );
  return { loop, runs: () => runs };
}

describe('SyncLoop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('syncs at once, then after each chosen delay', async () => {
    const { loop, runs } = countingLoop();
    loop.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(14_999);
    expect(runs()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs()).toBe(2);
    loop.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs()).toBe(2);
  });

  it('never runs two syncs at once, and reruns once after a hurry during a run', async () => {
    let active = 0;
    let maxActive = 0;
    let runs = 0;
    const loop = new SyncLoop(
      async () => {
        runs += 1;
        active += 1;
        maxActive = Math.max(maxActive, active);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        active -= 1;
      },
      () => 15_000,
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(500);
    loop.hurry(2_000);
    loop.hurry(2_000);
    await vi.advanceTimersByTimeAsync(600);
    expect(runs).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(maxActive).toBe(1);
    loop.stop();
  });

  it('brings the next sync forward but never pushes it back', async () => {
    const { loop, runs } = countingLoop();
    loop.start();
    await vi.advanceTimersByTimeAsync(1_000);
    loop.hurry(2_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs()).toBe(2);
    loop.hurry(60_000);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(runs()).toBe(3);
    loop.stop();
  });

  it('survives a task that throws', async () => {
    let runs = 0;
    const loop = new SyncLoop(
      () => {
        runs += 1;
        return Promise.reject(new Error('boom'));
      },
      () => 1_000,
    );
    loop.start();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toBe(3);
    loop.stop();
  });

  it('runs no sync before the wait has passed, however often it is hurried', async () => {
    const waitUntil = Date.now() + 3_600_000;
    const { loop, runs } = countingLoop(15_000, () => (Date.now() < waitUntil ? waitUntil : undefined));
    loop.start();
    for (let i = 0; i < 100; i += 1) {
      loop.hurry(2_000);
      await vi.advanceTimersByTimeAsync(35_000);
    }
    expect(runs()).toBe(0);
    await vi.advanceTimersByTimeAsync(waitUntil - Date.now());
    expect(runs()).toBe(1);
    loop.stop();
  });
});

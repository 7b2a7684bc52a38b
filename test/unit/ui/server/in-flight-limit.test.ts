// The settings server's bound on history reads: never more than its max in flight, each waiting task run in turn, a failure freeing its place.
import { describe, expect, it } from 'vitest';

import { ACTIVITY_REQUESTS_IN_FLIGHT_MAX } from '../../../../src/settings.js';
import { InFlightLimit } from '../../../../src/ui/server/in-flight-limit.js';

/** Tasks the test ends one by one: it sees how many are running at any moment, and the most there ever were. */
function controllable() {
  const pending: { id: number; resolve: () => void; reject: (error: Error) => void }[] = [];
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  const task = (id: number) => (): Promise<number> =>
    new Promise<number>((resolve, reject) => {
      running += 1;
      peak = Math.max(peak, running);
      started.push(id);
      pending.push({
        id,
        resolve: () => {
          running -= 1;
          resolve(id);
        },
        reject: (error) => {
          running -= 1;
          reject(error);
        },
      });
    });
  return {
    task,
    pending,
    started,
    running: () => running,
    peak: () => peak,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('InFlightLimit', () => {
  it('runs at most 4 of 20 tasks at once, starts the next as one ends, in the order asked, and every one ends', async () => {
    expect(ACTIVITY_REQUESTS_IN_FLIGHT_MAX).toBe(4);
    const limit = new InFlightLimit(ACTIVITY_REQUESTS_IN_FLIGHT_MAX);
    const fake = controllable();
    const all = Promise.all(Array.from({ length: 20 }, (_, id) => limit.run(fake.task(id))));
    await settle();
    expect(fake.running()).toBe(4);
    expect(limit.inFlight).toBe(4);
    expect(fake.started).toEqual([0, 1, 2, 3]);
    while (fake.pending.length > 0) {
      // End the most recent one (not the first): the limit must not depend on the order tasks end in.
      fake.pending.pop()?.resolve();
      await settle();
      expect(fake.running()).toBeLessThanOrEqual(4);
    }
    expect(await all).toEqual(Array.from({ length: 20 }, (_, id) => id));
    expect(fake.peak()).toBe(4);
    expect(fake.started).toEqual(Array.from({ length: 20 }, (_, id) => id));
    expect(limit.inFlight).toBe(0);
  });

  it('a task that fails frees its place, and its caller gets the failure', async () => {
    const limit = new InFlightLimit(1);
    const fake = controllable();
    const first = limit.run(fake.task(1));
    const second = limit.run(fake.task(2));
    await settle();
    expect(fake.started).toEqual([1]);
    fake.pending.shift()?.reject(new Error('refused'));
    await expect(first).rejects.toThrow('refused');
    await settle();
    expect(fake.started).toEqual([1, 2]);
    fake.pending.shift()?.resolve();
    expect(await second).toBe(2);
    expect(limit.inFlight).toBe(0);
  });

  it('refuses a max that is not a whole number of at least 1', () => {
    expect(() => new InFlightLimit(0)).toThrow(RangeError);
    expect(() => new InFlightLimit(2.5)).toThrow(RangeError);
  });
});

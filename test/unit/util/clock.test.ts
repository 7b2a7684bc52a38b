// Every timer delay is clamped in one place (src/util/clock.ts): a delay past 2^31-1 ms would otherwise fire after 1 ms, a tight loop.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it, vi } from 'vitest';

import { deadlineSignal, MAX_TIMER_DELAY_MS, SYSTEM_CLOCK, timerDelayMs } from '../../../src/util/clock.js';
import { SyncLoop } from '../../../src/sync/loop.js';
import { ManualClock } from '../../support/homebridge-double.js';

const THIRTY_DAYS_MS = 30 * 24 * 60 * 60_000;
const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
/** The browser page runs in the Homebridge UI, not in Homebridge or the settings page's server process. */
const BROWSER_PAGE_DIR = path.join('ui', 'page');

afterEach(() => {
  vi.useRealTimers();
});

describe('timerDelayMs', () => {
  it('keeps every delay within what a timer holds', () => {
    expect(timerDelayMs(1_000)).toBe(1_000);
    expect(timerDelayMs(MAX_TIMER_DELAY_MS)).toBe(MAX_TIMER_DELAY_MS);
    expect(timerDelayMs(MAX_TIMER_DELAY_MS + 1)).toBe(MAX_TIMER_DELAY_MS);
    expect(timerDelayMs(THIRTY_DAYS_MS)).toBe(MAX_TIMER_DELAY_MS);
    expect(timerDelayMs(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_DELAY_MS);
    expect(timerDelayMs(-5)).toBe(0);
    expect(timerDelayMs(Number.NaN)).toBe(0);
  });
});

describe('the clocks', () => {
  it('the real clock hands a 30-day delay to setTimeout clamped, so it does not fire after 1 ms', () => {
    vi.useFakeTimers();
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const fired = vi.fn();
    const handle = SYSTEM_CLOCK.setTimeout(fired, THIRTY_DAYS_MS);
    expect(spy.mock.calls.at(-1)?.[1]).toBe(MAX_TIMER_DELAY_MS);
    vi.advanceTimersByTime(60_000);
    expect(fired).not.toHaveBeenCalled();
    SYSTEM_CLOCK.clearTimeout(handle);
  });

  it('a sync loop asked to wait 30 days on the real clock runs once, not in a tight loop', async () => {
    vi.useFakeTimers();
    const task = vi.fn(() => Promise.resolve());
    const loop = new SyncLoop(task, () => THIRTY_DAYS_MS, SYSTEM_CLOCK);
    loop.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(task).toHaveBeenCalledTimes(1);
    loop.stop();
  });

  it('the simulated clock clamps the same way', () => {
    const clock = new ManualClock();
    clock.setTimeout(() => undefined, THIRTY_DAYS_MS);
    expect(clock.nextDueInMs).toBe(MAX_TIMER_DELAY_MS);
  });

  it('a request deadline is clamped too', async () => {
    // Real time: unclamped, AbortSignal.timeout fires after 1 ms; clamped, not for 24 days.
    const signal = deadlineSignal(THIRTY_DAYS_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signal.aborted).toBe(false);
  });
});

describe('one place', () => {
  it('no plugin file but src/util/clock.ts sets a timer itself', () => {
    const offenders: string[] = [];
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.startsWith(BROWSER_PAGE_DIR),
    );
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) {
      if (file === path.join('util', 'clock.ts')) {
        continue;
      }
      const text = readFileSync(path.join(SRC, file), 'utf8');
      // A bare global call (a Clock's own method, `clock.setTimeout(`, is the way through the clamp).
      if (/(?<![.\w])(setTimeout|setInterval)\s*\(|AbortSignal\.timeout\s*\(/.test(text)) {
        offenders.push(file);
      }
    }
    expect(offenders).toEqual([]);
  });
});

// Homebridge refusing Matter calls at sync after sync: one warning per incident, the count and its start when it ends,
// and at most a few warnings an hour for one that keeps coming back (issue 30).
import { describe, expect, it } from 'vitest';

import { logTime, MatterRefusals } from '../../../src/matter/refusals.js';
import { MATTER_REFUSAL_LOG_INTERVAL_MS } from '../../../src/settings.js';
import { captureLog } from '../../support/log.js';

const START = Date.parse('2026-11-21T12:00:00Z');
const SYNC_MS = 15_000;

describe('MatterRefusals', () => {
  it('says an incident once, however long it lasts, and its count and start when a call is taken', () => {
    const log = captureLog();
    let now = START;
    const refusals = new MatterRefusals(log, () => now);
    for (let sync = 0; sync < 8_001; sync += 1) {
      refusals.refused('Could not add 3 doors to Matter: Matter server busy.');
      now += SYNC_MS;
    }
    expect(log.lines.filter((l) => l.level !== 'debug')).toEqual([
      { level: 'warn', text: 'Could not add 3 doors to Matter: Matter server busy.' },
    ]);
    expect(refusals.taken()).toBe(' (Homebridge refused 8001 times since 2026-11-21 12:00 UTC)');
    // Ended: nothing more to add until the next incident.
    expect(refusals.taken()).toBe('');
  });

  it('says an incident that keeps coming back at most three times an hour, counting the ones held back', () => {
    const log = captureLog();
    let now = START;
    const refusals = new MatterRefusals(log, () => now);
    // Refused, then taken, at every other sync, for two hours.
    for (let sync = 0; sync < 480; sync += 1) {
      if (sync % 2 === 0) refusals.refused('Could not remove Front Gate from Matter: Matter server busy.');
      else refusals.taken();
      now += SYNC_MS;
    }
    const warnings = log.texts('warn');
    expect(warnings.length).toBeLessThanOrEqual((2 * 60 * 60_000) / MATTER_REFUSAL_LOG_INTERVAL_MS);
    expect(warnings[1]).toBe(
      'Could not remove Front Gate from Matter: Matter server busy. Refused and then taken 39 more times since the last such warning.',
    );
  });

  it('tells a moment in UTC, to the minute', () => {
    expect(logTime(Date.parse('2026-11-21T09:05:59Z'))).toBe('2026-11-21 09:05 UTC');
  });
});

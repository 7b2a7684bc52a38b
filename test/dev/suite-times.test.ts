// CI's times (dev/ci/suite-times.ts, run by .ci/run): each suite's wall time from its vitest report, none for a suite that
// could not run, and the run's own total.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { suiteTimes, wallSeconds } from '../../dev/ci/suite-times.js';

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("CI's times", () => {
  it('takes a suite from its start to the end of its last file, whichever file ran last', () => {
    const report = { startTime: 1_000_000, testResults: [{ endTime: 1_120_400 }, { endTime: 1_059_000 }] };
    expect(wallSeconds(report)).toBe(120);
  });

  it('writes one figure a suite, none for a suite that could not run, and the total it is given', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'suite-times-'));
    await writeFile(path.join(dir, 'vitest-homebridge-node20.json'), JSON.stringify({ startTime: 0, testResults: [{ endTime: 300_000 }] }));
    await writeFile(
      path.join(dir, 'vitest-matter-homebridge-2.4.0-node24.json'),
      JSON.stringify({ success: false, reason: 'no namespace' }),
    );
    await writeFile(path.join(dir, 'vitest-matter-homebridge-2.4.0-node24.note'), 'a note\n');
    expect(suiteTimes(dir, 345, 'abc1234')).toEqual({ commit: 'abc1234', totalS: 345, suites: { 'vitest-homebridge-node20': 300 } });
  });
});

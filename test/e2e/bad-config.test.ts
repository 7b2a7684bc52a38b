// Homebridge stays up whatever the config says: nothing configured, bad values, or a service that cannot be found at all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startHomebridge, STOP_BUDGET_MS } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { tearDown } from './teardown.js';

const SECRET = 'bad-config-secret-93e1';
/** Long enough for the first sync and its first retry to fail. */
const FAILURE_WAIT_MS = 30_000;

// Homebridge 2 refuses one dynamic platform twice on a bridge, so each config gets its own Homebridge, booted side by side.
const CONFIGS = {
  missing: { platform: 'AccessControl' },
  badValues: { platform: 'AccessControl', name: 'Bad Values', accessToken: SECRET, baseUrl: 'ftp://example.com', pollInterval: 1 },
  // ".invalid" never resolves: every request fails with ENOTFOUND, as in the plugin checker.
  nowhere: { platform: 'AccessControl', name: 'Nowhere', accessToken: SECRET, baseUrl: 'http://door-service.invalid', pollInterval: 5 },
};

let bridges: Record<keyof typeof CONFIGS, HomebridgeProcess>;
/** Every Homebridge that started, as it started: stopped at the end even when another one failed to start. */
const started: HomebridgeProcess[] = [];

beforeAll(async () => {
  const [missing, badValues, nowhere] = await Promise.all(
    [CONFIGS.missing, CONFIGS.badValues, CONFIGS.nowhere].map(async (config) => {
      const hb = await startHomebridge({ platforms: [config] });
      started.push(hb);
      return hb;
    }),
  );
  if (!missing || !badValues || !nowhere) throw new Error('a Homebridge did not start');
  bridges = { missing, badValues, nowhere };
});

afterAll(async () => {
  await Promise.all(started.map((hb) => tearDown({ hb })));
});

describe('a Homebridge whose plugin config is missing, wrong or unreachable', () => {
  it('reports a missing config in one line and stays idle', async () => {
    await bridges.missing.waitForLog(/\[AccessControl\] The configuration is not valid.*accessToken is required; baseUrl is required/, FAILURE_WAIT_MS);
  });

  it('reports every bad value by its name, never its value', async () => {
    const line = await bridges.badValues.waitForLog(/\[Bad Values\] The configuration is not valid/, FAILURE_WAIT_MS);
    expect(line).toContain('baseUrl must be an http:// or https:// address');
    expect(line).toContain('pollInterval must be at least 5 seconds');
    expect(line).not.toContain('ftp://example.com');
  });

  it('keeps running when the service cannot even be found, with one clear error', async () => {
    const hb = bridges.nowhere;
    await hb.waitForLog(/\[Nowhere\] The account could not be synced: .*address not found in DNS, ENOTFOUND/, FAILURE_WAIT_MS);
    await hb.waitForLog(/\[Nowhere\] Still failing \(2 attempts\)/, FAILURE_WAIT_MS);
    expect(hb.exited).toBeUndefined();
    expect(hb.log()).not.toContain(SECRET);
  });

  it('stops every one within the time the plugin checker allows', async () => {
    const stopped = await Promise.all(Object.values(bridges).map((hb) => hb.stop()));
    for (const result of stopped) {
      expect(result.ms).toBeLessThan(STOP_BUDGET_MS);
      expect(result.killed).toBe(false);
    }
  });
});

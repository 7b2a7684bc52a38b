// Homebridge stays up whatever the config says: nothing configured, bad values, or a service that cannot be found at all;
// and a protective setting that cannot be read leaves its doors protected in Home.
import { describe, expect, it } from 'vitest';

import { STOP_BUDGET_MS } from '../../dev/harness/homebridge-process.js';
import {
  makeDevice,
  makeDoor,
  sampleAccount,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_SHARED_GATE_ID,
} from '../../dev/simulator/server.js';
import { sleep } from '../support/wait.js';
import { opens, serials } from './home-checks.js';
import { expectCleanStop, platformEntry, useHomebridge } from './homebridge-rig.js';
import type { HomebridgeRig } from './homebridge-rig.js';

const SECRET = 'bad-config-secret-93e1';
/** Long enough for the first sync and its first retry to fail. */
const FAILURE_WAIT_MS = 30_000;
/** Longer than the shortest poll interval the config allows (5 s): a plugin that was not idle would have logged by then. */
const IDLE_WATCH_MS = 6_000;

const CONFIGS = {
  missing: { platform: 'AccessControl' },
  badValues: { platform: 'AccessControl', name: 'Bad Values', accessToken: SECRET, baseUrl: 'ftp://example.com', pollInterval: 1 },
  // ".invalid" never resolves: every request fails with ENOTFOUND, as in the plugin checker.
  nowhere: { platform: 'AccessControl', name: 'Nowhere', accessToken: SECRET, baseUrl: 'http://door-service.invalid', pollInterval: 5 },
};

// Homebridge 2 refuses one dynamic platform twice on a bridge, so each config gets its own Homebridge (and the
// simulator of its rig, which none of them reaches). None is paired: these tests read the log.
const bridgeFor = (config: Record<string, unknown>): HomebridgeRig =>
  useHomebridge({ simulator: { accessToken: SECRET }, platforms: () => [config], pair: false });
const bridges = { missing: bridgeFor(CONFIGS.missing), badValues: bridgeFor(CONFIGS.badValues), nowhere: bridgeFor(CONFIGS.nowhere) };

describe('a Homebridge whose plugin config is missing, wrong or unreachable', () => {
  it('reports a missing config in one line and stays idle', async () => {
    const hb = bridges.missing.hb;
    await hb.waitForLog(/\[AccessControl\] The configuration is not valid.*accessToken is required; baseUrl is required/, FAILURE_WAIT_MS);
    // Idle: over more than the shortest poll interval nothing more comes from the plugin (no sync, no retry, no
    // accessory), and Homebridge itself runs on.
    await sleep(IDLE_WATCH_MS);
    const pluginLines = hb
      .log()
      .split('\n')
      // Homebridge's own line under the platform's name, before the plugin says anything.
      .filter((line) => line.includes('[AccessControl]') && !line.includes('Initializing AccessControl platform'));
    expect(pluginLines).toEqual([expect.stringMatching(/The configuration is not valid/)]);
    expect(hb.exited).toBeUndefined();
  });

  it('reports every bad value by its name, never its value', async () => {
    const line = await bridges.badValues.hb.waitForLog(/\[Bad Values\] The configuration is not valid/, FAILURE_WAIT_MS);
    expect(line).toContain('baseUrl must be an http:// or https:// address');
    expect(line).toContain('pollInterval must be at least 5 seconds');
    expect(line).not.toContain('ftp://example.com');
  });

  it('keeps running when the service cannot even be found, with one clear error', async () => {
    const hb = bridges.nowhere.hb;
    await hb.waitForLog(/\[Nowhere\] The account could not be synced: .*address not found in DNS, ENOTFOUND/, FAILURE_WAIT_MS);
    await hb.waitForLog(/\[Nowhere\] Still failing \(2 attempts\)/, FAILURE_WAIT_MS);
    expect(hb.exited).toBeUndefined();
    expect(hb.log()).not.toContain(SECRET);
  });

  it("stops every one by itself, before Homebridge's force-exit (and so within the time the plugin checker allows)", async () => {
    const stopped = await Promise.all(Object.values(bridges).map((bridge) => bridge.hb.stop()));
    for (const result of stopped) {
      expectCleanStop(result);
      expect(result.ms).toBeLessThan(STOP_BUDGET_MS);
    }
  });
});

const PROTECT_TOKEN = 'tok-91bb6eb222c7';
/** Two doors whose ids are numbers written as text, as a service may send them. */
const YARD_GATE_ID = '424242';
const BARN_DOOR_ID = '424243';
const ACCESSORY_WAIT_MS = 25_000;

describe('a protective setting that cannot be read, on a real Homebridge with a HomeKit controller (issue 19.3)', () => {
  /** Each config on a Homebridge of its own, each with a simulator of the sample account and two doors with numeric ids. */
  const rigFor = (name: string, options: Record<string, unknown>): HomebridgeRig =>
    useHomebridge({
      simulator: {
        accessToken: PROTECT_TOKEN,
        travelTimeMs: 200,
        devices: [
          ...sampleAccount(),
          makeDevice({
            doors: [makeDoor({ id: YARD_GATE_ID, name: 'Yard Gate' }), makeDoor({ id: BARN_DOOR_ID, name: 'Barn Door', entityNumber: 2 })],
          }),
        ],
      },
      platforms: (sim) => [platformEntry(sim.baseUrl, PROTECT_TOKEN, { name, ...options })],
      door: SAMPLE_FRONT_GATE_ID,
      waitMs: ACCESSORY_WAIT_MS,
    });
  const protectedEntries = rigFor('Protected Entries', {
    automationSwitch: 'open-close',
    doors: [
      { id: SAMPLE_FRONT_GATE_ID, name: 'Street Gate' },
      { id: SAMPLE_FRONT_GATE_ID, readOnly: true },
      { id: SAMPLE_GARAGE_DOOR_ID, automationSwitch: 'none' },
    ],
    excludeDoorIds: [Number(BARN_DOOR_ID)],
  });
  const loneEntry = rigFor('Lone Entry', { doors: { id: Number(YARD_GATE_ID), readOnly: true } });
  const badExclude = rigFor('Bad Exclude', { excludeDoorIds: [SAMPLE_SHARED_GATE_ID, { id: YARD_GATE_ID }] });

  it('a second entry for the same door that makes it read-only wins, and says so', async () => {
    expect(await opens(protectedEntries, SAMPLE_FRONT_GATE_ID)).toBe(false);
    expect(await opens(protectedEntries, YARD_GATE_ID)).toBe(true);
    await protectedEntries.hb.waitForLog(
      /\[Protected Entries\] In the configuration, doors\.1 \(id "[^"]+"\) is a second entry for the same door as doors\.0; they are merged/,
      ACCESSORY_WAIT_MS,
    );
  });

  it('a per-door automationSwitch "none" under a global "open-close" gives that door no switch', async () => {
    await expect(protectedEntries.controller.findService(SAMPLE_GARAGE_DOOR_ID, 'Switch')).rejects.toThrow();
    await protectedEntries.controller.findService(YARD_GATE_ID, 'Switch');
    await protectedEntries.hb.waitForLog(
      /\[Protected Entries\] In the configuration, doors\.2 .*automationSwitch must be .*; this door has no automation switch until it is fixed/,
      ACCESSORY_WAIT_MS,
    );
  });

  it('a numeric id in excludeDoorIds keeps that door out', async () => {
    expect(await serials(protectedEntries)).not.toContain(BARN_DOOR_ID);
    expect(await serials(protectedEntries)).toContain(SAMPLE_SHARED_GATE_ID);
  });

  it('"doors" written as one entry with a numeric id keeps that door read-only, the others open', async () => {
    await loneEntry.controller.waitForAccessory(YARD_GATE_ID, ACCESSORY_WAIT_MS);
    expect(await opens(loneEntry, YARD_GATE_ID)).toBe(false);
    expect(await opens(loneEntry, BARN_DOOR_ID)).toBe(true);
    await loneEntry.hb.waitForLog(
      /\[Lone Entry\] In the configuration, doors must be a list of door settings .*door "424242" is read-only/,
      ACCESSORY_WAIT_MS,
    );
  });

  it('excludeDoorIds with one bad element keeps the excluded door out and no door shown opens', async () => {
    expect(await serials(badExclude)).not.toContain(SAMPLE_SHARED_GATE_ID);
    expect(await opens(badExclude, SAMPLE_GARAGE_DOOR_ID)).toBe(false);
    expect(await opens(badExclude, YARD_GATE_ID)).toBe(false);
    await badExclude.hb.waitForLog(
      /\[Bad Exclude\] In the configuration, excludeDoorIds\.1 must be an id .*every door shown is read-only until it is fixed/,
      ACCESSORY_WAIT_MS,
    );
  });
});

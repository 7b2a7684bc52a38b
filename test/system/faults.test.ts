// Every fault of the service, injected in the simulator, on a simulated clock: one log line per incident, back-off, No Response, recovery.
import * as hap from 'hap-nodejs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import { DoorAccessory } from '../../src/door/door-accessory.js';
import type { AccessControlPlatform } from '../../src/platform.js';
import { FAILED_SYNCS_BEFORE_NO_RESPONSE, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS } from '../../src/settings.js';
import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import type { SimFault } from '../../dev/simulator/server.js';
import type { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import type { CapturedLog } from '../support/log.js';
import { bootPlatform } from '../support/platform-rig.js';
import { secretLeaks } from '../support/secret-leaks.js';

const TOKEN = 'faults-token-0b7e2d';
const POLL_INTERVAL_MS = 15_000;
const FAILING_POLLS = 5;
/** Short whole-request deadline for syncs here; the trickle below sends a byte well within the 300 ms body time-out. */
const READ_TIMEOUT_MS = 500;
const TRICKLE_INTERVAL_MS = 50;
const { CurrentDoorState } = hap.Characteristic;

let sim: AccessControlSimulator;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: 50 });
  await sim.start();
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await sim.stop();
});

interface Rig {
  clock: ManualClock;
  log: CapturedLog;
  api: HomebridgeDouble;
  platform: AccessControlPlatform;
  /** Runs the next scheduled sync; returns how long the plugin waited for it. */
  poll(): Promise<number>;
  errorLines(): string[];
  read(doorId: string): Promise<unknown>;
}

async function boot(baseUrl = sim.baseUrl): Promise<Rig> {
  const { clock, log, api, platform, poll } = bootPlatform(
    { accessToken: TOKEN, baseUrl, pollInterval: POLL_INTERVAL_MS / 1000 },
    { runtime: { readTimeoutMs: READ_TIMEOUT_MS } },
  );
  await poll();
  return {
    clock,
    log,
    api,
    platform,
    poll,
    errorLines: () => log.lines.filter((l) => l.level === 'error' || l.level === 'warn').map((l) => l.text),
    read: (doorId) => api.characteristic(doorId, CurrentDoorState).handleGetRequest(),
  };
}

let rig: Rig;

beforeEach(async () => {
  rig = await boot();
  expect(rig.api.registered.size).toBe(3);
});

afterEach(async () => {
  sim.clearFaults();
  sim.setOutage(false);
  sim.setAccessToken(TOKEN);
  await rig.platform.shutdown();
  expect(unhandled).toEqual([]);
});

describe('a sync that fails', () => {
  it.each<[string, SimFault]>([
    ['HTTP 500', { kind: 'status', status: 500 }],
    ['HTTP 503', { kind: 'status', status: 503 }],
    ['HTTP 429 without Retry-After', { kind: 'status', status: 429 }],
    ['invalid JSON', { kind: 'invalid-json' }],
    ['an answer that does not fit the contract', { kind: 'schema' }],
    ['corrupt gzip', { kind: 'corrupt-gzip' }],
    ['a truncated body', { kind: 'truncated' }],
    ['a connection reset mid-body', { kind: 'reset' }],
    ['a refused connection', { kind: 'refuse' }],
    ['no answer at all (headers time-out)', { kind: 'hang' }],
    ['an answer trickling in a byte at a time (whole-request deadline)', { kind: 'trickle', intervalMs: TRICKLE_INTERVAL_MS }],
  ])('%s: one log line, growing back-off, No Response, nothing removed, recovery by itself', async (_name, fault) => {
    sim.setFault('sync', fault);
    const waits: number[] = [];
    for (let i = 0; i < FAILING_POLLS; i += 1) {
      waits.push(await rig.poll());
    }
    expect(rig.errorLines()).toHaveLength(1);
    expect(rig.errorLines()[0]).toMatch(/^The account could not be synced: .+\. Retrying with back-off\.$/);
    // The first failing sync came at the poll interval; each retry after it waited longer, up to the cap.
    const retries = waits.slice(2);
    for (let i = 1; i < retries.length; i += 1) {
      expect(retries[i]).toBeGreaterThan(retries[i - 1] ?? 0);
    }
    expect(Math.max(...waits)).toBeLessThanOrEqual(MAX_BACKOFF_MS * 1.2);
    await expect(rig.read(SAMPLE_FRONT_GATE_ID)).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    expect(rig.api.registered.size).toBe(3);

    sim.setFault('sync', null);
    await rig.poll();
    expect(await rig.read(SAMPLE_FRONT_GATE_ID)).toBe(CurrentDoorState.CLOSED);
    expect(rig.log.lines.filter((l) => l.text.startsWith('The account can be read again'))).toHaveLength(1);
    await rig.poll();
    expect(rig.errorLines()).toHaveLength(1);
  });

  it('shows No Response only after repeated failures, not after one', async () => {
    sim.setFault('sync', { kind: 'status', status: 500 }, { times: FAILED_SYNCS_BEFORE_NO_RESPONSE - 1 });
    await rig.poll();
    expect(await rig.read(SAMPLE_FRONT_GATE_ID)).toBe(CurrentDoorState.CLOSED);
  });

  it('honours Retry-After: no request before it has passed', async () => {
    sim.setFault('sync', { kind: 'status', status: 429, retryAfterS: 600 }, { times: 1 });
    await rig.poll();
    const before = sim.countRequests('/endpoints/sync');
    expect(rig.clock.nextDueInMs).toBeGreaterThanOrEqual(600_000);
    rig.clock.advance(599_000);
    await rig.platform.syncSettled();
    expect(sim.countRequests('/endpoints/sync')).toBe(before);
    await rig.poll();
    expect(sim.countRequests('/endpoints/sync')).toBe(before + 1);
    expect(await rig.read(SAMPLE_FRONT_GATE_ID)).toBe(CurrentDoorState.CLOSED);
  });

  it.each([
    ['30 days in seconds', { retryAfterS: 30 * 24 * 60 * 60 }],
    ['an HTTP date 60 days ahead', { retryAfter: new Date(Date.now() + 60 * 24 * 60 * 60_000).toUTCString() }],
  ])('caps a Retry-After of %s at the longest wait, says so once, and never hammers the service', async (_name, retryAfter) => {
    sim.setFault('sync', { kind: 'status', status: 429, ...retryAfter });
    const before = sim.countRequests('/endpoints/sync');
    const waits: number[] = [];
    for (let i = 0; i < FAILING_POLLS; i += 1) {
      waits.push(await rig.poll());
    }
    // One request per capped wait: an overflowing timer would have fired after 1 ms, again and again.
    expect(sim.countRequests('/endpoints/sync')).toBe(before + FAILING_POLLS);
    expect(waits.slice(1).every((wait) => wait === MAX_RETRY_AFTER_MS)).toBe(true);
    expect(rig.errorLines()).toEqual([
      expect.stringMatching(
        /^The service asked the plugin to wait: no sync or history request until .+ UTC \(in 60 minutes\)\./,
      ) as unknown,
      'The account could not be synced: the service is limiting requests (HTTP 429). Retrying with back-off.',
      expect.stringMatching(
        /^The service asked to wait (30|60) days before the next request; waiting 60 minutes instead, the longest the plugin waits, then asking again\.$/,
      ) as unknown,
    ]);
    sim.setFault('sync', null);
    await rig.poll();
    expect(await rig.read(SAMPLE_FRONT_GATE_ID)).toBe(CurrentDoorState.CLOSED);
  });

  it('says once that the token expired, backs off, and recovers by itself once it works again', async () => {
    sim.setAccessToken('the-token-was-rotated');
    for (let i = 0; i < FAILING_POLLS; i += 1) {
      await rig.poll();
    }
    expect(rig.errorLines()).toEqual([
      'The service refused the access token (HTTP 401). Check "accessToken" in the plugin settings; the plugin keeps trying with back-off and recovers by itself once the token works.',
    ]);
    sim.setAccessToken(TOKEN);
    await rig.poll();
    expect(await rig.read(SAMPLE_FRONT_GATE_ID)).toBe(CurrentDoorState.CLOSED);
    expect(JSON.stringify(rig.log.lines)).not.toContain(TOKEN);
  });

  it('survives a service whose name does not resolve (ENOTFOUND), with one line', async () => {
    await rig.platform.shutdown();
    rig = await boot('http://door-service.invalid');
    for (let i = 0; i < 3; i += 1) {
      await rig.poll();
    }
    expect(rig.errorLines()).toEqual([expect.stringMatching(/address not found in DNS, ENOTFOUND/) as unknown]);
    expect(rig.api.registered.size).toBe(0);
  });
});

describe('a bug of our own while applying a good sync', () => {
  it('is logged once as a bug with its stack, without the token, and is no outage: no back-off, doors stay readable', async () => {
    // A poisoned door: every update throws, as a bug in the accessory would, with the token in its message.
    const update = vi.spyOn(DoorAccessory.prototype, 'update').mockImplementation(() => {
      throw new TypeError(`cannot read the door (token ${TOKEN})`);
    });
    try {
      const waits: number[] = [];
      for (let i = 0; i < FAILING_POLLS; i += 1) {
        waits.push(await rig.poll());
        // Readable within the stale bound: past it, a door no update reached shows No Response as any stale door does.
        if (i === 0) expect(await rig.read(SAMPLE_FRONT_GATE_ID)).toBe(CurrentDoorState.CLOSED);
      }
      expect(update).toHaveBeenCalled();
      expect(rig.errorLines()).toHaveLength(1);
      expect(rig.errorLines()[0]).toMatch(
        /^A bug in the plugin while applying a sync .*TypeError: cannot read the door \(token \[redacted\]\)\n\s+at /s,
      );
      expect(JSON.stringify(rig.log.lines)).not.toContain(TOKEN);
      expect(rig.log.lines.some((l) => /could not be synced|Retrying with back-off/.test(l.text))).toBe(false);
      expect(waits.every((wait) => wait === POLL_INTERVAL_MS)).toBe(true);
      expect(rig.api.registered.size).toBe(3);
    } finally {
      update.mockRestore();
    }
    await rig.poll();
    expect(rig.log.lines.some((l) => l.text.startsWith('The account can be read again'))).toBe(false);
    expect(rig.errorLines()).toHaveLength(1);
  });
});

describe('a bug of our own quoting the webhook key (issue 44)', () => {
  const API_KEY = '3c9d41f0a7e25b86'.repeat(6);

  it('is logged without the key in any spelling: the platform gives its bug log both secrets', async () => {
    await rig.platform.shutdown();
    const { log, platform, poll } = bootPlatform({
      accessToken: TOKEN,
      baseUrl: sim.baseUrl,
      pollInterval: POLL_INTERVAL_MS / 1000,
      webhook: { port: await freePort(), host: '127.0.0.1', apiKey: API_KEY },
    });
    rig = { ...rig, platform };
    const update = vi.spyOn(DoorAccessory.prototype, 'update').mockImplementation(() => {
      throw new TypeError(`cannot read the door (key ${encodeURIComponent(`${API_KEY.slice(0, 48)}\u200b${API_KEY.slice(48)}`)})`);
    });
    try {
      await poll();
      expect(update).toHaveBeenCalled();
      const bugs = log.lines.filter((l) => l.text.startsWith('A bug in the plugin'));
      expect(bugs.map((l) => l.text)).toEqual([expect.stringContaining('TypeError: cannot read the door (key [redacted])')]);
      expect(secretLeaks(JSON.stringify(log.lines), API_KEY)).toEqual([]);
    } finally {
      update.mockRestore();
    }
  });
});

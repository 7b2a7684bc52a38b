// The poll pace follows the webhook listener: a connection the full listener refuses brings the user's poll interval
// back at once, and the next webhook applied brings back the safety-net interval.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import { SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import { fillPerClientCap } from '../support/busy-listener.js';
import type { BusyListener } from '../support/busy-listener.js';
import { ManualClock } from '../support/homebridge-double.js';
import { bootPlatform, shutDownAfterEach } from '../support/platform-rig.js';
import { simulatorPerTest } from '../support/simulator.js';

const TOKEN = 'pace-token-4a91';
const API_KEY = 'ef'.repeat(48);
const POLL_INTERVAL_S = 15;
const SAFETY_NET_S = 300;

let busy: BusyListener | undefined;

const startSimulator = simulatorPerTest();
const running = shutDownAfterEach();
// Registered after the shutdown, so it runs before it (vitest runs after-hooks last registered first): the busy
// connections close before the listener does.
afterEach(() => {
  busy?.close();
  busy = undefined;
});

/** The platform with its listener on a simulated clock, against a simulator of its own, and what the tests ask of them. */
async function bootListening() {
  const clock = new ManualClock();
  const service = await startSimulator({ accessToken: TOKEN, now: () => clock.now() });
  const port = await freePort();
  const { log, platform: booted } = bootPlatform(
    {
      accessToken: TOKEN,
      baseUrl: service.baseUrl,
      pollInterval: POLL_INTERVAL_S,
      webhook: { port, host: '127.0.0.1', apiKey: API_KEY, reconcileInterval: SAFETY_NET_S },
    },
    { clock },
  );
  running.push(booted);
  /** Syncs the service saw while `ms` of simulated time passed. */
  const syncsOver = async (ms: number): Promise<number> => {
    const before = service.countRequests('/endpoints/sync');
    let left = ms;
    for (let due = clock.nextDueInMs; due !== undefined && due <= left; due = clock.nextDueInMs) {
      clock.advance(due);
      left -= due;
      await booted.syncSettled();
    }
    clock.advance(left);
    return service.countRequests('/endpoints/sync') - before;
  };
  const webhook = async (): Promise<void> => {
    expect((await service.sendRawWebhook(service.buildWebhookEvent(SAMPLE_FRONT_GATE_ID))).status).toBe(200);
  };
  const texts = (level: string): string[] => log.lines.filter((l) => l.level === level).map((l) => l.text);
  return { service, port, syncsOver, webhook, texts };
}

describe('the poll pace and an outage of the service (issue 38)', () => {
  it('goes back to the normal interval, with its back-off, from the first failed sync: a service that is down sends no webhooks', async () => {
    const { service, port, syncsOver, webhook, texts } = await bootListening();
    await syncsOver(0);
    await vi.waitFor(() => expect(texts('info').some((t) => t.startsWith('Webhook listener on'))).toBe(true));
    service.setWebhook({ url: `http://127.0.0.1:${port}/`, apiKey: API_KEY });
    await webhook();
    expect(await syncsOver(4 * POLL_INTERVAL_S * 1000)).toBe(1);

    service.setOutage(true);
    // The first failed sync comes at the safety-net pace; the next at the poll interval (with jitter), not 300 s later:
    // two failed syncs in a row, and Home shows No Response.
    expect(await syncsOver((SAFETY_NET_S + 1.2 * POLL_INTERVAL_S) * 1000)).toBeGreaterThanOrEqual(2);
  });
});

describe('the poll pace and a full webhook listener', () => {
  it('polls at the normal interval from a refused connection until a webhook is applied, then at the safety-net interval again', async () => {
    const { service, port, syncsOver, webhook, texts } = await bootListening();

    await syncsOver(0);
    await vi.waitFor(() => expect(texts('info').some((t) => t.startsWith('Webhook listener on'))).toBe(true));
    const url = `http://127.0.0.1:${port}/`;
    service.setWebhook({ url, apiKey: API_KEY });
    await webhook();
    // The sync already due at the poll interval, then only the safety net.
    expect(await syncsOver(4 * POLL_INTERVAL_S * 1000)).toBe(1);
    expect(await syncsOver(2 * 60_000)).toBe(0);

    // Every connection one client may hold is busy with a request: its next one is refused, and may have been a webhook.
    busy = await fillPerClientCap(url, API_KEY, '127.0.0.2');
    expect(await busy.refused()).toBe('');
    expect(texts('warn')).toEqual([
      expect.stringMatching(
        /^The webhook listener is full .* so it refused a new connection from 127\.0\.0\.2 unanswered; any webhook on it is lost, so the plugin polls every 15 s until webhooks arrive again\./,
      ) as string,
    ]);
    // Before the fix the next sync stayed up to 300 s away.
    expect(await syncsOver(4 * POLL_INTERVAL_S * 1000)).toBe(4);
    busy.close();

    await webhook();
    expect(texts('info')).toContain(
      'Webhooks arrive again after the full listener refused connections; the plugin polls every 300 s again, as a safety net.',
    );
    expect(await syncsOver(4 * POLL_INTERVAL_S * 1000)).toBe(1);
    expect(await syncsOver(2 * 60_000)).toBe(0);
  });
});

// RealtimeUpdates with its listener started: a change polling found that no webhook confirms leads to one warning and full-pace polling.
import { afterEach, describe, expect, it } from 'vitest';

import type { RealtimeDoor } from '../../../src/sync/realtime-door.js';
import type { RealtimeUpdates } from '../../../src/sync/realtime.js';
import { WEBHOOK_MISS_GRACE_MS, WEBHOOK_MISS_WARN_INTERVAL_MS, WEBHOOK_TEST_EVENT_TYPE } from '../../../src/settings.js';
import type { WebhookEvent } from '../../../src/webhook/event.js';
import { fillPerClientCap } from '../../support/busy-listener.js';
import type { BusyListener } from '../../support/busy-listener.js';
import { startRealtime, webhookEvent } from '../../support/realtime-harness.js';

async function setup() {
  const clock = { now: 0 };
  const applied: string[] = [];
  const door: RealtimeDoor = {
    name: 'Front Gate',
    applyEvent: (state) => {
      applied.push(state);
      return 'changed';
    },
  };
  // A listener that started: only then do polls expect webhooks.
  const { realtime, log } = await startRealtime({ findDoor: () => door, now: () => clock.now });
  running.push(realtime);
  const warnings = (): string[] => log.texts('warn');
  const deliver = (event: Partial<WebhookEvent>): void => realtime.apply(webhookEvent(event));
  return { clock, warnings, applied, door, realtime, deliver };
}

const running: RealtimeUpdates[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((realtime) => realtime.stop()));
});

describe('RealtimeUpdates', () => {
  it('counts webhooks as flowing once an authenticated event arrived', async () => {
    const t = await setup();
    expect(t.realtime.flowing).toBe(false);
    t.deliver({ id: 'a' });
    expect(t.realtime.flowing).toBe(true);
  });

  it("takes the settings page's test event as a test: no door moves and polling keeps its pace", async () => {
    const t = await setup();
    t.deliver({ id: 'settings-page-test-1', eventType: WEBHOOK_TEST_EVENT_TYPE, kind: 'unknown', doorState: undefined });
    expect(t.applied).toEqual([]);
    expect(t.realtime.flowing).toBe(false);
  });

  it('applies an event id once', async () => {
    const t = await setup();
    t.deliver({ id: 'same' });
    t.deliver({ id: 'same' });
    expect(t.applied).toEqual(['OPEN']);
  });

  it('warns once when a change found by polling is never confirmed, and stops trusting webhooks', async () => {
    const t = await setup();
    t.deliver({ id: 'first' });
    t.realtime.notePolled(t.door, 'changed');
    t.clock.now = WEBHOOK_MISS_GRACE_MS - 1;
    t.realtime.checkMissed();
    expect(t.warnings()).toEqual([]);
    t.clock.now = WEBHOOK_MISS_GRACE_MS;
    t.realtime.checkMissed();
    expect(t.warnings()).toHaveLength(1);
    expect(t.warnings()[0]).toMatch(/Webhooks seem not to reach Homebridge: polling found Front Gate changed/);
    expect(t.realtime.flowing).toBe(false);
    // A second miss soon after is not repeated in the log.
    t.realtime.notePolled(t.door, 'changed');
    t.clock.now += WEBHOOK_MISS_GRACE_MS;
    t.realtime.checkMissed();
    expect(t.warnings()).toHaveLength(1);
    t.realtime.notePolled(t.door, 'changed');
    t.clock.now += WEBHOOK_MISS_WARN_INTERVAL_MS;
    t.realtime.checkMissed();
    expect(t.warnings()).toHaveLength(2);
  });

  it('is satisfied when the webhook comes late', async () => {
    const t = await setup();
    t.realtime.notePolled(t.door, 'changed');
    t.deliver({ id: 'late' });
    t.clock.now = 10 * WEBHOOK_MISS_GRACE_MS;
    t.realtime.checkMissed();
    expect(t.warnings()).toEqual([]);
  });
});

describe('RealtimeUpdates when the full listener refuses a connection', () => {
  let busy: BusyListener | undefined;
  afterEach(() => {
    busy?.close();
    busy = undefined;
  });

  it('stops trusting webhooks until one is applied again, asks for normal-pace polling once, and says both in the log', async () => {
    let atRisk = 0;
    const door: RealtimeDoor = { name: 'Front Gate', applyEvent: () => 'changed' };
    const { realtime, log, url } = await startRealtime({
      findDoor: () => door,
      now: () => 0,
      polling: { pollIntervals: { normalS: 15, safetyNetS: 300 }, onWebhooksAtRisk: () => (atRisk += 1) },
    });
    running.push(realtime);
    realtime.apply(webhookEvent({ id: 'before' }));
    expect(realtime.flowing).toBe(true);

    busy = await fillPerClientCap(url, 'a'.repeat(96), '127.0.0.2');
    expect(await busy.refused()).toBe('');
    expect(realtime.flowing).toBe(false);
    expect(atRisk).toBe(1);
    const warnings = log.texts('warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^The webhook listener is full \(its limit of 64 connections from 127\.0\.0\.2, each busy with a request or opened in the last 2 s\), so it refused a new connection from 127\.0\.0\.2 unanswered; any webhook on it is lost, so the plugin polls every 15 s until webhooks arrive again\./,
    );
    expect(warnings[0]).not.toMatch(/HomeKit is not affected/);
    // More refusals before a webhook comes: the loop is not hurried again.
    expect(await busy.refused()).toBe('');
    expect(atRisk).toBe(1);

    realtime.apply(webhookEvent({ id: 'after' }));
    expect(realtime.flowing).toBe(true);
    expect(log.texts('info').filter((text) => text.startsWith('Webhooks arrive again'))).toEqual([
      'Webhooks arrive again after the full listener refused connections; the plugin polls every 300 s again, as a safety net.',
    ]);
    realtime.apply(webhookEvent({ id: 'later' }));
    expect(log.texts('info').filter((text) => text.startsWith('Webhooks arrive again'))).toHaveLength(1);
  });
});

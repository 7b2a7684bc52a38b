// RealtimeUpdates with its listener started: a change polling found that no webhook confirms leads to one warning and full-pace polling.
import { afterEach, describe, expect, it } from 'vitest';

import type { RealtimeDoor, RealtimeUpdates } from '../../../src/webhook/realtime.js';
import { WEBHOOK_MISS_GRACE_MS, WEBHOOK_MISS_WARN_INTERVAL_MS, WEBHOOK_TEST_EVENT_TYPE } from '../../../src/settings.js';
import type { WebhookEvent } from '../../../src/webhook/event.js';
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

  it('takes the settings page\'s test event as a test: no door moves and polling keeps its pace', async () => {
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

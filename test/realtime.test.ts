// RealtimeUpdates without a listener: a change polling found that no webhook confirms leads to one warning and full-pace polling.
import type { Logging } from 'homebridge';
import { describe, expect, it } from 'vitest';

import type { GarageDoorAccessory } from '../src/accessories/garage-door.js';
import { RealtimeUpdates } from '../src/realtime.js';
import { WEBHOOK_MISS_GRACE_MS, WEBHOOK_MISS_WARN_INTERVAL_MS, WEBHOOK_TEST_EVENT_TYPE } from '../src/settings.js';
import type { WebhookEvent } from '../src/webhook/event.js';

function setup() {
  const clock = { now: 0 };
  const warnings: string[] = [];
  const log = { warn: (m: string) => warnings.push(m), info: () => undefined, debug: () => undefined, error: () => undefined } as unknown as Logging;
  const applied: string[] = [];
  const door = {
    name: 'Front Gate',
    applyEvent: (state: string) => {
      applied.push(state);
      return 'changed';
    },
  } as unknown as GarageDoorAccessory;
  const realtime = new RealtimeUpdates({
    log,
    config: { port: 1, apiKey: 'a'.repeat(96), headerName: 'X-Service-API-Key', reconcileInterval: 300 },
    findDoor: () => door,
    now: () => clock.now,
  });
  // Stand in for a listener that started: only then do polls expect webhooks.
  (realtime as unknown as { receiver: object }).receiver = {};
  const deliver = (event: Partial<WebhookEvent>) =>
    (realtime as unknown as { apply(e: WebhookEvent): void }).apply({ kind: 'door-state', doorState: 'OPEN', summary: '', ...event } as WebhookEvent);
  return { clock, warnings, applied, door, realtime, deliver };
}

describe('RealtimeUpdates', () => {
  it('counts webhooks as flowing once an authenticated event arrived', () => {
    const t = setup();
    expect(t.realtime.flowing).toBe(false);
    t.deliver({ id: 'a' });
    expect(t.realtime.flowing).toBe(true);
  });

  it('takes the settings page\'s test event as a test: no door moves and polling keeps its pace', () => {
    const t = setup();
    t.deliver({ id: 'settings-page-test-1', eventType: WEBHOOK_TEST_EVENT_TYPE, kind: 'unknown', doorState: undefined });
    expect(t.applied).toEqual([]);
    expect(t.realtime.flowing).toBe(false);
  });

  it('applies an event id once', () => {
    const t = setup();
    t.deliver({ id: 'same' });
    t.deliver({ id: 'same' });
    expect(t.applied).toEqual(['OPEN']);
  });

  it('warns once when a change found by polling is never confirmed, and stops trusting webhooks', () => {
    const t = setup();
    t.deliver({ id: 'first' });
    t.realtime.notePolled(t.door, 'changed');
    t.clock.now = WEBHOOK_MISS_GRACE_MS - 1;
    t.realtime.checkMissed();
    expect(t.warnings).toEqual([]);
    t.clock.now = WEBHOOK_MISS_GRACE_MS;
    t.realtime.checkMissed();
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings[0]).toMatch(/Webhooks seem not to reach Homebridge: polling found Front Gate changed/);
    expect(t.realtime.flowing).toBe(false);
    // A second miss soon after is not repeated in the log.
    t.realtime.notePolled(t.door, 'changed');
    t.clock.now += WEBHOOK_MISS_GRACE_MS;
    t.realtime.checkMissed();
    expect(t.warnings).toHaveLength(1);
    t.realtime.notePolled(t.door, 'changed');
    t.clock.now += WEBHOOK_MISS_WARN_INTERVAL_MS;
    t.realtime.checkMissed();
    expect(t.warnings).toHaveLength(2);
  });

  it('is satisfied when the webhook comes late', () => {
    const t = setup();
    t.realtime.notePolled(t.door, 'changed');
    t.deliver({ id: 'late' });
    t.clock.now = 10 * WEBHOOK_MISS_GRACE_MS;
    t.realtime.checkMissed();
    expect(t.warnings).toEqual([]);
  });
});

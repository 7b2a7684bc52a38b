// RealtimeUpdates and enforcer events: one line with who and where, the named doors' access alerts, never a door moved.
import { describe, expect, it } from 'vitest';

import { RealtimeUpdates } from '../../../src/sync/realtime.js';
import type { RealtimeDoor } from '../../../src/sync/realtime-door.js';
import { parseWebhookEvent } from '../../../src/webhook/event.js';
import { ACCESS_ALERT_LOG_PLACES_MAX, ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS } from '../../../src/settings.js';
import { ManualClock } from '../../support/homebridge-double.js';
import { captureLog } from '../../support/log.js';

interface TestDoor extends RealtimeDoor {
  id: string;
  deviceId: string;
  alerts: number;
  applied: number;
}

function door(id: string, deviceId: string, name: string, alertOn: boolean): TestDoor {
  const d: TestDoor = {
    id,
    deviceId,
    name,
    alerts: 0,
    applied: 0,
    applyEvent: () => {
      d.applied += 1;
      return 'changed';
    },
    alertAccess: () => {
      if (alertOn) d.alerts += 1;
      return alertOn;
    },
  };
  return d;
}

function setup(clock = new ManualClock()) {
  const doors = [
    door('d1', 'c1', 'Front Gate', true),
    door('d2', 'c1', 'Garage Door', false),
    door('d3', 'c1', 'Back Gate', true),
    door('d4', 'c2', 'Shed', false),
  ];
  const log = captureLog();
  const realtime = new RealtimeUpdates({
    log,
    config: { port: 0, host: '127.0.0.1', apiKey: 'a'.repeat(96), headerName: 'X-Service-API-Key', reconcileInterval: 300 },
    findDoor: (event) => doors.find((d) => d.id === event.doorId),
    // As the platform does: the door named, else every door of the controller named.
    alertDoors: (event) =>
      event.doorId !== undefined
        ? doors.filter((d) => d.id === event.doorId)
        : doors.filter((d) => event.deviceId !== undefined && d.deviceId === event.deviceId),
    now: () => clock.now(),
    clock,
  });
  const send = (body: Record<string, unknown>): void => {
    const event = parseWebhookEvent({ eventType: 'enforcer_unauthorized_user', ...body });
    if ('error' in event) throw new Error(event.error);
    realtime.apply(event);
  };
  const alerts = (): Record<string, number> => Object.fromEntries(doors.map((d) => [d.name, d.alerts]));
  return { doors, log, realtime, send, alerts, clock };
}

describe('enforcer webhooks', () => {
  it('alert the door they name, with one info line saying who and where, and move nothing', () => {
    const t = setup();
    t.send({
      id: 'e1',
      doorID: 'd1',
      deviceID: 'c1',
      doorState: 'OPEN',
      userThatToggled: { firstName: 'Mallory', lastName: 'Doe' },
      channel: 'Keypad',
    });
    expect(t.alerts()).toEqual({ 'Front Gate': 1, 'Garage Door': 0, 'Back Gate': 0, Shed: 0 });
    expect(t.log.lines).toEqual([
      {
        level: 'info',
        text: 'Webhook: enforcer_unauthorized_user: OPEN by Mallory Doe (Keypad) at Front Gate; access alert detecting for Front Gate.',
      },
    ]);
    // Not a door-state event: no door applies it, even with a doorState in the body.
    expect(t.doors.map((d) => d.applied)).toEqual([0, 0, 0, 0]);
  });

  it('naming only a controller, alert every door of it that has the alert on', () => {
    const t = setup();
    t.send({ eventType: 'unauthorized_vehicle', deviceID: 'c1', vehicle: { licensePlate: 'KX-482-PD' } });
    expect(t.alerts()).toEqual({ 'Front Gate': 1, 'Garage Door': 0, 'Back Gate': 1, Shed: 0 });
    expect(t.log.texts('info')).toEqual([
      'Webhook: unauthorized_vehicle: vehicle KX-482-PD at Front Gate; Garage Door; Back Gate; access alert detecting for Front Gate; Back Gate.',
    ]);
    expect(t.log.texts('debug')).toEqual([]);
  });

  it('that no alert can show keep their info line and say why at debug, never as a warning or an error', () => {
    const t = setup();
    t.send({ id: 'a', doorID: 'd2' });
    t.send({ id: 'b', doorID: 'unknown-door', deviceID: 'c1' });
    t.send({ id: 'c', deviceID: 'unknown-controller' });
    t.send({ id: 'd', deviceID: 'c2' });
    t.send({ id: 'e' });
    expect(t.alerts()).toEqual({ 'Front Gate': 0, 'Garage Door': 0, 'Back Gate': 0, Shed: 0 });
    expect(t.log.texts('debug')).toEqual([
      'No access alert shows this event: the access alert is off for Garage Door.',
      // A door id this bridge does not show is not widened to its controller: that would alert the wrong doors.
      'No access alert shows this event: this bridge shows no door unknown-door.',
      'No access alert shows this event: this bridge shows no door of controller unknown-controller.',
      'No access alert shows this event: the access alert is off for Shed.',
      'No access alert shows this event: it names no door or controller.',
    ]);
    expect(t.log.texts('info')).toHaveLength(5);
    expect([...t.log.texts('warn'), ...t.log.texts('error')]).toEqual([]);
  });

  it('alert once for an event id sent twice', () => {
    const t = setup();
    t.send({ id: 'same', doorID: 'd1' });
    t.send({ id: 'same', doorID: 'd1' });
    expect(t.alerts()['Front Gate']).toBe(1);
  });
});

describe('a flood of enforcer events', () => {
  const SUMMARY = /^(\d+) more unauthorized-access events? at Front Gate in the last minute\.$/;
  const EVENTS = 2_000;
  const GAP_MS = 300;

  it('logs the first in full, then one count per minute, while every event still sets off the access alert', () => {
    const t = setup();
    for (let i = 0; i < EVENTS; i += 1) {
      t.send({ id: `flood-${i}`, doorID: 'd1', userThatToggled: { firstName: 'Mallory' } });
      t.clock.advance(GAP_MS);
    }
    // The last window ends after the flood: its count comes at its end, not at some later event.
    t.clock.advance(ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS);
    expect(t.alerts()['Front Gate']).toBe(EVENTS);
    const info = t.log.texts('info');
    expect(info[0]).toBe('Webhook: enforcer_unauthorized_user by Mallory at Front Gate; access alert detecting for Front Gate.');
    const summaries = info.slice(1);
    const minutes = Math.ceil((EVENTS * GAP_MS) / ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS);
    expect(summaries).toHaveLength(minutes);
    const counted = summaries.map((line) => Number(SUMMARY.exec(line)?.[1]));
    expect(counted.every((n) => n > 0)).toBe(true);
    expect(counted.reduce((a, b) => a + b, 0)).toBe(EVENTS - 1);
    expect([...t.log.texts('warn'), ...t.log.texts('error')]).toEqual([]);
    // Nothing is left waiting once the counts are out.
    expect(t.clock.nextDueInMs).toBeUndefined();
  });

  it('logs an event in full again after a quiet minute, and counts each door apart', () => {
    const t = setup();
    t.send({ id: 'a1', doorID: 'd1' });
    t.send({ id: 'a2', doorID: 'd1' });
    t.send({ id: 'b1', doorID: 'd3' });
    t.clock.advance(ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS);
    t.clock.advance(ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS);
    t.send({ id: 'a3', doorID: 'd1' });
    expect(t.log.texts('info')).toEqual([
      'Webhook: enforcer_unauthorized_user at Front Gate; access alert detecting for Front Gate.',
      'Webhook: enforcer_unauthorized_user at Back Gate; access alert detecting for Back Gate.',
      '1 more unauthorized-access event at Front Gate in the last minute.',
      'Webhook: enforcer_unauthorized_user at Front Gate; access alert detecting for Front Gate.',
    ]);
    expect(t.alerts()).toEqual({ 'Front Gate': 3, 'Garage Door': 0, 'Back Gate': 1, Shed: 0 });
  });

  it('leaves no count waiting once the listener stops', async () => {
    const t = setup();
    t.send({ id: 'a1', doorID: 'd1' });
    t.send({ id: 'a2', doorID: 'd1' });
    await t.realtime.stop();
    expect(t.clock.nextDueInMs).toBeUndefined();
  });

  it('change nothing once the plugin stops: an event handed over late sets off no alert, moves no door, logs no line', async () => {
    const t = setup();
    await t.realtime.stop();
    t.send({ id: 'late-1', doorID: 'd1' });
    const late = parseWebhookEvent({ id: 'late-2', eventType: 'door_state_change', doorID: 'd1', doorState: 'OPEN' });
    if ('error' in late) throw new Error(late.error);
    t.realtime.apply(late);
    expect(t.alerts()['Front Gate']).toBe(0);
    expect(t.doors[0]?.applied).toBe(0);
    expect(t.log.lines.filter((line) => line.level !== 'debug')).toEqual([]);
    expect(t.clock.nextDueInMs).toBeUndefined();
  });

  it('counts a flood at a door this bridge does not show apart, saying so, and past the cap of places in one count', () => {
    const t = setup();
    t.send({ id: 'u1', doorID: 'unknown-door' });
    t.send({ id: 'u2', doorID: 'unknown-door' });
    t.send({ id: 'u3', doorID: 'unknown-door' });
    for (let i = 0; i < ACCESS_ALERT_LOG_PLACES_MAX + 10; i += 1) {
      t.send({ id: `many-${i}`, doorID: `unknown-${i}` });
    }
    t.clock.advance(ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS);
    const info = t.log.texts('info');
    expect(info).toContain(
      '2 more unauthorized-access events that no access alert shows (this bridge shows no door unknown-door) in the last minute.',
    );
    // Each new place within the cap has its line; the places past it share one: its first line, then one count.
    expect(info.filter((line) => line.startsWith('Webhook: '))).toHaveLength(ACCESS_ALERT_LOG_PLACES_MAX + 1);
    expect(info.at(-1)).toBe('10 more unauthorized-access events in the last minute.');
    expect(t.clock.nextDueInMs).toBeUndefined();
  });
});

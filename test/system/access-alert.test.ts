// Access alerts through the whole platform on the Homebridge double: the simulator posts enforcer webhooks to the real
// listener, the opted-in doors' motion sensors detect for their time on a simulated clock, and no door ever moves.
import * as hap from 'hap-nodejs';
import { describe, expect, it, vi } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import { ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS } from '../../src/settings.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import {
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
  SAMPLE_SHARED_DEVICE_ID,
  SAMPLE_SHARED_GATE_ID,
} from '../../dev/simulator/server.js';
import { ManualClock } from '../support/homebridge-double.js';
import { bootPlatform, shutDownAfterEach } from '../support/platform-rig.js';
import { simulatorPerTest } from '../support/simulator.js';

const { Characteristic: C, Service: S } = hap;
const TOKEN = 'alert-token-5e1d';
const API_KEY = 'ab'.repeat(48);
const DURATION_S = 20;

let sim: AccessControlSimulator | undefined;

const startSimulator = simulatorPerTest();
const running = shutDownAfterEach();

async function boot(options: Record<string, unknown>) {
  const clock = new ManualClock();
  const port = await freePort();
  sim = await startSimulator({ accessToken: TOKEN, travelTimeMs: 20 });
  const {
    api,
    log,
    platform: booted,
  } = bootPlatform(
    { accessToken: TOKEN, baseUrl: sim.baseUrl, pollInterval: 15, webhook: { port, host: '127.0.0.1', apiKey: API_KEY }, ...options },
    { clock },
  );
  running.push(booted);
  const wait = async (ms: number): Promise<void> => {
    clock.advance(ms);
    await booted.syncSettled();
  };
  await wait(0);
  const texts = (level: string): string[] => log.lines.filter((l) => l.level === level).map((l) => l.text);
  // The listener waits for the first sync when Homebridge's config cannot be read (as in this double).
  await vi.waitFor(() => expect(texts('info').some((t) => t.startsWith('Webhook listener on'))).toBe(true));
  sim.setWebhook({ url: `http://127.0.0.1:${port}/`, apiKey: API_KEY });
  const accessory = (doorId: string) => api.accessory(doorId);
  const alert = (doorId: string) => accessory(doorId)?.getServiceById(S.MotionSensor, 'access-alert');
  const detected = (doorId: string): unknown => alert(doorId)?.getCharacteristic(C.MotionDetected).value;
  const lines = (): number => log.lines.length;
  /** Sends the event as the service would, and waits until the plugin has logged it. */
  const send = async (event: Record<string, unknown>): Promise<void> => {
    const before = lines();
    expect((await sim?.sendRawWebhook(event))?.status).toBe(200);
    await vi.waitFor(() => expect(log.lines.slice(before).some((l) => l.text.startsWith('Webhook: '))).toBe(true));
  };
  return { sim, api, log, texts, wait, alert, detected, send, accessory };
}

const toggles = (): number => sim?.countRequests('/endpoint/toggle') ?? 0;

describe('access alerts', () => {
  it('detect at the door an unauthorized user is at, for the configured time, and clear; the door never moves', async () => {
    const rig = await boot({ doors: [{ id: SAMPLE_FRONT_GATE_ID, accessAlert: true }], accessAlertDuration: DURATION_S });
    expect(rig.alert(SAMPLE_FRONT_GATE_ID)?.displayName).toBe('Front Gate Access Alert');
    expect(rig.alert(SAMPLE_GARAGE_DOOR_ID)).toBeUndefined();
    expect(rig.detected(SAMPLE_FRONT_GATE_ID)).toBe(false);

    await rig.send(rig.sim.buildEnforcerEvent('unauthorized-user', { doorId: SAMPLE_FRONT_GATE_ID }));
    expect(rig.detected(SAMPLE_FRONT_GATE_ID)).toBe(true);
    expect(rig.texts('info')).toContain(
      'Webhook: enforcer_unauthorized_user by Mallory Doe (mallory@example.com) (Keypad) at Front Gate; access alert detecting for Front Gate.',
    );
    await rig.wait(DURATION_S * 1000 - 1);
    expect(rig.detected(SAMPLE_FRONT_GATE_ID)).toBe(true);
    await rig.wait(1);
    expect(rig.detected(SAMPLE_FRONT_GATE_ID)).toBe(false);

    expect(toggles()).toBe(0);
    expect(rig.api.characteristic(SAMPLE_FRONT_GATE_ID, C.CurrentDoorState).value).toBe(C.CurrentDoorState.CLOSED);
    expect([...rig.texts('warn'), ...rig.texts('error')]).toEqual([]);
  });

  it('detect at every opted-in door of a controller an event names alone (a vehicle at the plate reader)', async () => {
    const rig = await boot({ accessAlert: true, doors: [{ id: SAMPLE_GARAGE_DOOR_ID, accessAlert: false }] });
    await rig.send(rig.sim.buildEnforcerEvent('unauthorized-vehicle', { deviceId: SAMPLE_OWNED_DEVICE_ID }));
    expect(rig.detected(SAMPLE_FRONT_GATE_ID)).toBe(true);
    expect(rig.alert(SAMPLE_GARAGE_DOOR_ID)).toBeUndefined();
    expect(rig.detected(SAMPLE_SHARED_GATE_ID)).toBe(false);
    expect(rig.texts('info')).toContain(
      'Webhook: enforcer_unauthorized_vehicle: vehicle KX-482-PD (white Ford Transit) (Plate Reader) at Front Gate; Garage Door; access alert detecting for Front Gate.',
    );
    expect(toggles()).toBe(0);
  });

  it('count an event no alert can show as one debug line beside its info line, never a warning or an error', async () => {
    const rig = await boot({ doors: [{ id: SAMPLE_FRONT_GATE_ID, accessAlert: true }] });
    await rig.send(rig.sim.buildEnforcerEvent('unauthorized-user', { doorId: SAMPLE_SHARED_GATE_ID }));
    // A second event at the same door within the window would be counted, not logged in full.
    await rig.wait(ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS);
    await rig.send(rig.sim.buildEnforcerEvent('unauthorized-vehicle', { deviceId: SAMPLE_SHARED_DEVICE_ID }));
    await rig.send({ id: 'nowhere', eventType: 'unauthorized_access', doorID: '00000000-0000-0000-0000-00000000dead' });
    await rig.send({ id: 'no-ids', eventType: 'unauthorized_access' });
    expect(rig.texts('debug').filter((t) => t.startsWith('No access alert shows this event'))).toEqual([
      'No access alert shows this event: the access alert is off for Shared Gate.',
      'No access alert shows this event: the access alert is off for Shared Gate.',
      'No access alert shows this event: this bridge shows no door 00000000-0000-0000-0000-00000000dead.',
      'No access alert shows this event: it names no door or controller.',
    ]);
    expect(rig.detected(SAMPLE_FRONT_GATE_ID)).toBe(false);
    expect([...rig.texts('warn'), ...rig.texts('error')]).toEqual([]);
  });

  it('say at start, once, that they cannot detect without webhooks', async () => {
    const clock = new ManualClock();
    sim = await startSimulator({ accessToken: TOKEN });
    const { log, platform: booted } = bootPlatform(
      { accessToken: TOKEN, baseUrl: sim.baseUrl, doors: [{ id: SAMPLE_FRONT_GATE_ID, accessAlert: true }] },
      { clock },
    );
    running.push(booted);
    clock.advance(0);
    await booted.syncSettled();
    expect(log.texts('warn')).toEqual([
      'The access alert is on, but webhooks are off, so it can never detect: the service reports unauthorized users and vehicles only by webhook. Turn on "Receive webhooks".',
    ]);
  });

  it('are not there unless asked for', async () => {
    const rig = await boot({});
    for (const doorId of [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID]) {
      expect(rig.accessory(doorId)?.getService(S.MotionSensor)).toBeUndefined();
    }
  });
});

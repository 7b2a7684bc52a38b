// Webhooks end to end: the simulator posts to the listener of a real Homebridge, and a HomeKit controller sees the result
// (the doors, the access alert and the person sensors).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, removeStorageDir, startHomebridge } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import {
  AccessControlSimulator,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
  SAMPLE_PEOPLE,
  SAMPLE_SHARED_GATE_ID,
} from '../../dev/simulator/server.js';
import { hasValue, pairController } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, HAP_STATUS } from '../../dev/harness/hap-types.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import { tearDown } from './teardown.js';
import { makeSelfSignedCertificate } from '../support/certificates.js';

const TOKEN = 'webhook-e2e-token-41aa';
const API_KEY = 'c0ffee'.repeat(16);
/** Far longer than any wait below: a state that changes within a wait came by webhook, not by a poll. */
const POLL_INTERVAL_S = 300;
/** A webhook reaches HomeKit in milliseconds; this only absorbs a busy machine. */
const REALTIME_WAIT_MS = 5_000;
const BOOT_WAIT_MS = 20_000;
/** The access alert's time in this test: short, since a real Homebridge runs on real time. */
const ACCESS_ALERT_S = 2;
/** The person sensors' time in this test: short, since a real Homebridge runs on real time. */
const PERSON_SENSOR_S = 2;
/**
 * Garage Door has an access alert (a motion sensor); the other doors have none. Grace (by e-mail) and Alan (by name)
 * have person sensors; the account's user, whom the other tests' moves name, has none.
 */
const BRIDGE_OPTIONS = {
  accessAlertDuration: ACCESS_ALERT_S,
  doors: [{ id: SAMPLE_GARAGE_DOOR_ID, accessAlert: true }],
  personSensorDuration: PERSON_SENSOR_S,
  people: [
    { name: 'Grace', user: 'grace@example.com' },
    { name: 'Alan', user: 'Alan Turing' },
  ],
};

function webhookPlatform(
  baseUrl: string,
  webhook: Record<string, unknown>,
  options: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    ...options,
    platform: 'AccessControl',
    name: 'Access Control',
    accessToken: TOKEN,
    baseUrl,
    pollInterval: POLL_INTERVAL_S,
    webhook: { host: '127.0.0.1', apiKey: API_KEY, ...webhook },
  };
}

describe('webhooks over plain HTTP (behind a TLS proxy or tunnel)', () => {
  let sim: AccessControlSimulator;
  let hb: HomebridgeProcess;
  let controller: HomeKitController;
  let webhookPort: number;

  const userLines = (re: RegExp): string[] =>
    hb
      .log()
      .split('\n')
      .filter((line) => re.test(line) && !line.includes('Still failing'));
  const currentOf = (doorId: string) => controller.findCharacteristic(doorId, 'GarageDoorOpener', 'CurrentDoorState');

  beforeAll(async () => {
    webhookPort = await freePort();
    sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: 500 });
    await sim.start();
    sim.setWebhook({ url: `http://127.0.0.1:${webhookPort}/hooks/access`, apiKey: API_KEY });
    hb = await startHomebridge({ platforms: [webhookPlatform(sim.baseUrl, { port: webhookPort }, BRIDGE_OPTIONS)] });
    await hb.waitForLog(/Webhook listener on/, BOOT_WAIT_MS);
    controller = await pairController(hb);
    await controller.waitForAccessory(SAMPLE_SHARED_GATE_ID, BOOT_WAIT_MS);
  });

  afterAll(() => tearDown({ controllers: [controller], hb, sim }));

  it('shows a door moved outside HomeKit within moments, with who moved it', async () => {
    const syncsBefore = sim.countRequests('/endpoints/sync');
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { channel: 'Keypad' });
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), await currentOf(SAMPLE_FRONT_GATE_ID), REALTIME_WAIT_MS);
    expect(sim.countRequests('/endpoints/sync')).toBe(syncsBefore);
    await hb.waitForLog(/Front Gate is now open \(Ada Lovelace, Keypad\)/, REALTIME_WAIT_MS);
    expect(sim.webhookDeliveries.at(-1)?.status).toBe(200);
  });

  it('refuses a wrong or missing key with 401 and applies nothing', async () => {
    const event = sim.buildWebhookEvent(SAMPLE_GARAGE_DOOR_ID, { doorState: 'OPEN' });
    const wrong = await sim.sendRawWebhook(event, { 'X-Service-API-Key': 'f'.repeat(96) });
    const missing = await sim.sendRawWebhook(event, { 'X-Service-API-Key': null });
    expect([wrong.status, missing.status]).toEqual([401, 401]);
    expect(JSON.parse(wrong.body)).toHaveProperty('message');
    expect(await controller.read(await currentOf(SAMPLE_GARAGE_DOOR_ID))).toBe(CURRENT_DOOR_STATE.CLOSED);
    expect(hb.log()).not.toContain('f'.repeat(96));
  });

  it('answers malformed and oversized bodies with 400 and 413', async () => {
    expect((await sim.sendRawWebhook('{"eventType": "door_state_change",')).status).toBe(400);
    expect((await sim.sendRawWebhook('[1, 2, 3]')).status).toBe(400);
    const huge = { eventType: 'door_state_change', padding: 'x'.repeat(100 * 1024) };
    expect((await sim.sendRawWebhook(huge)).status).toBe(413);
    expect(hb.exited).toBeUndefined();
  });

  it('never rolls a door back for an event older than what it shows, and applies a repeated event once', async () => {
    const current = await currentOf(SAMPLE_GARAGE_DOOR_ID);
    const nowS = Math.floor(Date.now() / 1000);
    const open = sim.buildWebhookEvent(SAMPLE_GARAGE_DOOR_ID, { doorState: 'OPEN', eventOccurred: nowS, channel: 'Remote' });
    const olderClose = sim.buildWebhookEvent(SAMPLE_GARAGE_DOOR_ID, { doorState: 'CLOSED', eventOccurred: nowS - 600, channel: 'Remote' });
    expect((await sim.sendRawWebhook(open)).status).toBe(200);
    expect((await sim.sendRawWebhook(open)).status).toBe(200);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, REALTIME_WAIT_MS);
    expect((await sim.sendRawWebhook(olderClose)).status).toBe(200);
    await hb.waitForLog(/Webhook older than the state Garage Door shows; ignored/, REALTIME_WAIT_MS);
    expect(await controller.read(current)).toBe(CURRENT_DOOR_STATE.OPEN);
    await hb.waitForLog(/came again; applied once/, REALTIME_WAIT_MS);
    expect(userLines(/Garage Door is now open/)).toHaveLength(1);
    // Webhooks only ever show what happened; none of them, repeated or late, makes the plugin move a door.
    expect(sim.countRequests('/endpoint/toggle')).toBe(0);
  });

  it('understands door-numbered events and the other field spelling', async () => {
    const event = {
      id: 'numbered-1',
      eventType: 'door1_close',
      deviceId: SAMPLE_OWNED_DEVICE_ID,
      eventOccurred: Math.floor(Date.now() / 1000) + 1,
      channel: 'Remote',
    };
    expect((await sim.sendRawWebhook(event)).status).toBe(200);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), await currentOf(SAMPLE_FRONT_GATE_ID), REALTIME_WAIT_MS);
  });

  it('answers 200 to an unknown door or event type, logs who did what, and carries on', async () => {
    const unknownDoor = sim.buildWebhookEvent(SAMPLE_SHARED_GATE_ID, { doorID: '00000000-0000-0000-0000-00000000dead' });
    expect((await sim.sendRawWebhook(unknownDoor)).status).toBe(200);
    const management = {
      id: 'mgmt-1',
      eventType: 'user_added',
      channel: 'Web Portal',
      userThatToggled: { firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@example.com' },
    };
    expect((await sim.sendRawWebhook(management)).status).toBe(200);
    await hb.waitForLog(/Webhook: .*user_added.*Grace Hopper/, REALTIME_WAIT_MS);
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { channel: 'Keypad' });
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), await currentOf(SAMPLE_SHARED_GATE_ID), REALTIME_WAIT_MS);
  });

  it('turns an enforcer event at a door with an access alert into motion for a short time, and moves nothing', async () => {
    const motion = await controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'MotionSensor', 'MotionDetected');
    await expect(controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'MotionSensor', 'MotionDetected')).rejects.toThrow();
    expect(await controller.read(motion)).toSatisfy((value) => value === false || value === 0);
    const garage = await controller.read(await currentOf(SAMPLE_GARAGE_DOOR_ID));
    const toggles = sim.countRequests('/endpoint/toggle');
    sim.sendEnforcerEvent('unauthorized-user', { doorId: SAMPLE_GARAGE_DOOR_ID });
    await controller.waitFor(hasValue(true), motion, REALTIME_WAIT_MS);
    await hb.waitForLog(
      /Webhook: enforcer_unauthorized_user by Mallory Doe .* at Garage Door; access alert detecting for Garage Door\./,
      REALTIME_WAIT_MS,
    );
    await controller.waitFor(hasValue(false), motion, ACCESS_ALERT_S * 1000 + REALTIME_WAIT_MS);
    expect(sim.countRequests('/endpoint/toggle')).toBe(toggles);
    expect(await controller.read(await currentOf(SAMPLE_GARAGE_DOOR_ID))).toBe(garage);
  });

  it("shows the person's MotionDetected go true at their move, and false after the set time; nobody else's", async () => {
    const grace = await controller.findCharacteristic('Grace', 'MotionSensor', 'MotionDetected');
    const alan = await controller.findCharacteristic('Alan', 'MotionSensor', 'MotionDetected');
    // HAP sends a bool as 0 or 1.
    expect(Number(await controller.read(grace))).toBe(0);
    // The other way from what Home shows: earlier tests moved the doors, some by raw webhooks the simulator did not apply.
    const shown = await controller.read(await currentOf(SAMPLE_SHARED_GATE_ID));
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, shown === CURRENT_DOOR_STATE.OPEN ? 'CLOSED' : 'OPEN', { user: SAMPLE_PEOPLE.grace });
    await controller.waitFor(hasValue(true), grace, REALTIME_WAIT_MS);
    expect(Number(await controller.read(alan))).toBe(0);
    await controller.waitFor(hasValue(false), grace, PERSON_SENSOR_S * 1000 + REALTIME_WAIT_MS);
  });

  it('turns one move told twice (door1_open and door_state_change, one toggleID) into one MotionDetected edge', async () => {
    const grace = await controller.findCharacteristic('Grace', 'MotionSensor', 'MotionDetected');
    const front = await currentOf(SAMPLE_FRONT_GATE_ID);
    if ((await controller.read(front)) !== CURRENT_DOOR_STATE.CLOSED) {
      sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { channel: 'Keypad' });
      await controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), front, REALTIME_WAIT_MS);
    }
    await controller.waitFor((value) => Number(value) === 0, grace, PERSON_SENSOR_S * 1000 + REALTIME_WAIT_MS);
    const edges: number[] = [];
    const subscription = await controller.subscribe([grace], (event) => edges.push(Number(event.value)));
    // The service tells one toggle twice: the simulator's door moves without a webhook, then both messages come.
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { user: SAMPLE_PEOPLE.grace, silent: true });
    const userThatToggled = { firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@example.com' };
    const at = Math.floor(Date.now() / 1000);
    const send = async (eventType: string, eventOccurred: number): Promise<void> => {
      const event = sim.buildWebhookEvent(SAMPLE_FRONT_GATE_ID, { eventType, toggleID: 'e2e-one-toggle', eventOccurred, userThatToggled });
      expect((await sim.sendRawWebhook(event)).status).toBe(200);
    };
    await send('door1_open', at);
    await controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), front, REALTIME_WAIT_MS);
    await controller.waitFor((value) => Number(value) === 1, grace, REALTIME_WAIT_MS);
    await controller.waitFor((value) => Number(value) === 0, grace, PERSON_SENSOR_S * 1000 + REALTIME_WAIT_MS);
    // The other message of the same toggle, stamped seconds later, after the sensor's time: no second edge.
    const mark = hb.lineCount();
    await send('door_state_change', at + 3);
    await hb.waitForLog(/door_state_change/, REALTIME_WAIT_MS, { fromLine: mark });
    await new Promise((resolve) => setTimeout(resolve, 500));
    subscription.unsubscribe();
    expect(edges).toEqual([1, 0]);
  });

  it('closes the listener on shutdown, so a restart finds the port free', async () => {
    const stopped = await hb.stop();
    expect(stopped.killed).toBe(false);
    hb = await startHomebridge({
      platforms: [webhookPlatform(sim.baseUrl, { port: webhookPort }, BRIDGE_OPTIONS)],
      storageDir: hb.storageDir,
    });
    await hb.waitForLog(/Webhook listener on/, BOOT_WAIT_MS);
    expect(hb.log()).not.toMatch(/EADDRINUSE|already in use/);
    expect(hb.log()).not.toContain(API_KEY);
    expect(hb.log()).not.toContain(TOKEN);
  });
});

describe('person sensors through an outage', () => {
  let sim: AccessControlSimulator;
  let hb: HomebridgeProcess;
  let controller: HomeKitController;
  /** Two failed syncs at the smallest poll interval, and a busy machine. */
  const OUTAGE_WAIT_MS = 45_000;

  beforeAll(async () => {
    sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: 500 });
    await sim.start();
    const platform = { platform: 'AccessControl', name: 'Access Control', accessToken: TOKEN, baseUrl: sim.baseUrl, pollInterval: 5 };
    hb = await startHomebridge({ platforms: [{ ...platform, people: [{ name: 'Grace', user: 'grace@example.com' }] }] });
    controller = await pairController(hb);
    await controller.waitForAccessory('Grace', BOOT_WAIT_MS);
  });

  afterAll(() => tearDown({ controllers: [controller], hb, sim }));

  it('answers No Response and StatusActive false while the account cannot be read, like the doors, and comes back by itself', async () => {
    const motion = await controller.findCharacteristic('Grace', 'MotionSensor', 'MotionDetected');
    const active = await controller.findCharacteristic('Grace', 'MotionSensor', 'StatusActive');
    expect(Number(await controller.read(motion))).toBe(0);
    expect(Number(await controller.read(active))).toBe(1);
    sim.setOutage(true);
    await controller.waitFor((_v, status) => status === HAP_STATUS.SERVICE_COMMUNICATION_FAILURE, motion, OUTAGE_WAIT_MS);
    expect(Number(await controller.read(active))).toBe(0);
    sim.setOutage(false);
    await controller.waitFor((value, status) => status === HAP_STATUS.SUCCESS && Number(value) === 0, motion, OUTAGE_WAIT_MS);
    expect(Number(await controller.read(active))).toBe(1);
  });
});

describe('webhooks over HTTPS with a certificate of the user', () => {
  let sim: AccessControlSimulator;
  let hb: HomebridgeProcess;
  let certDir: string;

  beforeAll(async () => {
    certDir = mkdtempSync(path.join(tmpdir(), 'webhook-tls-'));
    const { certFile: cert, keyFile: key } = makeSelfSignedCertificate(certDir, 'listener', 'IP:127.0.0.1');
    const port = await freePort();
    sim = new AccessControlSimulator({ accessToken: TOKEN });
    await sim.start();
    sim.setWebhook({ url: `https://127.0.0.1:${port}/`, apiKey: API_KEY });
    hb = await startHomebridge({ platforms: [webhookPlatform(sim.baseUrl, { port, tlsCertFile: cert, tlsKeyFile: key })] });
    await hb.waitForLog(/Webhook listener on https:/, BOOT_WAIT_MS);
  });

  afterAll(async () => {
    await tearDown({ hb, sim });
    rmSync(certDir, { recursive: true, force: true });
  });

  it('receives and applies events over TLS', async () => {
    await hb.waitForLog(/Added Shared Gate/, BOOT_WAIT_MS);
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { channel: 'Keypad' });
    await hb.waitForLog(/Shared Gate is now open \(Ada Lovelace, Keypad\)/, REALTIME_WAIT_MS);
    expect(sim.webhookDeliveries.at(-1)?.status).toBe(200);
  });
});

describe('a webhook port already in use', () => {
  it('says so once and carries on by polling', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    const sim = new AccessControlSimulator({ accessToken: TOKEN });
    await sim.start();
    const hb = await startHomebridge({ platforms: [webhookPlatform(sim.baseUrl, { port })] });
    try {
      await hb.waitForLog(new RegExp(`webhook listener could not start: port ${port} is already in use; webhooks are off`), BOOT_WAIT_MS);
      await hb.waitForLog(/Added Front Gate to HomeKit/, BOOT_WAIT_MS);
      expect(hb.exited).toBeUndefined();
    } finally {
      await hb.stop();
      await sim.stop();
      blocker.close();
      await removeStorageDir(hb.storageDir);
    }
  });
});

// Webhooks end to end: the simulator posts to the listener of a real Homebridge, and a HomeKit controller sees the result
// (the doors, the access alert and the person sensors).
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import {
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
  SAMPLE_PEOPLE,
  SAMPLE_SHARED_GATE_ID,
} from '../../dev/simulator/server.js';
import { hasValue } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, HAP_STATUS } from '../../dev/harness/hap-types.js';
import { platformEntry, useHomebridge } from './homebridge-rig.js';
import { makeSelfSignedCertificate } from '../support/certificates.js';

const TOKEN = 'tok-d536fa9a73a7';
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
  return platformEntry(baseUrl, TOKEN, {
    ...options,
    pollInterval: POLL_INTERVAL_S,
    webhook: { host: '127.0.0.1', apiKey: API_KEY, ...webhook },
  });
}

describe('webhooks over plain HTTP (behind a TLS proxy or tunnel)', () => {
  let webhookPort = 0;
  const rig = useHomebridge({
    simulator: { accessToken: TOKEN, travelTimeMs: 500 },
    beforeHomebridge: async (sim) => {
      webhookPort = await freePort();
      sim.setWebhook({ url: `http://127.0.0.1:${webhookPort}/hooks/access`, apiKey: API_KEY });
    },
    platforms: (sim) => [webhookPlatform(sim.baseUrl, { port: webhookPort }, BRIDGE_OPTIONS)],
    readyLine: /Webhook listener on/,
    door: SAMPLE_SHARED_GATE_ID,
    waitMs: BOOT_WAIT_MS,
  });

  const userLines = (re: RegExp): string[] =>
    rig.hb
      .log()
      .split('\n')
      .filter((line) => re.test(line) && !line.includes('Still failing'));
  const currentOf = (doorId: string) => rig.controller.findCharacteristic(doorId, 'GarageDoorOpener', 'CurrentDoorState');

  it('shows a door moved outside HomeKit within moments, with who moved it', async () => {
    const syncsBefore = rig.sim.countRequests('/endpoints/sync');
    rig.sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { channel: 'Keypad' });
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), await currentOf(SAMPLE_FRONT_GATE_ID), REALTIME_WAIT_MS);
    expect(rig.sim.countRequests('/endpoints/sync')).toBe(syncsBefore);
    await rig.hb.waitForLog(/Front Gate is now open \(Ada Lovelace, Keypad\)/, REALTIME_WAIT_MS);
    expect(rig.sim.webhookDeliveries.at(-1)?.status).toBe(200);
  });

  it('refuses a wrong or missing key with 401 and applies nothing', async () => {
    const event = rig.sim.buildWebhookEvent(SAMPLE_GARAGE_DOOR_ID, { doorState: 'OPEN' });
    const wrong = await rig.sim.sendRawWebhook(event, { 'X-Service-API-Key': 'f'.repeat(96) });
    const missing = await rig.sim.sendRawWebhook(event, { 'X-Service-API-Key': null });
    expect([wrong.status, missing.status]).toEqual([401, 401]);
    expect(JSON.parse(wrong.body)).toHaveProperty('message');
    expect(await rig.controller.read(await currentOf(SAMPLE_GARAGE_DOOR_ID))).toBe(CURRENT_DOOR_STATE.CLOSED);
    expect(rig.hb.log()).not.toContain('f'.repeat(96));
  });

  it('answers malformed and oversized bodies with 400 and 413', async () => {
    expect((await rig.sim.sendRawWebhook('{"eventType": "door_state_change",')).status).toBe(400);
    expect((await rig.sim.sendRawWebhook('[1, 2, 3]')).status).toBe(400);
    const huge = { eventType: 'door_state_change', padding: 'x'.repeat(100 * 1024) };
    expect((await rig.sim.sendRawWebhook(huge)).status).toBe(413);
    expect(rig.hb.exited).toBeUndefined();
  });

  it('never rolls a door back for an event older than what it shows, and applies a repeated event once', async () => {
    const current = await currentOf(SAMPLE_GARAGE_DOOR_ID);
    const nowS = Math.floor(Date.now() / 1000);
    const open = rig.sim.buildWebhookEvent(SAMPLE_GARAGE_DOOR_ID, { doorState: 'OPEN', eventOccurred: nowS, channel: 'Remote' });
    const olderClose = rig.sim.buildWebhookEvent(SAMPLE_GARAGE_DOOR_ID, {
      doorState: 'CLOSED',
      eventOccurred: nowS - 600,
      channel: 'Remote',
    });
    expect((await rig.sim.sendRawWebhook(open)).status).toBe(200);
    expect((await rig.sim.sendRawWebhook(open)).status).toBe(200);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, REALTIME_WAIT_MS);
    expect((await rig.sim.sendRawWebhook(olderClose)).status).toBe(200);
    await rig.hb.waitForLog(/Webhook older than the state Garage Door shows; ignored/, REALTIME_WAIT_MS);
    expect(await rig.controller.read(current)).toBe(CURRENT_DOOR_STATE.OPEN);
    await rig.hb.waitForLog(/came again; applied once/, REALTIME_WAIT_MS);
    expect(userLines(/Garage Door is now open/)).toHaveLength(1);
    // Webhooks only ever show what happened; none of them, repeated or late, makes the plugin move a door.
    expect(rig.sim.countRequests('/endpoint/toggle')).toBe(0);
  });

  it('understands door-numbered events and the other field spelling', async () => {
    const event = {
      id: 'numbered-1',
      eventType: 'door1_close',
      deviceId: SAMPLE_OWNED_DEVICE_ID,
      eventOccurred: Math.floor(Date.now() / 1000) + 1,
      channel: 'Remote',
    };
    expect((await rig.sim.sendRawWebhook(event)).status).toBe(200);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), await currentOf(SAMPLE_FRONT_GATE_ID), REALTIME_WAIT_MS);
  });

  it('answers 200 to an unknown door or event type, logs who did what, and carries on', async () => {
    const unknownDoor = rig.sim.buildWebhookEvent(SAMPLE_SHARED_GATE_ID, { doorID: '00000000-0000-0000-0000-00000000dead' });
    expect((await rig.sim.sendRawWebhook(unknownDoor)).status).toBe(200);
    const management = {
      id: 'mgmt-1',
      eventType: 'user_added',
      channel: 'Web Portal',
      userThatToggled: { firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@example.com' },
    };
    expect((await rig.sim.sendRawWebhook(management)).status).toBe(200);
    await rig.hb.waitForLog(/Webhook: .*user_added.*Grace Hopper/, REALTIME_WAIT_MS);
    rig.sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { channel: 'Keypad' });
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), await currentOf(SAMPLE_SHARED_GATE_ID), REALTIME_WAIT_MS);
  });

  it('turns an enforcer event at a door with an access alert into motion for a short time, and moves nothing', async () => {
    const motion = await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'MotionSensor', 'MotionDetected');
    await expect(rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'MotionSensor', 'MotionDetected')).rejects.toThrow();
    expect(await rig.controller.read(motion)).toSatisfy((value) => value === false || value === 0);
    const garage = await rig.controller.read(await currentOf(SAMPLE_GARAGE_DOOR_ID));
    const toggles = rig.sim.countRequests('/endpoint/toggle');
    rig.sim.sendEnforcerEvent('unauthorized-user', { doorId: SAMPLE_GARAGE_DOOR_ID });
    await rig.controller.waitFor(hasValue(true), motion, REALTIME_WAIT_MS);
    await rig.hb.waitForLog(
      /Webhook: enforcer_unauthorized_user by Mallory Doe .* at Garage Door; access alert detecting for Garage Door\./,
      REALTIME_WAIT_MS,
    );
    await rig.controller.waitFor(hasValue(false), motion, ACCESS_ALERT_S * 1000 + REALTIME_WAIT_MS);
    expect(rig.sim.countRequests('/endpoint/toggle')).toBe(toggles);
    expect(await rig.controller.read(await currentOf(SAMPLE_GARAGE_DOOR_ID))).toBe(garage);
  });

  it("shows the person's MotionDetected go true at their move, and false after the set time; nobody else's", async () => {
    const grace = await rig.controller.findCharacteristic('Grace', 'MotionSensor', 'MotionDetected');
    const alan = await rig.controller.findCharacteristic('Alan', 'MotionSensor', 'MotionDetected');
    // HAP sends a bool as 0 or 1.
    expect(Number(await rig.controller.read(grace))).toBe(0);
    // The other way from what Home shows: earlier tests moved the doors, some by raw webhooks the simulator did not apply.
    const shown = await rig.controller.read(await currentOf(SAMPLE_SHARED_GATE_ID));
    rig.sim.setDoorState(SAMPLE_SHARED_GATE_ID, shown === CURRENT_DOOR_STATE.OPEN ? 'CLOSED' : 'OPEN', { user: SAMPLE_PEOPLE.grace });
    await rig.controller.waitFor(hasValue(true), grace, REALTIME_WAIT_MS);
    expect(Number(await rig.controller.read(alan))).toBe(0);
    await rig.controller.waitFor(hasValue(false), grace, PERSON_SENSOR_S * 1000 + REALTIME_WAIT_MS);
  });

  it('turns one move told twice (door1_open and door_state_change, one toggleID) into one MotionDetected edge', async () => {
    const grace = await rig.controller.findCharacteristic('Grace', 'MotionSensor', 'MotionDetected');
    const front = await currentOf(SAMPLE_FRONT_GATE_ID);
    if ((await rig.controller.read(front)) !== CURRENT_DOOR_STATE.CLOSED) {
      rig.sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { channel: 'Keypad' });
      await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.CLOSED), front, REALTIME_WAIT_MS);
    }
    await rig.controller.waitFor((value) => Number(value) === 0, grace, PERSON_SENSOR_S * 1000 + REALTIME_WAIT_MS);
    const edges: number[] = [];
    const subscription = await rig.controller.subscribe([grace], (event) => edges.push(Number(event.value)));
    // The service tells one toggle twice: the simulator's door moves without a webhook, then both messages come.
    rig.sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { user: SAMPLE_PEOPLE.grace, silent: true });
    const userThatToggled = { firstName: 'Grace', lastName: 'Hopper', emailAddress: 'grace@example.com' };
    const at = Math.floor(Date.now() / 1000);
    const send = async (eventType: string, eventOccurred: number): Promise<void> => {
      const event = rig.sim.buildWebhookEvent(SAMPLE_FRONT_GATE_ID, {
        eventType,
        toggleID: 'e2e-one-toggle',
        eventOccurred,
        userThatToggled,
      });
      expect((await rig.sim.sendRawWebhook(event)).status).toBe(200);
    };
    await send('door1_open', at);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), front, REALTIME_WAIT_MS);
    await rig.controller.waitFor((value) => Number(value) === 1, grace, REALTIME_WAIT_MS);
    await rig.controller.waitFor((value) => Number(value) === 0, grace, PERSON_SENSOR_S * 1000 + REALTIME_WAIT_MS);
    // The other message of the same toggle, stamped seconds later, after the sensor's time: no second edge.
    const mark = rig.hb.lineCount();
    await send('door_state_change', at + 3);
    await rig.hb.waitForLog(/door_state_change/, REALTIME_WAIT_MS, { fromLine: mark });
    await new Promise((resolve) => setTimeout(resolve, 500));
    subscription.unsubscribe();
    expect(edges).toEqual([1, 0]);
  });

  it('closes the listener on shutdown, so a restart finds the port free', async () => {
    // The rig asserts the stop was clean (nothing left open: the listener and its connections closed), then starts
    // Homebridge again on the same port and waits for the listener's line.
    await rig.restart();
    expect(rig.hb.log()).not.toMatch(/EADDRINUSE|already in use/);
    expect(rig.wholeLog()).not.toContain(API_KEY);
    expect(rig.wholeLog()).not.toContain(TOKEN);
  });
});

describe('person sensors through an outage', () => {
  /** Two failed syncs at the smallest poll interval, and a busy machine. */
  const OUTAGE_WAIT_MS = 45_000;
  const rig = useHomebridge({
    simulator: { accessToken: TOKEN, travelTimeMs: 500 },
    platforms: (sim) => [platformEntry(sim.baseUrl, TOKEN, { people: [{ name: 'Grace', user: 'grace@example.com' }] })],
    door: 'Grace',
    waitMs: BOOT_WAIT_MS,
  });

  it('answers No Response and StatusActive false while the account cannot be read, like the doors, and comes back by itself', async () => {
    const { controller, sim } = rig;
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
  let certDir = '';
  let port = 0;
  const rig = useHomebridge({
    simulator: { accessToken: TOKEN },
    beforeHomebridge: async (sim) => {
      certDir = mkdtempSync(path.join(tmpdir(), 'webhook-tls-'));
      port = await freePort();
      sim.setWebhook({ url: `https://127.0.0.1:${port}/`, apiKey: API_KEY });
    },
    platforms: (sim) => {
      const { certFile: cert, keyFile: key } = makeSelfSignedCertificate(certDir, 'listener', 'IP:127.0.0.1');
      return [webhookPlatform(sim.baseUrl, { port, tlsCertFile: cert, tlsKeyFile: key })];
    },
    readyLine: /Webhook listener on https:/,
    pair: false,
    waitMs: BOOT_WAIT_MS,
  });

  // Registered after the rig's hooks: runs before Homebridge stops, which has read the files at start.
  afterAll(() => {
    if (certDir !== '') rmSync(certDir, { recursive: true, force: true });
  });

  it('receives and applies events over TLS', async () => {
    await rig.hb.waitForLog(/Added Shared Gate/, BOOT_WAIT_MS);
    rig.sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { channel: 'Keypad' });
    await rig.hb.waitForLog(/Shared Gate is now open \(Ada Lovelace, Keypad\)/, REALTIME_WAIT_MS);
    expect(rig.sim.webhookDeliveries.at(-1)?.status).toBe(200);
  });
});

describe('a webhook port already in use', () => {
  const blocker = createServer();
  let port = 0;
  const rig = useHomebridge({
    simulator: { accessToken: TOKEN },
    beforeHomebridge: async () => {
      port = await freePort();
      await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    },
    platforms: (sim) => [webhookPlatform(sim.baseUrl, { port })],
    pair: false,
  });

  afterAll(() => new Promise<void>((resolve) => (blocker.listening ? blocker.close(() => resolve()) : resolve())));

  it('says so once and carries on by polling', async () => {
    await rig.hb.waitForLog(new RegExp(`webhook listener could not start: port ${port} is already in use; webhooks are off`), BOOT_WAIT_MS);
    await rig.hb.waitForLog(/Added Front Gate to HomeKit/, BOOT_WAIT_MS);
    expect(rig.hb.log().match(/webhook listener could not start/g)).toHaveLength(1);
    expect(rig.hb.exited).toBeUndefined();
  });
});

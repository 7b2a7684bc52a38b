// Person sensors end to end: the simulator posts a door move naming a person to the listener of a real Homebridge, and a
// HomeKit controller sees that person's motion sensor detect, and clear after its time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort, startHomebridge } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID, SAMPLE_PEOPLE } from '../../dev/simulator/server.js';
import { hasValue, pairController } from '../../dev/harness/homekit-controller.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import { tearDown } from './teardown.js';

const TOKEN = 'people-e2e-token-9b31';
const API_KEY = 'beef'.repeat(24);
/** Far longer than any wait below: a sensor that detects within a wait was told by webhook, not by a poll. */
const POLL_INTERVAL_S = 300;
const REALTIME_WAIT_MS = 5_000;
const BOOT_WAIT_MS = 20_000;
/** Short, since a real Homebridge runs on real time. */
const DURATION_S = 2;

describe('person sensors in a real Homebridge', () => {
  let sim: AccessControlSimulator;
  let hb: HomebridgeProcess;
  let controller: HomeKitController;

  beforeAll(async () => {
    const port = await freePort();
    sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: 200 });
    await sim.start();
    sim.setWebhook({ url: `http://127.0.0.1:${port}/`, apiKey: API_KEY });
    hb = await startHomebridge({
      platforms: [
        {
          platform: 'AccessControl',
          name: 'Access Control',
          accessToken: TOKEN,
          baseUrl: sim.baseUrl,
          pollInterval: POLL_INTERVAL_S,
          webhook: { host: '127.0.0.1', port, apiKey: API_KEY },
          personSensorDuration: DURATION_S,
          people: [
            { name: 'Grace', user: 'grace@example.com' },
            { name: 'Alan', user: 'Alan Turing' },
          ],
        },
      ],
    });
    await hb.waitForLog(/Webhook listener on/, BOOT_WAIT_MS);
    controller = await pairController(hb);
    await controller.waitForAccessory('Grace', BOOT_WAIT_MS);
  });

  afterAll(() => tearDown({ controllers: [controller], hb, sim }));

  it("shows the person's MotionDetected go true at their move, and false after the set time; nobody else's", async () => {
    const grace = await controller.findCharacteristic('Grace', 'MotionSensor', 'MotionDetected');
    const alan = await controller.findCharacteristic('Alan', 'MotionSensor', 'MotionDetected');
    // HAP sends a bool as 0 or 1.
    expect(Number(await controller.read(grace))).toBe(0);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { user: SAMPLE_PEOPLE.grace });
    await controller.waitFor(hasValue(true), grace, REALTIME_WAIT_MS);
    expect(Number(await controller.read(alan))).toBe(0);
    await controller.waitFor(hasValue(false), grace, DURATION_S * 1000 + REALTIME_WAIT_MS);
  });
});

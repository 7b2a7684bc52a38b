// Person sensors on Matter end to end (issue 31): a real Homebridge 2.4 runs the plugin on a child bridge with Matter on and
// two people, and a real Matter controller (matter.js) commissions it, as Google Home or Alexa would. A person's door moved
// through the simulator's webhook makes their occupancy sensor occupied, then unoccupied after personSensorDuration; the
// other person's stays unoccupied. One Homebridge start, one commissioning: the Matter suite's time stays small.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { MATTER_DEVICE_TYPE, MatterController } from '../../dev/harness/matter-controller.js';
import type { AttributeReport } from '../../dev/harness/matter-controller.js';
import { AccessControlSimulator, SAMPLE_FRONT_GATE_ID, SAMPLE_PEOPLE } from '../../dev/simulator/server.js';
import { togglesReceived } from '../support/simulator.js';
import { matterChildBridge, startMatterBridge, tearDownMatter } from './bridge.js';
import { requireNonLoopbackInterface } from './netns.js';

/** The entry's own settings: a poll far longer than the test (a change seen within it came by webhook), a short sensor time. */
const SETTINGS = { accessToken: 'tok-d804f0bb3380', pollInterval: 300, personSensorDuration: 2, matter: 'sensors' };
const API_KEY = 'cafe'.repeat(24);
const WAIT_MS = 20_000;
/** Matter's OccupancySensor (Homebridge's api.matter.deviceTypes.MotionSensor), and its cluster as the harness names it. */
const OCCUPANCY = { deviceType: 0x0107, cluster: '0x0406' } as const;

let sim: AccessControlSimulator;
let hb: HomebridgeProcess | undefined;
let controller: MatterController | undefined;

beforeAll(async () => {
  requireNonLoopbackInterface();
  const webhookPort = await freePort();
  const bridge = await matterChildBridge();
  sim = new AccessControlSimulator({ accessToken: SETTINGS.accessToken, travelTimeMs: 200 });
  await sim.start();
  sim.setWebhook({ url: `http://127.0.0.1:${webhookPort}/hooks/access`, apiKey: API_KEY });
  const started = await startMatterBridge({
    platform: 'AccessControl',
    name: 'Access Control',
    ...SETTINGS,
    baseUrl: sim.baseUrl,
    webhook: { host: '127.0.0.1', port: webhookPort, apiKey: API_KEY },
    people: [
      { name: 'Grace', user: SAMPLE_PEOPLE.grace.emailAddress },
      { name: 'Alan', user: SAMPLE_PEOPLE.alan.emailAddress },
    ],
    _bridge: bridge,
  });
  hb = started.hb;
  controller = await MatterController.commission(started.commissioning.manualPairingCode, bridge.matter.port);
});

afterAll(() => tearDownMatter({ controller, hb, sim }));

/** Resolves with the first report from now on that `match` accepts; rejects after WAIT_MS, saying what did not arrive. */
function nextReport(c: MatterController, what: string, match: (report: AttributeReport) => boolean): Promise<AttributeReport> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${what}: no such report within ${WAIT_MS} ms`));
    }, WAIT_MS);
    const stop = c.onReport((report) => {
      if (!match(report)) return;
      clearTimeout(timer);
      stop();
      resolve(report);
    });
  });
}

const occupiedOf = (report: AttributeReport): unknown => (report.value as { occupied?: unknown } | undefined)?.occupied;

describe('people as Matter occupancy sensors, with a real Homebridge 2.4 and a Matter controller', () => {
  it('shows each person as an occupancy sensor, occupied when their door moves by webhook and unoccupied after the set time', async () => {
    if (controller === undefined) throw new Error('the bridge was not commissioned');
    const c = controller;
    await expect
      .poll(
        () =>
          c
            .doors()
            .filter((d) => d.deviceTypes.includes(OCCUPANCY.deviceType))
            .map((d) => d.name),
        {
          timeout: WAIT_MS,
          interval: 100,
          message: 'both people are on Matter as occupancy sensors',
        },
      )
      .toEqual(['Grace', 'Alan']);
    // Beside the doors, which stay contact sensors.
    expect(c.doors().filter((d) => d.deviceTypes.includes(MATTER_DEVICE_TYPE.ContactSensor))).toHaveLength(3);
    const grace = c.door('Grace');
    const alan = c.door('Alan');
    expect([grace.reachable, alan.reachable]).toEqual([true, true]);
    const occupancy = (endpoint: number) => (report: AttributeReport) =>
      report.endpoint === endpoint && report.cluster === OCCUPANCY.cluster && report.attribute === 'occupancy';

    let sawOccupied = false;
    const occupied = nextReport(c, "Grace's sensor occupied", (r) => {
      sawOccupied ||= occupancy(grace.endpoint)(r) && occupiedOf(r) === true;
      return sawOccupied;
    });
    const cleared = nextReport(
      c,
      "Grace's sensor unoccupied again",
      (r) => sawOccupied && occupancy(grace.endpoint)(r) && occupiedOf(r) === false,
    );
    const alanReports: AttributeReport[] = [];
    const stopAlan = c.onReport((r) => {
      if (occupancy(alan.endpoint)(r)) alanReports.push(r);
    });
    const movedAt = Date.now();
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { user: SAMPLE_PEOPLE.grace });
    const on = await occupied;
    const off = await cleared;
    stopAlan();
    console.log(`[matter] person occupied ${on.at - movedAt} ms after the move, unoccupied ${off.at - on.at} ms later`);
    expect(off.at).toBeGreaterThan(on.at);
    expect(alanReports.filter((r) => occupiedOf(r) === true)).toEqual([]);
    // The plugin only followed: nothing was sent to the door.
    expect(togglesReceived(sim)).toEqual([]);
  });
});

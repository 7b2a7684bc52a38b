// `npm run demo`: the simulator with a sample account, a real Homebridge running the plugin, and a short guided tour.
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { randomBytes } from 'node:crypto';

import { freePort, HOMEBRIDGE_2_VERSION, REPO_ROOT, startHomebridge } from '../harness/homebridge-process.js';
import type { HomebridgeProcess } from '../harness/homebridge-process.js';
import {
  AccessControlSimulator,
  SAMPLE_ACCOUNT_USER,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_PEOPLE,
  SAMPLE_SHARED_GATE_ID,
  sampleHistory,
} from '../simulator/server.js';
import { CURRENT_DOOR_STATE, HAP_CHARACTERISTIC, TARGET_DOOR_STATE } from '../harness/hap-types.js';
import { installHomebridgePrefix, resolveNode } from '../../test/support/npm-prefix.js';
import { InsecureHapClient } from './insecure-hap.js';

const DEMO_TOKEN = 'demo-access-token';
/** The simulator's port; the control commands printed below use it. */
const SIMULATOR_PORT = Number(process.env.DEMO_SIMULATOR_PORT ?? 8787);
/** Like a real gate: long enough to watch "Opening..." in the Home app. */
const DOOR_TRAVEL_TIME_MS = 6_000;
/** Kept between runs, so an iPhone paired once stays paired. */
const STORAGE_DIR = path.join(REPO_ROOT, '.demo', 'homebridge');
const POLL_INTERVAL_S = 5;
/**
 * The safety-net pace while webhooks arrive: the lowest the plugin takes (30 s), so a cut of the cloud at any moment
 * shows in Home within about 35 s (the next sync, then one at the poll interval after it: two failures in a row are
 * No Response), not after the default 300 s; the tour's cut, just before a sync, shows within seconds.
 */
const RECONCILE_INTERVAL_S = 30;
/** How long the tour waits for Home to follow the outage, and the cloud's return: both come well within it. */
const OUTAGE_WATCH_MS = 60_000;
/** How often the tour reads Home while it waits. */
const OUTAGE_READ_EVERY_MS = 500;
/** DEMO_HOMEBRIDGE=2 runs the current Homebridge 2.x on Node 22 (installed into .cache once, as the tests do); else 1.11 on this Node. */
const HOMEBRIDGE_2_NODE = 22;
/** Pause between tour steps, so the log can be read as it goes. */
const TOUR_STEP_PAUSE_MS = 9_000;
/** A webhook reaches Home within milliseconds; this leaves room for a busy machine before the sensor is read. */
const PERSON_READ_PAUSE_MS = 1_000;
/** After a sync finds a move, the history is read in the background: this leaves room for it before the sensor is read. */
const HISTORY_READ_PAUSE_MS = 2_000;
/** The person sensors (`people`): Grace by e-mail, and anyone else the service names. */
const GRACE = SAMPLE_PEOPLE.grace.firstName;
const SOMEONE_ELSE = 'Someone Else';
const DEMO_PEOPLE = [
  { name: GRACE, user: SAMPLE_PEOPLE.grace.emailAddress },
  // The account's user: Home's own commands go out with her token, so the service names her for them, not "anyone else".
  { name: SAMPLE_ACCOUNT_USER.firstName, user: SAMPLE_ACCOUNT_USER.emailAddress },
  { name: SOMEONE_ELSE, user: '*' },
];
/** Timers take at most about 24 days; the demo waits for Homebridge in slices. */
const WAIT_SLICE_MS = 60 * 60_000;

const say = (text: string): void => {
  process.stdout.write(`\n\x1b[1m▶ ${text}\x1b[0m\n`);
};

async function tour(hb: HomebridgeProcess, sim: AccessControlSimulator): Promise<void> {
  const hap = new InsecureHapClient(hb.port, hb.pin);
  await hb.waitForLog(/Added Shared Gate to HomeKit|Syncing the account/, 30_000);
  await sleep(2_000);
  const target = await hap.findDoorCharacteristic(SAMPLE_FRONT_GATE_ID, HAP_CHARACTERISTIC.TargetDoorState);
  const current = await hap.findDoorCharacteristic(SAMPLE_FRONT_GATE_ID, HAP_CHARACTERISTIC.CurrentDoorState);

  const grace = await hap.findPersonSensor(GRACE);
  const someoneElse = await hap.findPersonSensor(SOMEONE_ELSE);
  const detecting = async (ref: { aid: number; iid: number }): Promise<string> =>
    // HAP sends a boolean as true/false or as 1/0.
    [true, 1].includes((await hap.read(ref)) as boolean | number) ? 'detects motion' : 'detects nothing';

  const ada = await hap.findPersonSensor(SAMPLE_ACCOUNT_USER.firstName);
  say(
    `Tour 1/6: ${SAMPLE_ACCOUNT_USER.firstName} opens "Garage Door" from the service's app, and no webhook comes (as for every user without webhooks): the next sync, within ${POLL_INTERVAL_S} s, finds it moved, and the toggle history names her.`,
  );
  sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { channel: 'App', user: SAMPLE_ACCOUNT_USER, silent: true });
  await sleep(POLL_INTERVAL_S * 1000 + HISTORY_READ_PAUSE_MS);
  say(
    `Her person sensor "${SAMPLE_ACCOUNT_USER.firstName}" ${await detecting(ada)}, told by the history alone (the log says who opened it, and how).`,
  );
  await sleep(TOUR_STEP_PAUSE_MS);

  say('Tour 2/6: Home asks to open "Front Gate" (as a tap in the Home app would).');
  await hap.write(target, TARGET_DOOR_STATE.OPEN);
  say(
    `Home now shows Front Gate as ${(await hap.read(current)) === CURRENT_DOOR_STATE.OPENING ? 'Opening...' : 'not moving'}; the simulated gate takes ${DOOR_TRAVEL_TIME_MS / 1000} s.`,
  );
  await sleep(TOUR_STEP_PAUSE_MS);
  say(`Home shows Front Gate as ${(await hap.read(current)) === CURRENT_DOOR_STATE.OPEN ? 'Open' : 'not open yet'}.`);

  say(
    'Tour 3/6: Grace opens "Shared Gate" with its keypad, outside HomeKit. The service sends a webhook naming her; Home shows it at once.',
  );
  sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { channel: 'Keypad', user: SAMPLE_PEOPLE.grace });
  await sleep(PERSON_READ_PAUSE_MS);
  say(
    `Her person sensor "${GRACE}" ${await detecting(grace)} (an automation "When ${GRACE} detects motion" would run now); "${SOMEONE_ELSE}" ${await detecting(someoneElse)}: Home's own taps name ${SAMPLE_ACCOUNT_USER.firstName}, who is listed.`,
  );
  await sleep(TOUR_STEP_PAUSE_MS);

  say(`Tour 4/6: Alan, who is not in the people list, closes "Shared Gate" with the keypad: "${SOMEONE_ELSE}" (user "*") is for him.`);
  sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'CLOSED', { channel: 'Keypad', user: SAMPLE_PEOPLE.alan });
  await sleep(PERSON_READ_PAUSE_MS);
  say(
    `"${SOMEONE_ELSE}" ${await detecting(someoneElse)}; "${GRACE}" still ${await detecting(grace)} (each detects for 60 s after a move).`,
  );
  await sleep(TOUR_STEP_PAUSE_MS);

  say('Tour 5/6: Home closes "Front Gate" again.');
  await hap.write(target, TARGET_DOOR_STATE.CLOSED);
  await sleep(TOUR_STEP_PAUSE_MS);

  say(
    `Tour 6/6: the cloud goes down. While webhooks arrive the plugin syncs only every ${RECONCILE_INTERVAL_S} s, as a safety net; the first failed sync brings it back to every ${POLL_INTERVAL_S} s, and two in a row make Home show No Response. The cut comes just before the plugin's next look, so Home follows within seconds (at worst, a safety-net interval later). Watch the log for "The account could not be synced".`,
  );
  await untilJustBeforeNextSync(sim);
  sim.setOutage(true);
  const shown = await secondsUntil(() => hap.noResponse(current));
  say(
    shown === undefined
      ? `Home still shows Front Gate after ${OUTAGE_WATCH_MS / 1000} s: see the log above.`
      : `Home shows Front Gate as No Response, ${shown} s after the cut.`,
  );
  sim.setOutage(false);
  const back = await secondsUntil(async () => !(await hap.noResponse(current)));
  say(
    back === undefined
      ? `The cloud is back, but Home does not show Front Gate yet after ${OUTAGE_WATCH_MS / 1000} s: see the log above.`
      : `The cloud is back: Home shows Front Gate again ${back} s later (the plugin retries with a growing pause while syncs fail).`,
  );
}

/** How long before the plugin's next safety-net sync the demo cuts the cloud: enough for a busy machine, short enough to see. */
const CUT_BEFORE_SYNC_MS = 3_000;

/**
 * Waits for the plugin's next sync, then until shortly before the one after it (a safety-net interval later): a cut
 * then is noticed at once, as it would be by a user whose outage began just before the plugin looked.
 */
async function untilJustBeforeNextSync(sim: AccessControlSimulator): Promise<void> {
  const syncs = (): number => sim.countRequests('/endpoints/sync');
  const before = syncs();
  const started = Date.now();
  while (syncs() === before && Date.now() - started < RECONCILE_INTERVAL_S * 1000) await sleep(OUTAGE_READ_EVERY_MS);
  await sleep(RECONCILE_INTERVAL_S * 1000 - CUT_BEFORE_SYNC_MS);
}

/** Seconds until `check` holds, read every OUTAGE_READ_EVERY_MS; undefined when it does not within OUTAGE_WATCH_MS. */
async function secondsUntil(check: () => Promise<boolean>): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < OUTAGE_WATCH_MS) {
    if (await check()) return Math.round((Date.now() - started) / 1000);
    await sleep(OUTAGE_READ_EVERY_MS);
  }
  return undefined;
}

function instructions(hb: HomebridgeProcess, sim: AccessControlSimulator, node: string): string {
  const control = `${sim.baseUrl}/_simulator`;
  const json = `-H 'content-type: application/json'`;
  return [
    '',
    '─'.repeat(78),
    `Homebridge ${hb.version} on Node ${node} is running the plugin against the simulator at ${sim.baseUrl}.`,
    'Every Homebridge and Node the tests cover: README.md, "Install".',
    hb.version.startsWith('1.')
      ? `The current Homebridge ${HOMEBRIDGE_2_VERSION} on Node ${HOMEBRIDGE_2_NODE}: DEMO_HOMEBRIDGE=2 npm run demo.`
      : 'Google Home and Alexa through Matter: README.md, "Matter".',
    '',
    `Pair an iPhone on the same network: Home app → + → Add Accessory → More options →`,
    `"${hb.displayName}", setup code ${hb.pin}.`,
    '',
    'Play with the simulated account from another terminal:',
    `  see every door:        curl ${control}/state`,
    `  keypad opens a gate:   curl -X POST ${json} -d '{"state":"OPEN"}' ${control}/doors/${SAMPLE_SHARED_GATE_ID}`,
    `  Grace closes it:       curl -X POST ${json} -d '{"state":"CLOSED","person":"grace"}' ${control}/doors/${SAMPLE_SHARED_GATE_ID}`,
    '                         (her person sensor "Grace" detects for 60 s; "alan" makes "Someone Else" detect)',
    `  gate needs a sensor:   curl -X POST ${json} -d '{"status":428}' ${control}/doors/${SAMPLE_FRONT_GATE_ID}/toggle-outcome`,
    `  rename in the app:     curl -X POST ${json} -d '{"name":"Main Gate"}' ${control}/doors/${SAMPLE_FRONT_GATE_ID}/name`,
    `  cloud outage on/off:   curl -X POST ${json} -d '{"on":true}' ${control}/outage`,
    `                         (within ${RECONCILE_INTERVAL_S} s the log says "The account could not be synced", and Home shows`,
    `                         No Response one sync later, ${POLL_INTERVAL_S} s on; '{"on":false}' brings the doors back)`,
    `  intruder at a gate:    curl -X POST ${json} -d '{"sample":"unauthorized-user","doorId":"${SAMPLE_SHARED_GATE_ID}"}' ${control}/enforcer`,
    '                         (Shared Gate Access Alert detects for 30 s; turn on its notifications in Home to be told)',
    '',
    'Press Ctrl+C to stop.',
    '─'.repeat(78),
  ].join('\n');
}

/** Which Homebridge runs, and on which Node: 1.11 (the repo's) on this Node, or with DEMO_HOMEBRIDGE=2 the current 2.x on Node 22. */
async function homebridgeToRun(): Promise<{ homebridgePrefix?: string; nodePath?: string; node: string }> {
  const wanted = process.env.DEMO_HOMEBRIDGE ?? '1';
  if (wanted === '1') return { node: process.version };
  if (wanted !== '2')
    throw new Error(`DEMO_HOMEBRIDGE must be 1 (Homebridge 1.11, the default) or 2 (Homebridge ${HOMEBRIDGE_2_VERSION}), not "${wanted}"`);
  say(
    `Installing Homebridge ${HOMEBRIDGE_2_VERSION} into .cache and fetching Node ${HOMEBRIDGE_2_NODE} (the first time only; about a minute).`,
  );
  const homebridgePrefix = await installHomebridgePrefix();
  const { nodePath, nodeVersion } = await resolveNode(HOMEBRIDGE_2_NODE);
  return { homebridgePrefix, nodePath, node: nodeVersion };
}

async function main(): Promise<void> {
  const runtime = await homebridgeToRun();
  const sim = new AccessControlSimulator({ accessToken: DEMO_TOKEN, travelTimeMs: DOOR_TRAVEL_TIME_MS, port: SIMULATOR_PORT });
  await sim.start();
  // A week of the household's comings and goings: the settings page's "People and activity" has something to show.
  for (const event of sampleHistory(Date.now())) sim.addHistoryEvent(event);
  // The real service sends webhooks to an HTTPS address of the user's; here the simulator posts straight to the listener.
  const webhookPort = await freePort();
  const webhookKey = randomBytes(48).toString('hex');
  sim.setWebhook({ url: `http://127.0.0.1:${webhookPort}/`, apiKey: webhookKey });
  const hb = await startHomebridge({
    homebridgePrefix: runtime.homebridgePrefix,
    nodePath: runtime.nodePath,
    storageDir: STORAGE_DIR,
    bridgeName: 'Access Control Demo',
    debug: false,
    insecure: true,
    showQrCode: true,
    onLine: (line) => process.stdout.write(`${line}\n`),
    platforms: [
      {
        platform: 'AccessControl',
        name: 'Access Control',
        accessToken: DEMO_TOKEN,
        baseUrl: sim.baseUrl,
        pollInterval: POLL_INTERVAL_S,
        webhook: { port: webhookPort, host: '127.0.0.1', apiKey: webhookKey, reconcileInterval: RECONCILE_INTERVAL_S },
        doors: [{ id: SAMPLE_SHARED_GATE_ID, accessAlert: true }],
        people: DEMO_PEOPLE,
      },
    ],
  });

  say(`Running Homebridge ${hb.version} on Node ${runtime.node}.`);

  // Aborted once stop() runs (Ctrl+C, or after the tour): read from the signal, as it changes while main() awaits.
  const stopping = new AbortController();
  const stop = async (): Promise<void> => {
    if (stopping.signal.aborted) return;
    stopping.abort();
    process.stdout.write('\nStopping Homebridge and the simulator...\n');
    await hb.stop();
    await sim.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  if (process.env.DEMO_TOUR !== '0') {
    await tour(hb, sim);
  }
  process.stdout.write(`${instructions(hb, sim, runtime.node)}\n`);
  if (process.env.DEMO_EXIT_AFTER_TOUR === '1') {
    await stop();
  }
  while (!hb.exited && !stopping.signal.aborted) {
    await hb.waitForExit(WAIT_SLICE_MS).catch(() => undefined);
  }
  if (!stopping.signal.aborted) {
    process.stdout.write('Homebridge stopped by itself; see its log above.\n');
    await sim.stop();
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  const hint = message.includes('EADDRINUSE')
    ? ` (another program has port ${SIMULATOR_PORT}: run with DEMO_SIMULATOR_PORT=<free port>)`
    : '';
  process.stderr.write(`The demo could not start: ${message}${hint}\n`);
  process.exit(1);
});

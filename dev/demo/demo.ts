// `npm run demo`: the simulator with a sample account, a real Homebridge running the plugin, and a short guided tour.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

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
import { CACHE_DIR, installedVersion, installHomebridgePrefix, resolveNode } from '../../test/support/npm-prefix.js';
import { HISTORY_MIN_INTERVAL_PER_DOOR_MS } from '../../src/settings.js';
import { bridgePortFor } from './bridge-port.js';
import { accountAsCached, doorsLeftOpen } from './cached-account.js';
import { InsecureHapClient } from './insecure-hap.js';
import { eveUuid } from '../../src/eve/eve-types.js';
import { decodeStatus } from '../../src/eve/eve-wire.js';

const DEMO_TOKEN = 'demo-access-token';
/** The simulator's port; the control commands printed below use it. */
const SIMULATOR_PORT = Number(process.env.DEMO_SIMULATOR_PORT ?? 8787);
/** Like a real gate: long enough to watch "Opening..." in the Home app. */
const DOOR_TRAVEL_TIME_MS = 6_000;
/**
 * Kept between runs, so an iPhone paired once stays paired; DEMO_STORAGE_DIR puts it elsewhere (the demo's own test
 * runs it twice in a folder of its own, leaving a developer's paired bridge alone).
 */
const STORAGE_DIR = process.env.DEMO_STORAGE_DIR ?? path.join(REPO_ROOT, '.demo', 'homebridge');
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
/** Pause between tour steps, so the log can be read as it goes (seconds); DEMO_PAUSE_S sets another (the demo's test: 1). */
const DEFAULT_TOUR_STEP_PAUSE_S = 9;
const PAUSE_ASKED_S = pauseSeconds(process.env.DEMO_PAUSE_S);
const TOUR_STEP_PAUSE_MS = (PAUSE_ASKED_S ?? DEFAULT_TOUR_STEP_PAUSE_S) * 1000;
/** A webhook reaches Home within milliseconds; this leaves room for a busy machine before the sensor is read. */
const PERSON_READ_PAUSE_MS = 1_000;
/**
 * How long Tour 1 waits for the history to name the mover: the next sync (a poll interval), the door's history look,
 * which waits for its pace when the door's history was read moments before (at most HISTORY_MIN_INTERVAL_PER_DOOR_MS),
 * and room for a busy machine.
 */
const HISTORY_NAMED_WAIT_MS = POLL_INTERVAL_S * 1000 + HISTORY_MIN_INTERVAL_PER_DOOR_MS + 10_000;
/** The service's history dates its entries to the second (contract: `YYYY-MM-DD HH:MM:SS`). */
const HISTORY_DATE_STEP_MS = 1_000;
/** A door moved by Home arrives after its travel time; this leaves room for the webhook that tells of it. */
const ARRIVAL_WAIT_MS = DOOR_TRAVEL_TIME_MS + 10_000;
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

/** A step that waits says what for, and at most how long. */
const waiting = (text: string): void => {
  process.stdout.write(`\x1b[2m  … ${text}\x1b[0m\n`);
};

/** How long the tour waits for the Eve backfill before it says the records each door has. */
const EVE_BACKFILL_SHOWN_WAIT_MS = 10_000;

/** How many records each door's Eve history got from the service's history at start (HistoryStatus, as Eve reads it). */
async function sayEveHistory(hap: InsecureHapClient, sim: AccessControlSimulator): Promise<void> {
  const records = async (doorId: string): Promise<number | undefined> => {
    try {
      const ref = await hap.findDoorServiceCharacteristic(doorId, eveUuid('007'), eveUuid('116'));
      const value = await hap.read(ref);
      // The reference record is not a move.
      return decodeStatus(Buffer.from(typeof value === 'string' ? value : '', 'base64')).used - 1;
    } catch {
      return undefined;
    }
  };
  // The backfill comes with the history read after the first sync: a busy machine may take a moment more.
  for (let waited = 0; waited < EVE_BACKFILL_SHOWN_WAIT_MS && !((await records(SAMPLE_FRONT_GATE_ID)) ?? 0); waited += 500) {
    await sleep(500);
  }
  const counts: string[] = [];
  for (const doorId of [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID]) {
    counts.push(`${sim.getDoor(doorId)?.name ?? doorId} ${(await records(doorId)) ?? 'none'}`);
  }
  say(
    `Eve history: each door's opens and closes of the service's last seven days are in the Eve app, with their own times (records: ${counts.join(', ')}; a failed toggle is left out). Every move from now on adds one.`,
  );
}

/**
 * The guided tour. `webhooksOn` turns the simulator's webhooks on once the doors a cut-short run left open are closed:
 * their closing is then seen as the plugin's own commands arriving, and no webhook yet makes the plugin wait for more
 * (its safety-net pace would leave Tour 1's move to a sync 30 s away, past the history's wait).
 */
async function tour(hb: HomebridgeProcess, sim: AccessControlSimulator, webhooksOn: () => void): Promise<void> {
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
  const homeCloses = async (doorId: string): Promise<void> =>
    hap.write(await hap.findDoorCharacteristic(doorId, HAP_CHARACTERISTIC.TargetDoorState), TARGET_DOOR_STATE.CLOSED);
  // A run cut short leaves a door open: Home closes it first (a command of the plugin's own, not a move a sync must
  // explain), so every run starts the tour from the same closed doors.
  const open = doorsLeftOpen(sim.devices);
  if (open.length > 0) {
    const them = open.length === 1 ? 'it' : 'them';
    say(`The last run left ${open.map((id) => sim.getDoor(id)?.name ?? id).join(' and ')} open: Home closes ${them} first.`);
    for (const doorId of open) await homeCloses(doorId);
    waiting(`waiting for ${them} to close (the simulated doors take ${DOOR_TRAVEL_TIME_MS / 1000} s)`);
    // Closed in Home too, not only at the service: a sync that has not seen Garage Door closed before Ada opens it sees no
    // move at all (open, then open), and the history is never asked who moved it.
    const shownClosed = async (id: string): Promise<boolean> =>
      (await hap.read(await hap.findDoorCharacteristic(id, HAP_CHARACTERISTIC.CurrentDoorState))) === CURRENT_DOOR_STATE.CLOSED;
    await secondsUntil(async () => {
      for (const id of open) if (sim.getDoor(id)?.state !== 'CLOSED' || !(await shownClosed(id))) return false;
      return true;
    }, ARRIVAL_WAIT_MS);
    // Garage Door's close and Tour 1's open in one second of the history could be in either order: nobody is named then.
    await sleep(HISTORY_DATE_STEP_MS);
  }
  webhooksOn();

  await sayEveHistory(hap, sim);

  say(
    `Tour 1/6: ${SAMPLE_ACCOUNT_USER.firstName} opens "Garage Door" from the service's app, and no webhook comes (as for every user without webhooks): the next sync, within ${POLL_INTERVAL_S} s, finds it moved, and the toggle history names her.`,
  );
  const mark = hb.lineCount();
  sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { channel: 'App', user: SAMPLE_ACCOUNT_USER, silent: true });
  waiting(
    `waiting for the next sync and the door's history look (at most ${HISTORY_NAMED_WAIT_MS / 1000} s: a door's history is read at most every ${HISTORY_MIN_INTERVAL_PER_DOOR_MS / 1000} s)`,
  );
  const named = await hb.waitForLog(/Garage Door was opened by Ada Lovelace \(App\)\./, HISTORY_NAMED_WAIT_MS, { fromLine: mark }).then(
    () => true,
    () => false,
  );
  say(
    named
      ? `Her person sensor "${SAMPLE_ACCOUNT_USER.firstName}" ${await detecting(ada)}, told by the history alone (the log says who opened it, and how).`
      : `The history did not name her within ${HISTORY_NAMED_WAIT_MS / 1000} s: her person sensor "${SAMPLE_ACCOUNT_USER.firstName}" ${await detecting(ada)} (see the log above).`,
  );
  await sleep(TOUR_STEP_PAUSE_MS);

  say('Tour 2/6: Home asks to open "Front Gate" (as a tap in the Home app would).');
  await hap.write(target, TARGET_DOOR_STATE.OPEN);
  say(
    `Home now shows Front Gate as ${(await hap.read(current)) === CURRENT_DOOR_STATE.OPENING ? 'Opening...' : 'not moving'}; the simulated gate takes ${DOOR_TRAVEL_TIME_MS / 1000} s.`,
  );
  const opened = await secondsUntil(async () => (await hap.read(current)) === CURRENT_DOOR_STATE.OPEN, ARRIVAL_WAIT_MS);
  say(
    opened === undefined
      ? `Home does not show Front Gate as Open after ${ARRIVAL_WAIT_MS / 1000} s: see the log above.`
      : `Home shows Front Gate as Open, ${opened} s later.`,
  );
  await sleep(TOUR_STEP_PAUSE_MS);

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

  say(
    'Tour 5/6: Home closes "Front Gate" and "Garage Door" again; the service\'s webhooks tell of both (so the plugin knows webhooks reach it for Garage Door too).',
  );
  await hap.write(target, TARGET_DOOR_STATE.CLOSED);
  await homeCloses(SAMPLE_GARAGE_DOOR_ID);
  waiting(`the simulated doors take ${DOOR_TRAVEL_TIME_MS / 1000} s`);
  const closing = [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID];
  await secondsUntil(() => Promise.resolve(closing.every((id) => sim.getDoor(id)?.state === 'CLOSED')), ARRIVAL_WAIT_MS);
  await sleep(TOUR_STEP_PAUSE_MS);

  say(
    `Tour 6/6: the cloud goes down. While webhooks arrive the plugin syncs only every ${RECONCILE_INTERVAL_S} s, as a safety net; the first failed sync brings it back to every ${POLL_INTERVAL_S} s, and two in a row make Home show No Response. The cut comes just before the plugin's next look, so Home follows within seconds (at worst, a safety-net interval later). Watch the log for "The account could not be synced".`,
  );
  waiting(
    `waiting for the plugin's next sync (at most ${RECONCILE_INTERVAL_S} s while webhooks arrive), then ${(RECONCILE_INTERVAL_S * 1000 - CUT_BEFORE_SYNC_MS) / 1000} s more, to cut the cloud ${CUT_BEFORE_SYNC_MS / 1000} s before the sync after it`,
  );
  await untilJustBeforeNextSync(sim);
  sim.setOutage(true);
  waiting(`the cloud is down; watching Home until it shows No Response (at most ${OUTAGE_WATCH_MS / 1000} s)`);
  const shown = await secondsUntil(() => hap.noResponse(current));
  say(
    shown === undefined
      ? `Home still shows Front Gate after ${OUTAGE_WATCH_MS / 1000} s: see the log above.`
      : `Home shows Front Gate as No Response, ${shown} s after the cut.`,
  );
  sim.setOutage(false);
  waiting(`the cloud is back; watching Home until it shows Front Gate again (at most ${OUTAGE_WATCH_MS / 1000} s)`);
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

/** Seconds until `check` holds, read every OUTAGE_READ_EVERY_MS; undefined when it does not within `withinMs`. */
async function secondsUntil(check: () => Promise<boolean>, withinMs = OUTAGE_WATCH_MS): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
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
  const installed =
    (await installedVersion(path.join(CACHE_DIR, `homebridge-${HOMEBRIDGE_2_VERSION}`), 'homebridge')) === HOMEBRIDGE_2_VERSION;
  say(
    installed
      ? `Homebridge ${HOMEBRIDGE_2_VERSION} is installed in .cache; finding Node ${HOMEBRIDGE_2_NODE} (fetched once by npx, a few seconds after).`
      : `Installing Homebridge ${HOMEBRIDGE_2_VERSION} into .cache and fetching Node ${HOMEBRIDGE_2_NODE} (the first time only; about a minute).`,
  );
  const homebridgePrefix = await installHomebridgePrefix();
  const { nodePath, nodeVersion } = await resolveNode(HOMEBRIDGE_2_NODE);
  return { homebridgePrefix, nodePath, node: nodeVersion };
}

/** DEMO_PAUSE_S as seconds (a number from 0 up); undefined when unset or not such a number (main() says so). */
function pauseSeconds(text: string | undefined): number | undefined {
  const seconds = text === undefined || text.trim() === '' ? Number.NaN : Number(text);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

async function main(): Promise<void> {
  if (PAUSE_ASKED_S === undefined && (process.env.DEMO_PAUSE_S ?? '').trim() !== '')
    say(`DEMO_PAUSE_S is "${process.env.DEMO_PAUSE_S ?? ''}", not a number of seconds: the tour pauses ${DEFAULT_TOUR_STEP_PAUSE_S} s.`);
  const runtime = await homebridgeToRun();
  const devices = await accountAsCached(STORAGE_DIR);
  const sim = new AccessControlSimulator({ accessToken: DEMO_TOKEN, travelTimeMs: DOOR_TRAVEL_TIME_MS, port: SIMULATOR_PORT, devices });
  await sim.start().catch((error: unknown) => {
    const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    throw taken
      ? new Error(`another program has port ${SIMULATOR_PORT}, the simulator's: run with DEMO_SIMULATOR_PORT=<free port>`)
      : error;
  });
  // A week of the household's comings and goings: the settings page's "People and activity" has something to show.
  for (const event of sampleHistory(Date.now())) sim.addHistoryEvent(event);
  // The real service sends webhooks to an HTTPS address of the user's; here the simulator posts straight to the listener.
  const webhookPort = await freePort();
  const webhookKey = randomBytes(48).toString('hex');
  const webhooksOn = (): void => sim.setWebhook({ url: `http://127.0.0.1:${webhookPort}/`, apiKey: webhookKey });
  const touring = process.env.DEMO_TOUR !== '0';
  // Doors left open by a run cut short are closed by the tour before the webhooks come on (see tour()).
  if (!touring || doorsLeftOpen(devices).length === 0) webhooksOn();
  const bridge = await bridgePortFor(STORAGE_DIR);
  if (bridge.moved !== undefined) say(bridge.moved);
  const hb = await startHomebridge({
    bridgePort: bridge.port,
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

  started = true;
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

  if (touring) {
    // Ctrl+C mid-tour stops Homebridge under the tour's feet: a step failing then is the stop, which exits by itself.
    const cutShort = await tour(hb, sim, webhooksOn).then(
      () => false,
      (error: unknown) => {
        if (stopping.signal.aborted) return true;
        throw error;
      },
    );
    if (cutShort) return;
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

/** Homebridge runs: a failure from now on is not one of starting. */
let started = false;

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${started ? 'The demo stopped' : 'The demo could not start'}: ${message}\n`);
  process.exit(1);
});

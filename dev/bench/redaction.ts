// Section 12 of BENCHMARKS.md: what taking the access token and the webhook key out of the service's text costs, in process:
// every string of a 149-door sync and of a webhook body (the hot paths: every sync, every webhook), and a refusal that
// quotes the token in another spelling (the slow path: decoded views and a map of positions), each beside JSON.parse alone.
import { parseSync, syncFieldsRead } from '../../src/client/schemas.js';
import { redact, redactParsed, withoutSecretsIn } from '../../src/util/redact.js';
import { syncBody } from '../simulator/contract.js';
import { makeDevice, makeDoor } from '../simulator/account.js';
import { timeRuns } from './probes.js';
import type { Summary } from './probes.js';
import { SUMMARY_HEADER, summaryRow } from './report.js';

export const REDACTION_TITLE = '## 12. Redaction: the secrets taken out of a sync, a webhook body and a refusal';

/** Doors of the sync: one bridge's whole share, on controllers of 15 as in section 5. */
const DOORS = 149;
const DOORS_PER_CONTROLLER = 15;
/** Runs of each measurement after the warm-up; each is well under a few milliseconds. */
const RUNS = 400;
const WARM_UP_RUNS = 50;
/** The big sync of issue 50: about 6 MB, nearly all of it percent-encoded images in a field the plugin never reads. */
const BIG_SYNC_IMAGE_BYTES = 40_000;
/** Runs of the big sync (each parses 6 MB); the whole-body cleaning it replaced, a few runs (seconds each). */
const BIG_RUNS = 15;
const BIG_WARM_UP_RUNS = 2;
const WHOLE_BODY_RUNS = 3;
/** The goal of issue 50: a HomeKit read waits less than this during any sync. */
const HOMEKIT_READ_GOAL_MS = 50;

/** A token as the service may issue it (with characters a URL escapes) and a 96-character key. */
const SECRETS = [
  'ac_live_4f9b8e2d+7c1a6b3f/5e9d0c8b=',
  '9fe0b44f0155e6fb7969120dd68e86a4a38ce7f14a6bdb6cf1136983483fc1fd751effdd53395bddff8af030e3b86a02',
];

export interface RedactionRuns {
  syncBytes: number;
  syncParse: Summary;
  syncClean: Summary;
  bigSyncBytes: number;
  /** The client's read of the big sync: JSON.parse, the fields read cleaned, parseSync; the event loop is held that long. */
  bigSyncRead: Summary;
  /** The same sync with every string of it cleaned, as the client did before issue 50. */
  bigSyncWholeBody: Summary;
  webhookParse: Summary;
  webhookClean: Summary;
  refusal: Summary;
}

const timed = (run: () => unknown): Summary => timeRuns(run, RUNS, WARM_UP_RUNS);

export function measureRedaction(): RedactionRuns {
  const controllers = Math.ceil(DOORS / DOORS_PER_CONTROLLER);
  const devices = Array.from({ length: controllers }, (_, d) =>
    makeDevice({
      doors: Array.from({ length: Math.min(DOORS_PER_CONTROLLER, DOORS - d * DOORS_PER_CONTROLLER) }, (_, i) =>
        makeDoor({ name: `Gate ${d}-${i}`, entityNumber: i + 1 }),
      ),
    }),
  );
  const sync = JSON.stringify(syncBody(devices));
  const webhook = JSON.stringify({
    id: 'a1c3e5f7-0000-4000-8000-000000000001',
    eventType: 'door_state_change',
    toggleID: 'b2d4f6a8-0000-4000-8000-000000000002',
    doorID: devices[0]?.doors[0]?.id,
    doorState: 'OPEN',
    channel: 'Keypad',
    deviceID: devices[0]?.id,
    eventOccurred: 1_764_000_000,
    eventOccurredUTC: '2025-11-24T16:00:00Z',
    doorOwnerUserID: 'c3e5a7b9-0000-4000-8000-000000000003',
    userThatToggled: { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com' },
  });
  const token = SECRETS[0] ?? '';
  const refusal = `Error communicating with Garage Controller. Malformed Request for Bearer ${encodeURIComponent(`${token.slice(0, 9)}\u200b${token.slice(9)}`)}. (400)`;
  // A picture's bytes as a service sends them in a JSON string: percent-encoded (%XX for most bytes).
  const image = encodeURIComponent(String.fromCharCode(...Array.from({ length: BIG_SYNC_IMAGE_BYTES / 3 }, (_, i) => (i * 37) % 256)));
  const big = JSON.stringify(syncBody(devices.map((device) => ({ ...device, doors: device.doors.map((door) => ({ ...door, image })) }))));
  const read = (body: string): unknown => parseSync(withoutSecretsIn(syncFieldsRead(JSON.parse(body)), SECRETS));
  return {
    syncBytes: Buffer.byteLength(sync),
    syncParse: timed(() => JSON.parse(sync)),
    syncClean: timed(() => read(sync)),
    bigSyncBytes: Buffer.byteLength(big),
    bigSyncRead: timeRuns(() => read(big), BIG_RUNS, BIG_WARM_UP_RUNS),
    bigSyncWholeBody: timeRuns(() => parseSync(redactParsed(JSON.parse(big), SECRETS).value), WHOLE_BODY_RUNS, 0),
    webhookParse: timed(() => JSON.parse(webhook)),
    webhookClean: timed(() => redactParsed(JSON.parse(webhook), SECRETS)),
    refusal: timed(() => redact(refusal, SECRETS)),
  };
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const ratio = (a: Summary, b: Summary): string => `${(a.median / b.median).toFixed(1)}×`;
/** Microseconds, for what takes a few of them (a webhook body, one refusal). */
const micros = (valueMs: number): string => (Number.isFinite(valueMs) ? `${(valueMs * 1000).toFixed(valueMs < 0.01 ? 1 : 0)} µs` : 'n/a');

export function redactionSection(runs: RedactionRuns, when = new Date()): string[] {
  return [
    REDACTION_TITLE,
    '',
    `Measured ${when.toISOString()} on Node ${process.version}, in process (no Homebridge): ${RUNS} runs each after ${WARM_UP_RUNS} to warm up.`,
    'Every string the service or a webhook sends is cleaned of the access token and the webhook key where it enters, in any',
    "spelling (src/util/redact.ts, docs/security.md). *Sync* is the simulator's answer for " +
      `${DOORS} doors (${(runs.syncBytes / 1024).toFixed(1)} KiB of JSON) parsed, then the fields the plugin reads cleaned and read, as the client does on every sync;`,
    "*webhook* a door event's body, as the listener does on each; *refusal* one toggle refusal quoting the token percent-encoded with a",
    "zero-width space inside (found: decoded views and a map of positions are built). The goal: a sync's cleaning well under the",
    "sync cycle's own cost (section 5: ~24 ms for 149 doors).",
    '',
    SUMMARY_HEADER,
    summaryRow(`Sync, ${DOORS} doors: JSON.parse alone`, runs.syncParse),
    summaryRow(`Sync, ${DOORS} doors: JSON.parse and cleaning`, runs.syncClean),
    summaryRow('Webhook body: JSON.parse alone', runs.webhookParse, micros),
    summaryRow('Webhook body: JSON.parse and cleaning', runs.webhookClean, micros),
    summaryRow('A refusal quoting the token, found and cleaned', runs.refusal, micros),
    summaryRow(`Sync of ${(runs.bigSyncBytes / 1024 / 1024).toFixed(1)} MB (images): read as the client does`, runs.bigSyncRead),
    summaryRow(
      `Sync of ${(runs.bigSyncBytes / 1024 / 1024).toFixed(1)} MB (images): every string cleaned (before issue 50)`,
      runs.bigSyncWholeBody,
    ),
    '',
    `*Sync of ${(runs.bigSyncBytes / 1024 / 1024).toFixed(1)} MB* is issue 50's: the same doors, each with a ${BIG_SYNC_IMAGE_BYTES / 1000} kB percent-encoded image in its`,
    '`image` field, which the plugin never reads. The client cleans only the fields it reads (src/client/schemas.ts, syncFieldsRead), so its',
    `read holds the event loop (and a HomeKit read waiting on it) for ${ms(runs.bigSyncRead.max)} at most, against the goal of < ${HOMEKIT_READ_GOAL_MS} ms`,
    `(${runs.bigSyncRead.max < HOMEKIT_READ_GOAL_MS ? 'met' : 'not met'}); cleaning every string, as before, held it ${ms(runs.bigSyncWholeBody.median)} (median).`,
    '',
    `Parsing and cleaning take ${ratio(runs.syncClean, runs.syncParse)} the time of parsing alone for the sync, ${ratio(runs.webhookClean, runs.webhookParse)} for the webhook body.`,
  ];
}

// Section 12 of BENCHMARKS.md: what taking the access token and the webhook key out of the service's text costs, in process:
// every string of a 149-door sync and of a webhook body (the hot paths: every sync, every webhook), and a refusal that
// quotes the token in another spelling (the slow path: decoded views and a map of positions), each beside JSON.parse alone.
import { redact, redactParsed } from '../../src/util/redact.js';
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
/** A token as the service may issue it (with characters a URL escapes) and a 96-character key. */
const SECRETS = [
  'ac_live_4f9b8e2d+7c1a6b3f/5e9d0c8b=',
  '9fe0b44f0155e6fb7969120dd68e86a4a38ce7f14a6bdb6cf1136983483fc1fd751effdd53395bddff8af030e3b86a02',
];

export interface RedactionRuns {
  syncBytes: number;
  syncParse: Summary;
  syncClean: Summary;
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
  return {
    syncBytes: Buffer.byteLength(sync),
    syncParse: timed(() => JSON.parse(sync)),
    syncClean: timed(() => redactParsed(JSON.parse(sync), SECRETS)),
    webhookParse: timed(() => JSON.parse(webhook)),
    webhookClean: timed(() => redactParsed(JSON.parse(webhook), SECRETS)),
    refusal: timed(() => redact(refusal, SECRETS)),
  };
}

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
      `${DOORS} doors (${(runs.syncBytes / 1024).toFixed(1)} KiB of JSON) parsed, then every string and key of it cleaned, as the client does on every sync;`,
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
    '',
    `Parsing and cleaning take ${ratio(runs.syncClean, runs.syncParse)} the time of parsing alone for the sync, ${ratio(runs.webhookClean, runs.webhookParse)} for the webhook body.`,
  ];
}

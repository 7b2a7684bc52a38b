// Command line: `npm run simulator -- [--port N] [--token T] [--travel-ms N] …` runs the sample account until Ctrl-C.
import { parseArgs } from 'node:util';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_OWNED_DEVICE_ID, sampleHistory } from './account.js';
import { DEFAULT_HOST, DEFAULT_TRAVEL_TIME_MS } from './constants.js';
import { AccessControlSimulator } from './server.js';
import type { HistoryShape } from './options.js';
import type { WebhookTarget } from './webhook-sender.js';

/** A stable default so a plugin config written once keeps working across runs. */
const DEFAULT_CLI_TOKEN = 'simulator-access-token';
/** A fixed port is friendlier for people pasting curl commands; 0 still picks a free one. */
const DEFAULT_CLI_PORT = 8787;

const USAGE = `Usage: npm run simulator -- [--port N] [--host H] [--token T] [--travel-ms N]
       [--webhook-url URL --webhook-key KEY [--webhook-spelling example|table]] [--lenient-headers]
       [--history-order newest-first|oldest-first] [--history-dates date-time|date-only]`;

function parseNumber(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) {
    return fallback;
  }
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`--${name} must be a non-negative integer, got ${text}`);
  }
  return value;
}

function webhookFrom(values: Record<string, string | boolean | undefined>): WebhookTarget | undefined {
  const url = values['webhook-url'];
  const apiKey = values['webhook-key'];
  if (typeof url !== 'string') {
    return undefined;
  }
  if (typeof apiKey !== 'string') {
    throw new Error('--webhook-url needs --webhook-key');
  }
  const spelling = values['webhook-spelling'] === 'table' ? 'table' : 'example';
  return { url, apiKey, spelling };
}

function historyShapeFrom(order: string | undefined, dates: string | undefined): HistoryShape {
  if (order !== undefined && order !== 'newest-first' && order !== 'oldest-first') {
    throw new Error(`--history-order must be newest-first or oldest-first, got ${order}`);
  }
  if (dates !== undefined && dates !== 'date-time' && dates !== 'date-only') {
    throw new Error(`--history-dates must be date-time or date-only, got ${dates}`);
  }
  return { ...(order === undefined ? {} : { order }), ...(dates === undefined ? {} : { dates }) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'travel-ms': { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-key': { type: 'string' },
      'webhook-spelling': { type: 'string' },
      'lenient-headers': { type: 'boolean' },
      'history-order': { type: 'string' },
      'history-dates': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const token = values.token ?? DEFAULT_CLI_TOKEN;
  const simulator = new AccessControlSimulator({
    accessToken: token,
    host: values.host ?? DEFAULT_HOST,
    port: parseNumber('port', values.port, DEFAULT_CLI_PORT),
    travelTimeMs: parseNumber('travel-ms', values['travel-ms'], DEFAULT_TRAVEL_TIME_MS),
    webhook: webhookFrom(values),
    strictHeaders: !values['lenient-headers'],
    history: historyShapeFrom(values['history-order'], values['history-dates']),
  });
  await simulator.start();
  // A week of the household's comings and goings, for the settings page's "People and activity".
  for (const event of sampleHistory(Date.now())) simulator.addHistoryEvent(event);
  printBanner(simulator.baseUrl, token);

  const shutdown = (signal: string): void => {
    console.log(`\n${signal}: stopping simulator`);
    simulator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

function printBanner(base: string, token: string): void {
  const api = `-H 'Authorization: Bearer ${token}' -H 'Accept: application/json' -H 'Content-Type: application/json' -H 'Accept-Charset: utf-8' -H 'Accept-Encoding: gzip' --compressed`;
  console.log(`Access control service simulator listening on ${base}
Access token: ${token}

API (as the plugin calls it):
  curl ${api} ${base}/oauth/v1/endpoints/sync
  curl ${api} -X POST -d '{"door_id":"${SAMPLE_FRONT_GATE_ID}","door_state":"OPEN"}' ${base}/oauth/v1/endpoint/toggle
  curl ${api} '${base}/oauth/v1/endpoints/toggle-history?history_type=user'

Control interface (no auth):
  curl ${base}/_simulator/state
  curl -X POST -d '{"state":"OPEN"}' ${base}/_simulator/doors/${SAMPLE_FRONT_GATE_ID}
  curl -X POST -d '{"state":"CLOSED","person":"grace"}' ${base}/_simulator/doors/${SAMPLE_FRONT_GATE_ID}
  curl -X POST -d '{"status":428}' ${base}/_simulator/doors/${SAMPLE_FRONT_GATE_ID}/toggle-outcome
  curl -X POST -d '{"name":"Main Gate"}' ${base}/_simulator/doors/${SAMPLE_FRONT_GATE_ID}/name
  curl -X POST -d '{"on":true}' ${base}/_simulator/outage
  curl -X POST -d '{"active":false}' ${base}/_simulator/devices/${SAMPLE_OWNED_DEVICE_ID}
  curl -X POST -d '{"sample":"unauthorized-user","doorId":"${SAMPLE_FRONT_GATE_ID}"}' ${base}/_simulator/enforcer
  curl -X POST -d '{"sample":"unauthorized-vehicle","deviceId":"${SAMPLE_OWNED_DEVICE_ID}"}' ${base}/_simulator/enforcer

Ctrl-C to stop.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});

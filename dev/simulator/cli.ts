// Command line: `npm run simulator -- [options]` runs the sample account until Ctrl-C; `--help` explains every option.
import { parseArgs } from 'node:util';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_OWNED_DEVICE_ID, sampleHistory } from './account.js';
import { DEFAULT_HOST, DEFAULT_TRAVEL_TIME_MS } from './constants.js';
import { AccessControlSimulator } from './server.js';
import type { HistoryShape, WebhookTarget } from './types.js';

/** A stable default so a plugin config written once keeps working across runs. */
const DEFAULT_CLI_TOKEN = 'simulator-access-token';
/** A fixed port is friendlier for people pasting curl commands; 0 still picks a free one. */
const DEFAULT_CLI_PORT = 8787;

const USAGE = `Usage: npm run simulator -- [--port N] [--host H] [--token T] [--travel-ms N]
       [--webhook-url URL --webhook-key KEY [--webhook-spelling example|table]] [--lenient-headers]
       [--history-order newest-first|oldest-first|shuffled] [--history-dates date-time|date-only|iso]
       [--history-zone MINUTES] [--no-device-history]`;

/** --help: every option, its default, and how to point a Homebridge of one's own at the simulator. */
const HELP = `${USAGE}

Runs the access-control service's API with a sample account (three doors on two controllers, a week of
history) until Ctrl-C, and prints the curl commands of its API and of its control interface.

Options:
  --port N              Port to listen on (default ${DEFAULT_CLI_PORT}; 0 picks a free one).
  --host H              Address to listen on (default ${DEFAULT_HOST}, this machine only; 0.0.0.0 for a
                        Homebridge on another machine).
  --token T             The access token the simulator accepts (default "${DEFAULT_CLI_TOKEN}").
  --travel-ms N         How long a door takes to open or close, in milliseconds (default ${DEFAULT_TRAVEL_TIME_MS}).
  --webhook-url URL     Send the service's webhooks (a door moved, an unauthorized user...) to this address,
                        the plugin's listener: http://<homebridge host>:<webhook port>/. Needs --webhook-key.
  --webhook-key KEY     The API key sent with each webhook (X-Service-API-Key): the plugin's webhook.apiKey,
                        96 hexadecimal characters (openssl rand -hex 48 makes one).
  --webhook-spelling S  How webhook bodies name doors: "example" (doorID, deviceID: the contract's example
                        body, default) or "table" (doorId, deviceId: its field table).
  --lenient-headers     Accept API requests without every header the contract lists (the real service and
                        the default refuse them with 401, as the plugin always sends them).
  --history-order O     The toggle history's order: newest-first (default), oldest-first or shuffled (the
                        contract does not say which the service sends).
  --history-dates D     The history's dates: date-time (default, YYYY-MM-DD HH:MM:SS), date-only
                        (YYYY-MM-DD: the contract does not show whether a time is included) or iso
                        (ISO 8601 with the zone: YYYY-MM-DDTHH:MM:SS+01:00, Z in UTC).
  --history-zone M      The service's clock, minutes east of UTC (default 0): the history's times and the
                        sync's last_toggled are written in its wall clock.
  --no-device-history   Answer history_type=device with 400 (the contract lists only door and user).
  --help                This text.

Your own Homebridge against the simulator: in its config.json, the plugin's platform block
  { "platform": "AccessControl", "baseUrl": "http://<simulator host>:${DEFAULT_CLI_PORT}", "accessToken": "${DEFAULT_CLI_TOKEN}" }
(the --token you gave, the --host and --port it listens on), then restart Homebridge: the sample doors
appear in Home. For webhooks, add "webhook": { "port": <free port>, "apiKey": "<KEY>" } to the block and
start the simulator with --webhook-url http://<homebridge host>:<that port>/ --webhook-key <KEY>.
More: docs/development.md, "Point your own Homebridge at the simulator".`;

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

const ORDERS = ['newest-first', 'oldest-first', 'shuffled'] as const;
const DATES = ['date-time', 'date-only', 'iso'] as const;

/** One of `allowed`, or an error naming the option. */
function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
  throw new Error(`--${name} must be ${allowed.join(', ')}, got ${value}`);
}

function historyShapeFrom(values: Record<string, string | boolean | undefined>): HistoryShape {
  const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
  const order = oneOf('history-order', text('history-order'), ORDERS);
  const dates = oneOf('history-dates', text('history-dates'), DATES);
  const zone = text('history-zone');
  const zoneOffsetMinutes = zone === undefined ? undefined : Number(zone);
  if (zoneOffsetMinutes !== undefined && (!Number.isInteger(zoneOffsetMinutes) || Math.abs(zoneOffsetMinutes) > 14 * 60)) {
    throw new Error(`--history-zone must be whole minutes from -840 to 840, got ${zone}`);
  }
  return {
    ...(order === undefined ? {} : { order }),
    ...(dates === undefined ? {} : { dates }),
    ...(zoneOffsetMinutes === undefined ? {} : { zoneOffsetMinutes }),
    ...(values['no-device-history'] === true ? { deviceHistory: false } : {}),
  };
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
      'history-zone': { type: 'string' },
      'no-device-history': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(HELP);
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
    history: historyShapeFrom(values),
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

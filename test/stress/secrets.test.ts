// Property test (issue 44): random secrets, with the characters URLs escape, echoed by the service in random spellings in
// a toggle refusal, a sync, the history and a webhook body, never reach the log (any level), Home, the settings page's
// answers or an error; a refusal quoting no secret still tells its reason.
import * as hap from 'hap-nodejs';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import {
  AccessControlSimulator,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
  SAMPLE_SHARED_GATE_ID,
} from '../../dev/simulator/server.js';
import { AccessControlClient } from '../../src/client/service-client.js';
import { readActivity } from '../../src/ui/server/activity.js';
import { signIn } from '../../src/ui/server/sign-in.js';
import { ManualClock } from '../support/homebridge-double.js';
import { bootPlatform } from '../support/platform-rig.js';
import { jsonEscaped, secretLeaks } from '../support/secret-leaks.js';

const { Characteristic: C } = hap;
// Text around an echo is of characters no token or key holds ("—"), so no run of the secret can reach into it.
/** Each run boots a simulator, a platform with its webhook listener, and reads the page's answers. */
const RUNS = 25;
const POLL_INTERVAL_S = 15;
/** A run takes well under a second here; the whole property, with room for a busy machine. */
const RUNS_TIMEOUT_MS = 120_000;

/** Printable ASCII that encodeURIComponent escapes (the space left out: a token is trimmed). */
const URL_ESCAPED = Array.from('!"#$%&\'()*+,/:;<=>?@[\\]^`{|}~').filter(
  (char) => encodeURIComponent(char) !== char || "!'()*".includes(char),
);
const ALPHANUMERIC = Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
const HEX = Array.from('0123456789abcdef');

/** Every character Unicode calls default-ignorable, from the property, and whitespace: what a service may put inside a secret. */
const INSERTABLE = [
  ...Array.from({ length: 0x110000 }, (_, code) => code)
    .filter((code) => code < 0xd800 || code > 0xdfff)
    .map((code) => String.fromCodePoint(code))
    .filter((char) => /\p{Default_Ignorable_Code_Point}/u.test(char)),
  ' ',
  '\t',
  '\n',
  '\u00a0',
  '\u2003',
];

/** An access token: letters, digits and at least two characters a URL escapes. */
const tokenArb = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...ALPHANUMERIC, ...URL_ESCAPED), minLength: 14, maxLength: 46 }),
    fc.constantFrom(...URL_ESCAPED),
    fc.constantFrom(...URL_ESCAPED),
  )
  .map(([body, a, b]) => `t${a}${body}${b}k`);
const keyArb = fc.string({ unit: fc.constantFrom(...HEX), minLength: 96, maxLength: 96 });

type Encoding = 'none' | 'percent' | 'percent twice' | 'json' | 'json, then percent';

interface Spelling {
  /** The whole secret, or a run of at least 10 of its characters. */
  part: { from: number; length: number } | 'whole';
  casing: 'as is' | 'upper' | 'lower' | boolean[];
  inserts: { at: number; char: string }[];
  encoding: Encoding;
}

const spellingArb: fc.Arbitrary<Spelling> = fc.record({
  part: fc.oneof(fc.constant('whole' as const), fc.record({ from: fc.nat(), length: fc.integer({ min: 10, max: 40 }) })),
  casing: fc.oneof(
    fc.constantFrom('as is' as const, 'upper' as const, 'lower' as const),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 96 }),
  ),
  inserts: fc.array(fc.record({ at: fc.nat(), char: fc.constantFrom(...INSERTABLE) }), { maxLength: 4 }),
  encoding: fc.constantFrom<Encoding>('none', 'percent', 'percent twice', 'json', 'json, then percent'),
});

/** The secret as the service echoes it in `spelling`. */
function spell(secret: string, spelling: Spelling): string {
  let text = secret;
  if (spelling.part !== 'whole') {
    const length = Math.min(spelling.part.length, secret.length);
    const from = spelling.part.from % (secret.length - length + 1);
    text = secret.slice(from, from + length);
  }
  const { casing } = spelling;
  text =
    casing === 'upper'
      ? text.toUpperCase()
      : casing === 'lower'
        ? text.toLowerCase()
        : casing === 'as is'
          ? text
          : Array.from(text, (char, i) => (casing[i % casing.length] ? char.toUpperCase() : char)).join('');
  const chars = Array.from(text);
  for (const { at, char } of spelling.inserts) chars.splice(1 + (at % (chars.length - 1)), 0, char);
  text = chars.join('');
  switch (spelling.encoding) {
    case 'none':
      return text;
    case 'percent':
      return encodeURIComponent(text);
    case 'percent twice':
      return encodeURIComponent(encodeURIComponent(text));
    case 'json':
      return jsonEscaped(text);
    case 'json, then percent':
      return encodeURIComponent(jsonEscaped(text));
  }
}

/** A refusal of the contract's table quoting no secret, by status. */
const REASONS: Record<number, string> = {
  400: 'Error communicating with Garage Controller. Malformed Request. (400)',
  401: 'Error communicating with Garage Controller. Authentication error. (401)',
  404: 'Your Garage Controller cannot be found. Unplug it and plug it back in. (404)',
  428: 'Your Garage Controller requires pairing a door sensor before the request can be processed. (428)',
};

interface Echoes {
  token: string;
  key: string;
  /** Which secret each place echoes, and how. */
  places: Record<'doorName' | 'owner' | 'person' | 'channel' | 'refusal', { secret: 'token' | 'key'; spelling: Spelling }>;
  refusalStatus: 400 | 401 | 404 | 428 | 501;
  reasonStatus: 400 | 401 | 404 | 428;
}

const placeArb = fc.record({ secret: fc.constantFrom<'token' | 'key'>('token', 'key'), spelling: spellingArb });
const echoesArb: fc.Arbitrary<Echoes> = fc.record({
  token: tokenArb,
  key: keyArb,
  places: fc.record({ doorName: placeArb, owner: placeArb, person: placeArb, channel: placeArb, refusal: placeArb }),
  refusalStatus: fc.constantFrom<Echoes['refusalStatus']>(400, 401, 404, 428, 501),
  reasonStatus: fc.constantFrom<Echoes['reasonStatus']>(400, 401, 404, 428),
});

/** What the run made visible: the log at every level, Home's names, the page's answers and the errors. */
async function runEchoes(
  echoes: Echoes,
): Promise<{ log: string; home: string; page: string; errors: string; reasonLine: string | undefined }> {
  const { token, key, places } = echoes;
  const echo = (place: keyof Echoes['places']): string => spell(places[place].secret === 'token' ? token : key, places[place].spelling);
  const clock = new ManualClock();
  const sim = new AccessControlSimulator({ accessToken: token, travelTimeMs: 20, now: () => clock.now() });
  await sim.start();
  const owned = sim.devices.find((device) => device.id === SAMPLE_OWNED_DEVICE_ID);
  if (owned) owned.ownerFirstName = `Ann — ${echo('owner')}`;
  sim.renameDoor(SAMPLE_FRONT_GATE_ID, `Gate — ${echo('doorName')}`);
  const port = await freePort();
  const { api, log, platform } = bootPlatform(
    { accessToken: token, baseUrl: sim.baseUrl, pollInterval: POLL_INTERVAL_S, webhook: { port, host: '127.0.0.1', apiKey: key } },
    { clock },
  );
  const client = new AccessControlClient({ baseUrl: sim.baseUrl, accessToken: token, secrets: [key] });
  const errors: string[] = [];
  try {
    const poll = async (): Promise<void> => {
      clock.advance(POLL_INTERVAL_S * 1000);
      await platform.syncSettled();
    };
    await platform.syncSettled();
    clock.advance(0);
    await platform.syncSettled();
    await vi.waitFor(() => expect(log.lines.some((line) => line.text.startsWith('Webhook listener on'))).toBe(true));
    sim.setWebhook({ url: `http://127.0.0.1:${port}/`, apiKey: key });

    // A webhook and the history name who moved a door, and by what channel.
    const person = { id: 'u-1', firstName: echo('person'), lastName: 'Doe', emailAddress: 'doe@example.com' };
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { user: person, channel: `App — ${echo('channel')}` });
    await sim.flushWebhooks();
    await vi.waitFor(() => expect(log.lines.some((line) => line.text.startsWith('Webhook: '))).toBe(true));
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN', { user: person, channel: `App — ${echo('channel')}`, silent: true });
    await poll();
    await vi.waitFor(() => expect(log.lines.some((line) => /Shared Gate (was opened by|.*does not say who)/.test(line.text))).toBe(true));

    // A refusal quoting no secret, then one quoting a secret, of the front gate.
    const target = api.characteristic(SAMPLE_FRONT_GATE_ID, C.TargetDoorState);
    const reason = REASONS[echoes.reasonStatus] ?? '';
    sim.setFault('toggle', { kind: 'status', status: echoes.reasonStatus, body: JSON.stringify({ success: true, message: reason }) });
    await target.handleSetRequest(C.TargetDoorState.OPEN).catch((error: unknown) => errors.push(String(error)));
    await new Promise((resolve) => setImmediate(resolve));
    const reasonLine = log.lines.find((line) => line.text.includes(reason))?.text;
    const quoting = JSON.stringify({
      success: true,
      message: `Error communicating with Controller — ${echo('refusal')} — (${echoes.refusalStatus})`,
    });
    sim.setFault('toggle', { kind: 'status', status: echoes.refusalStatus, body: quoting });
    await target.handleSetRequest(C.TargetDoorState.OPEN).catch((error: unknown) => errors.push(String(error)));
    await client
      .toggle(SAMPLE_FRONT_GATE_ID, 'OPEN')
      .catch((error: unknown) => errors.push(`${String(error)} ${(error as Error).stack ?? ''}`));
    sim.clearFaults();
    await poll();

    // The settings page's answers: the account and the activity, read by its server with the saved key.
    const page = [
      await signIn(sim.baseUrl, token, { secrets: [key] }),
      await readActivity(sim.baseUrl, token, [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID], { secrets: [key] }),
    ];
    const home = [...api.registered.values()].flatMap((accessory) => [
      accessory.displayName,
      ...accessory.services.map((service) => service.displayName),
    ]);
    return {
      log: log.lines.map((line) => `${line.level}: ${line.text}`).join('\n'),
      home: JSON.stringify(home),
      page: JSON.stringify(page),
      errors: errors.join('\n'),
      reasonLine,
    };
  } finally {
    await platform.shutdown();
    await client.close();
    await sim.stop();
  }
}

describe('secrets echoed by the service in any spelling (issue 44)', () => {
  it(
    'never reach the log, Home, the page or an error; a refusal quoting no secret still says its reason',
    async () => {
      await fc.assert(
        fc.asyncProperty(echoesArb, async (echoes) => {
          const seen = await runEchoes(echoes);
          for (const [where, text] of Object.entries({ log: seen.log, home: seen.home, page: seen.page, errors: seen.errors })) {
            expect({ where, token: secretLeaks(text, echoes.token), key: secretLeaks(text, echoes.key) }).toEqual({
              where,
              token: [],
              key: [],
            });
          }
          // The door as Home names it: its name with the echo as [redacted], in the characters a HomeKit name takes.
          expect(seen.reasonLine).toMatch(/^Gate\W+redacted\W* could not be opened: /);
          expect(seen.reasonLine?.endsWith(`could not be opened: ${REASONS[echoes.reasonStatus] ?? ''}`)).toBe(true);
          // The refusal that quoted a secret still says its status and what it means.
          expect(seen.log).toMatch(
            new RegExp(
              `HTTP ${echoes.refusalStatus}: the controller [^;]+; the service's message is left out: it quoted the (access token|webhook key)`,
            ),
          );
        }),
        { numRuns: RUNS },
      );
    },
    RUNS_TIMEOUT_MS,
  );
});

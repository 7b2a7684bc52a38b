// The service client against the simulator over real HTTP: headers, gzip, liberal parsing, toggle outcomes, failures, no token leaks.
import { createServer } from 'node:http';

import { Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { ServiceError, ToggleRejectedError } from '../../../src/client/errors.js';
import { requestJson } from '../../../src/client/http.js';
import { AccessControlClient } from '../../../src/client/service-client.js';
import {
  AccessControlSimulator,
  makeDevice,
  makeDoor,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
} from '../../../dev/simulator/server.js';
import type { SimFault } from '../../../dev/simulator/server.js';
import { closeServer, listenOnLoopback } from '../../support/loopback.js';
import { echoedSpellings, secretLeaks } from '../../support/secret-leaks.js';

const TOKEN = 'client-test-token-5f2a9c';
const SHORT_TIMEOUTS = { connectMs: 500, headersMs: 500, bodyMs: 500 };
/** Whole-request deadline of reads here; a trickle sends a byte well within the body time-out, so only this ends it. */
const READ_TIMEOUT_MS = 1_000;
const TRICKLE: SimFault = { kind: 'trickle', intervalMs: 50 };

let sim: AccessControlSimulator;
let client: AccessControlClient;

beforeAll(async () => {
  sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: 50 });
  await sim.start();
  client = new AccessControlClient({
    baseUrl: `${sim.baseUrl}/`,
    accessToken: TOKEN,
    timeouts: SHORT_TIMEOUTS,
    toggleTimeoutMs: 500,
    readTimeoutMs: READ_TIMEOUT_MS,
  });
});

afterAll(async () => {
  await client.close();
  await sim.stop();
});

afterEach(() => {
  sim.clearFaults();
  sim.setAccessToken(TOKEN);
});

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  expect(`${JSON.stringify(error)}${String(error)}${String((error as Error).stack)}`).not.toContain(TOKEN);
  return error as ServiceError;
}

describe('sync', () => {
  it('reads every device and door of the account, with every header the contract lists', async () => {
    const account = await client.sync();
    expect(account.unreadable).toEqual([]);
    expect(account.devices.map((d) => d.doors.map((door) => door.name))).toEqual([['Front Gate', 'Garage Door'], ['Shared Gate']]);
    const gate = account.devices[0]?.doors[0];
    expect(gate).toMatchObject({
      id: SAMPLE_FRONT_GATE_ID,
      state: 'CLOSED',
      hasBluetoothSensor: true,
      batteryLevel: 85,
      relationship: 'Owner',
    });
    expect(account.devices[1]?.doors[0]?.relationship).toBe('Has Access');
    const headers = sim.requests.at(-1)?.headers ?? {};
    expect(headers).toMatchObject({
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${TOKEN}`,
      'accept-charset': 'utf-8',
    });
    expect(headers['accept-encoding']).toContain('gzip');
  });

  it('keeps going past a door it cannot read, and says so', async () => {
    const device = makeDevice({ doors: [makeDoor({ name: 'Odd Door' }), makeDoor({ name: 'Fine Door' })] });
    sim.devices.push(device);
    const odd = device.doors[0];
    if (odd) {
      (odd as unknown as { state: string }).state = 'HALFWAY';
      (odd as unknown as { id: unknown }).id = undefined;
    }
    try {
      const account = await client.sync();
      expect(account.unreadable).toHaveLength(1);
      expect(account.devices.at(-1)?.doors.map((d) => d.name)).toEqual(['Fine Door']);
    } finally {
      sim.devices.pop();
    }
  });

  it('keeps an unknown state as unknown rather than guessing', async () => {
    const door = sim.getDoor(SAMPLE_GARAGE_DOOR_ID);
    const saved = door?.state;
    (door as unknown as { state: string }).state = 'AJAR';
    try {
      const account = await client.sync();
      const read = account.devices.flatMap((d) => d.doors).find((d) => d.id === SAMPLE_GARAGE_DOOR_ID);
      expect(read).toMatchObject({ state: null, rawState: 'AJAR' });
    } finally {
      (door as unknown as { state: string | undefined }).state = saved;
    }
  });

  it('tells a refused token apart from other failures', async () => {
    sim.setAccessToken('another-token');
    expect((await failure(client.sync())).kind).toBe('auth');
  });

  it.each<[string, SimFault, string]>([
    ['a server error', { kind: 'status', status: 503 }, 'http'],
    ['rate limiting', { kind: 'status', status: 429, retryAfterS: 30 }, 'rate-limited'],
    ['invalid JSON', { kind: 'invalid-json' }, 'invalid-response'],
    ['the wrong shape', { kind: 'schema' }, 'invalid-response'],
    ['corrupt gzip', { kind: 'corrupt-gzip' }, 'invalid-response'],
    ['a reset mid-body', { kind: 'reset' }, 'network'],
    ['a refused connection', { kind: 'refuse' }, 'network'],
    ['no answer', { kind: 'hang' }, 'timeout'],
    ['an answer trickling in without end', TRICKLE, 'timeout'],
  ])('reports %s as a typed error', async (_what, fault, kind) => {
    sim.setFault('sync', fault);
    const error = await failure(client.sync());
    expect(error.kind).toBe(kind);
    if (kind === 'rate-limited') {
      expect(error.retryAfterMs).toBe(30_000);
    }
  });

  it('reports a truncated answer as a failure, never as data', async () => {
    sim.setFault('sync', { kind: 'truncated' });
    expect(['network', 'timeout', 'invalid-response']).toContain((await failure(client.sync())).kind);
  });

  it('reports an address that does not resolve as a network failure', async () => {
    const nowhere = new AccessControlClient({ baseUrl: 'http://door-service.invalid', accessToken: TOKEN, timeouts: SHORT_TIMEOUTS });
    try {
      expect((await failure(nowhere.sync())).kind).toBe('network');
    } finally {
      await nowhere.close();
    }
  });
});

describe('toggle', () => {
  it('asks for the state and the door gets there after its travel time', async () => {
    await client.toggle(SAMPLE_FRONT_GATE_ID, 'OPEN');
    const request = sim.requests.at(-1);
    expect(request?.path).toBe('/oauth/v1/endpoint/toggle');
    expect(JSON.parse(request?.body ?? '{}')).toEqual({ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' });
    await expect.poll(() => sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state).toBe('OPEN');
    await client.toggle(SAMPLE_FRONT_GATE_ID, 'CLOSED');
    await expect.poll(() => sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state).toBe('CLOSED');
  });

  it.each([202, 204])('takes a toggle answered HTTP %i as it takes a 200: the door moves', async (status) => {
    sim.setToggleOutcome(SAMPLE_FRONT_GATE_ID, status);
    try {
      await client.toggle(SAMPLE_FRONT_GATE_ID, 'OPEN');
      await expect.poll(() => sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state).toBe('OPEN');
    } finally {
      sim.setToggleOutcome(SAMPLE_FRONT_GATE_ID, null);
      sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { silent: true });
    }
  });

  it.each([400, 401, 404, 428, 501, 500])('tells HTTP %i apart by status although the body says success', async (status) => {
    sim.setToggleOutcome(SAMPLE_GARAGE_DOOR_ID, status);
    try {
      const error = await failure(client.toggle(SAMPLE_GARAGE_DOOR_ID, 'OPEN'));
      expect(error).toBeInstanceOf(ToggleRejectedError);
      expect(error.status).toBe(status);
      const message = error instanceof ToggleRejectedError ? error.serviceMessage : undefined;
      expect(message).toContain(`(${status})`);
      if (status === 428) {
        expect(message).toMatch(/door sensor/);
      }
    } finally {
      sim.setToggleOutcome(SAMPLE_GARAGE_DOOR_ID, null);
    }
    expect(sim.getDoor(SAMPLE_GARAGE_DOOR_ID)?.state).toBe('CLOSED');
  });

  it.each<[number, string]>([
    [401, 'auth'],
    [403, 'auth'],
    [404, 'http'],
    [429, 'rate-limited'],
  ])('gives a toggle answered HTTP %i the same kind a sync gets (%s)', async (status, kind) => {
    sim.setFault('toggle', { kind: 'status', status });
    sim.setFault('sync', { kind: 'status', status });
    expect((await failure(client.toggle(SAMPLE_GARAGE_DOOR_ID, 'OPEN'))).kind).toBe(kind);
    expect((await failure(client.sync())).kind).toBe(kind);
  });

  it.each<[string, SimFault, boolean]>([
    ['no answer', { kind: 'hang' }, true],
    ['a connection closed after the request arrived', { kind: 'refuse' }, true],
    ['an unreadable answer', { kind: 'invalid-json' }, true],
    ['a gateway time-out', { kind: 'status', status: 504 }, true],
    ['a redirect, which says nothing of what became of it', { kind: 'status', status: 302 }, true],
    ['a See Other, the answer to a POST that was carried out', { kind: 'status', status: 303 }, true],
    ['an error status from the service', { kind: 'status', status: 404 }, false],
    ['rate limiting', { kind: 'status', status: 429 }, false],
  ])('says whether a toggle that failed with %s may still have reached the service (%s)', async (_what, fault, mayHaveArrived) => {
    sim.setFault('toggle', fault);
    expect((await failure(client.toggle(SAMPLE_GARAGE_DOOR_ID, 'OPEN'))).mayHaveArrived).toBe(mayHaveArrived);
  });

  it('knows a toggle to an address with nothing listening, or that does not resolve, never reached the service', async () => {
    const closed = createServer();
    const port = await listenOnLoopback(closed);
    await closeServer(closed);
    for (const baseUrl of [`http://127.0.0.1:${port}`, 'http://door-service.invalid']) {
      const nowhere = new AccessControlClient({ baseUrl, accessToken: TOKEN, timeouts: SHORT_TIMEOUTS });
      try {
        const error = await failure(nowhere.toggle(SAMPLE_GARAGE_DOOR_ID, 'OPEN'));
        expect([error.kind, error.mayHaveArrived]).toEqual(['network', false]);
      } finally {
        await nowhere.close();
      }
    }
  });

  it('does not retry a toggle that timed out: the service may have acted', async () => {
    sim.setFault('toggle', { kind: 'hang' });
    const before = sim.countRequests('/endpoint/toggle');
    expect((await failure(client.toggle(SAMPLE_GARAGE_DOOR_ID, 'OPEN'))).kind).toBe('timeout');
    expect(sim.countRequests('/endpoint/toggle') - before).toBe(1);
  });
});

describe('a door id past 2^53 (issue 42.5)', () => {
  it("is never used in a command: JSON reads 9007199254740993 as another door's id, so that door is left out", async () => {
    // Raw text, as the service would send it: JSON.stringify could not even write the number that is past 2^53.
    const body = `{"devices":[{"id":"dev","doors":[{"id":9007199254740993,"name":"Past"},{"id":"9007199254740992","name":"Other"}]}]}`;
    const toggled: string[] = [];
    const service = createServer((req, res) => {
      let sent = '';
      req.on('data', (chunk: Buffer) => (sent += chunk.toString()));
      req.on('end', () => {
        if (req.url?.endsWith('/toggle')) toggled.push(sent);
        res.writeHead(200, { 'content-type': 'application/json' }).end(req.url?.endsWith('/toggle') ? '{"success":true}' : body);
      });
    });
    const port = await listenOnLoopback(service);
    const direct = new AccessControlClient({ baseUrl: `http://127.0.0.1:${port}`, accessToken: TOKEN, timeouts: SHORT_TIMEOUTS });
    try {
      const account = await direct.sync();
      const doors = account.devices.flatMap((device) => device.doors);
      expect(doors.map((door) => [door.name, door.id])).toEqual([['Other', '9007199254740992']]);
      expect(account.unsafeDoorNumbers).toEqual([9007199254740992]);
      expect(account.unreadable).toEqual([expect.stringContaining('beyond 2^53')]);
      // Every door the account holds, commanded: only the door that really has that id is named.
      for (const door of doors) await direct.toggle(door.id, 'OPEN');
      expect(toggled.map((sent) => JSON.parse(sent) as unknown)).toEqual([{ door_id: '9007199254740992', door_state: 'OPEN' }]);
    } finally {
      await direct.close();
      await closeServer(service);
    }
  });
});

describe('history', () => {
  it('reads the toggle history of a door, newest first', async () => {
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { channel: 'Keypad' });
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'CLOSED', { channel: 'Remote' });
    const events = await client.history({ historyType: 'door', doorId: SAMPLE_GARAGE_DOOR_ID });
    expect(events.slice(0, 2).map((e) => [e.doorState, e.channel])).toEqual([
      ['CLOSED', 'Remote'],
      ['OPEN', 'Keypad'],
    ]);
    expect(events[0]?.userName).toBe('Ada Lovelace');
    const device = await client.history({ historyType: 'device', deviceId: SAMPLE_OWNED_DEVICE_ID });
    expect(device.length).toBeGreaterThanOrEqual(2);
  });

  it('gives up on an answer trickling in without end at the whole-request deadline', async () => {
    sim.setFault('history', TRICKLE);
    expect((await failure(client.history({ historyType: 'door', doorId: SAMPLE_GARAGE_DOOR_ID }))).kind).toBe('timeout');
  });
});

describe("the service's text, without the token or the webhook key (issues 38, 44)", () => {
  const KEY = '19a2abf9217a63bb23776b677d7807cf5b117f7f2e3f38290e823af940cfd7f88af0dc6a880b9021f679f2539c071b83';

  it('leaves out a refusal that quotes the request, and cleans the names of a sync and the fields of the history', async () => {
    const keyed = new AccessControlClient({ baseUrl: sim.baseUrl, accessToken: TOKEN, timeouts: SHORT_TIMEOUTS, secrets: [KEY] });
    sim.renameDoor(SAMPLE_FRONT_GATE_ID, `Gate ${KEY.toUpperCase()}`);
    sim.addHistoryEvent({
      doorId: SAMPLE_FRONT_GATE_ID,
      doorState: 'OPEN',
      at: new Date(),
      channel: `App ${TOKEN}`,
      user: { id: 'u-1', firstName: TOKEN, lastName: KEY, emailAddress: 'who@example.com' },
    });
    try {
      sim.setFault('toggle', {
        kind: 'status',
        status: 400,
        body: JSON.stringify({ success: true, message: `Malformed Request for Bearer ${TOKEN} (400)` }),
      });
      const refused = await failure(keyed.toggle(SAMPLE_GARAGE_DOOR_ID, 'OPEN'));
      expect(refused.message).toBe(
        "the service refused the command (HTTP 400: the controller reported a malformed request); the service's message is left out: it quoted the access token",
      );
      expect(refused).toMatchObject({ status: 400, serviceMessage: undefined });

      const account = await keyed.sync();
      const names = account.devices.flatMap((device) => device.doors.map((door) => door.name));
      expect(names).toContain('Gate [redacted]');

      const history = await keyed.history({ historyType: 'door', doorId: SAMPLE_FRONT_GATE_ID });
      const said = JSON.stringify([account, history]);
      expect(said).toContain('App [redacted]');
      expect(said).not.toContain(TOKEN);
      expect(said.toLowerCase()).not.toContain(KEY);
    } finally {
      sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Front Gate');
      await keyed.close();
    }
  });
});

describe("a refusal without the service's message (issue 44)", () => {
  it.each([
    [400, 'the controller reported a malformed request'],
    [404, 'the controller cannot be found: unplug it and plug it back in'],
    [428, 'the controller needs a door sensor paired before it can do this'],
  ])('HTTP %i says what the status means in the contract', async (status, meaning) => {
    sim.setFault('toggle', { kind: 'status', status, body: JSON.stringify({ success: true }) });
    const refused = await failure(client.toggle(SAMPLE_GARAGE_DOOR_ID, 'OPEN'));
    expect(refused.message).toBe(`the service refused the command (HTTP ${status}: ${meaning})`);
  });
});

describe('a failure of the transport, without the token or the webhook key (issue 44)', () => {
  const KEY = '802f88fa7d176700dfc15c5dddc54232284c70c62ba78c90423ca75fbcb6e080deb1c702aad667fa6888da11bcc16879';

  /** A connection that fails with `message` and no system code, as a proxy agent or an interceptor may. */
  class FailingDispatcher extends Dispatcher {
    constructor(private readonly message: string) {
      super();
    }
    override dispatch(_options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      queueMicrotask(() => (handler as { onError?: (error: Error) => void }).onError?.(new Error(this.message)));
      return true;
    }
  }

  const fail = (message: string) =>
    requestJson(new FailingDispatcher(message), {
      method: 'GET',
      url: new URL('http://127.0.0.1:1/oauth/v1/endpoints/sync'),
      headers: {},
      secrets: [TOKEN, KEY],
    });

  it.each(Object.entries({ ...echoedSpellings(TOKEN), 'the key, percent-encoded': encodeURIComponent(` ${KEY} `) }))(
    'leaves out an error text quoting a secret %s, and says the connection failed',
    async (_, spelling) => {
      const error = await failure(fail(`proxy refused CONNECT for Bearer ${spelling}`));
      expect(error.kind).toBe('network');
      expect(error.message).toMatch(
        /^the service could not be reached \(the error's text is left out: it quoted the (access token|webhook key)\)$/,
      );
      expect(secretLeaks(`${error.message}${String(error.stack)}`, TOKEN)).toEqual([]);
      expect(secretLeaks(`${error.message}${String(error.stack)}`, KEY)).toEqual([]);
    },
  );

  it('says an error text that quotes no secret', async () => {
    expect((await failure(fail('proxy refused CONNECT\nto the service'))).message).toBe(
      'the service could not be reached (proxy refused CONNECT to the service)',
    );
  });
});

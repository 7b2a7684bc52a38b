// Tests the service simulator over real loopback HTTP: auth, encoding, sync, toggle, history, webhooks, faults, control.
import { once } from 'node:events';
import { Agent, createServer, request } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AccessControlSimulator,
  makeDoor,
  SAMPLE_FRONT_GATE_ID,
  SAMPLE_GARAGE_DOOR_ID,
  SAMPLE_OWNED_DEVICE_ID,
  SAMPLE_SHARED_DEVICE_ID,
  SAMPLE_SHARED_GATE_ID,
  sampleHistory,
} from '../../dev/simulator/server.js';
import { readActivity } from '../../src/ui/server/activity.js';
import type { SimulatorOptions, WebhookTarget } from '../../dev/simulator/server.js';

const TOKEN = 'test-token';
/** Short enough to keep the file fast, long enough to observe the door mid-travel. */
const TEST_TRAVEL_TIME_MS = 100;
/** For asserting mid-travel state: long enough that a slow loaded machine still answers sync before arrival. */
const OBSERVABLE_TRAVEL_TIME_MS = 300;
/** Longer than any test: the travel can only end by being replaced or by stop(). */
const ENDLESS_TRAVEL_TIME_MS = 60_000;
const POLL_INTERVAL_MS = 10;
const POLL_TIMEOUT_MS = 2_000;
const SERVICE_DATE_PATTERN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SYNC_PATH = '/oauth/v1/endpoints/sync';
const TOGGLE_PATH = '/oauth/v1/endpoint/toggle';
const HISTORY_PATH = '/oauth/v1/endpoints/toggle-history';

const running: { stop(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

async function startSim(options: Partial<SimulatorOptions> = {}): Promise<AccessControlSimulator> {
  const sim = new AccessControlSimulator({ accessToken: TOKEN, travelTimeMs: TEST_TRAVEL_TIME_MS, ...options });
  await sim.start();
  running.push(sim);
  return sim;
}

function apiHeaders(token = TOKEN): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    Accept: 'application/json',
    'Content-Type': 'application/json',
    'Accept-Charset': 'utf-8',
    'Accept-Encoding': 'gzip, deflate',
  };
}

async function api(sim: AccessControlSimulator, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${sim.baseUrl}${path}`, { ...init, headers: { ...apiHeaders(), ...(init.headers as Record<string, string>) } });
}

async function toggle(sim: AccessControlSimulator, body: unknown, path = TOGGLE_PATH): Promise<Response> {
  return api(sim, path, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) });
}

interface SyncDoor {
  id: string;
  state: string;
  last_toggled: string;
  [key: string]: unknown;
}
interface SyncDevice {
  id: string;
  doors: SyncDoor[];
  [key: string]: unknown;
}

async function syncDoor(sim: AccessControlSimulator, doorId: string): Promise<SyncDoor | undefined> {
  const body = (await (await api(sim, SYNC_PATH)).json()) as { devices: SyncDevice[] };
  return body.devices.flatMap((device) => device.doors).find((door) => door.id === doorId);
}

async function waitFor(check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + POLL_TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error('condition not met in time');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/** Raw node:http GET, so the test sees the bytes as sent (fetch would decompress). */
async function rawGet(url: string, headers: Record<string, string>, agent?: Agent): Promise<{ res: IncomingMessage; raw: Buffer }> {
  const req = request(url, { headers, ...(agent ? { agent } : {}) });
  req.end();
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of res as AsyncIterable<Buffer>) {
    chunks.push(chunk);
  }
  return { res, raw: Buffer.concat(chunks) };
}

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver answering `status` and recording every message. */
async function startReceiver(status = 200): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"message":"ok"}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  running.push({
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received };
}

describe('authentication', () => {
  it('answers 401 with the invalid-token body for a wrong token, and for the old token after rotation', async () => {
    const sim = await startSim();
    const wrong = await api(sim, SYNC_PATH, { headers: { Authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ success: false, message: 'Invalid access token' });

    sim.setAccessToken('rotated');
    expect((await api(sim, SYNC_PATH)).status).toBe(401);
    expect((await api(sim, SYNC_PATH, { headers: { Authorization: 'Bearer rotated' } })).status).toBe(200);
  });

  it('answers 401 when a required header is missing, unless strictHeaders is off', async () => {
    const strict = await startSim();
    const headers = apiHeaders();
    delete headers['Accept-Charset'];
    const missing = await fetch(`${strict.baseUrl}${SYNC_PATH}`, { headers });
    expect(missing.status).toBe(401);
    const wrongAccept = await api(strict, SYNC_PATH, { headers: { Accept: 'text/html' } });
    expect(wrongAccept.status).toBe(401);

    const lenient = await startSim({ strictHeaders: false });
    expect((await fetch(`${lenient.baseUrl}${SYNC_PATH}`, { headers })).status).toBe(200);
  });

  it('answers 404 JSON for an unknown path and records every API request', async () => {
    const sim = await startSim();
    const res = await api(sim, '/oauth/v1/nothing');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ success: false });
    await api(sim, SYNC_PATH);
    expect(sim.countRequests('/sync')).toBe(1);
    expect(sim.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});

describe('encoding and connections', () => {
  it('gzips when Accept-Encoding includes gzip and sends plain JSON otherwise', async () => {
    const sim = await startSim();
    const zipped = await rawGet(`${sim.baseUrl}${SYNC_PATH}`, apiHeaders());
    expect(zipped.res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.raw).toString('utf8'))).toHaveProperty('devices');

    const plain = await rawGet(`${sim.baseUrl}${SYNC_PATH}`, { ...apiHeaders(), 'Accept-Encoding': 'identity' });
    expect(plain.res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.raw.toString('utf8'))).toHaveProperty('devices');
  });

  it('keeps connections alive, and stop() still closes them', async () => {
    const sim = await startSim();
    const agent = new Agent({ keepAlive: true });
    try {
      await rawGet(`${sim.baseUrl}${SYNC_PATH}`, apiHeaders(), agent);
      const second = request(`${sim.baseUrl}${SYNC_PATH}`, { headers: apiHeaders(), agent });
      second.end();
      const [res] = (await once(second, 'response')) as [IncomingMessage];
      res.resume();
      await once(res, 'end');
      expect(second.reusedSocket).toBe(true);
      await sim.stop();
    } finally {
      agent.destroy();
    }
  });
});

describe('sync', () => {
  it('returns the sample account in the contract shape', async () => {
    const sim = await startSim();
    const res = await api(sim, SYNC_PATH);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { devices: SyncDevice[] };
    expect(body.devices.map((device) => device.id)).toEqual([SAMPLE_OWNED_DEVICE_ID, SAMPLE_SHARED_DEVICE_ID]);
    const [owned] = body.devices;
    expect(Object.keys(owned ?? {}).sort()).toEqual(
      [
        'id',
        'active',
        'registered',
        'number_of_entities_controlled',
        'owner_first_name',
        'owner_last_name',
        'last_contact',
        'bluetooth_onboard',
        'bluetooth_mac_address',
        'time_before_door_open_alert',
        'blackbox_code',
        'software_version',
        'doors',
      ].sort(),
    );
    expect(owned).toMatchObject({ owner_first_name: 'Ada', software_version: '2.4.1', number_of_entities_controlled: 2 });
    expect(owned?.last_contact).toMatch(SERVICE_DATE_PATTERN);
    const [front, garage] = owned?.doors ?? [];
    expect(Object.keys(front ?? {}).sort()).toEqual(
      [
        'id',
        'name',
        'entity_number',
        'active',
        'state',
        'last_toggled',
        'user_relationship',
        'image',
        'light',
        'sensor',
        'bluetooth_sensor',
        'bluetooth_sensor_mac_address',
        'bluetooth_sensor_battery_level',
        'door_auto_close_enabled',
        'door_auto_close_delay',
      ].sort(),
    );
    expect(front).toMatchObject({
      id: SAMPLE_FRONT_GATE_ID,
      name: 'Front Gate',
      state: 'CLOSED',
      bluetooth_sensor: true,
      bluetooth_sensor_battery_level: 85,
    });
    expect(front?.last_toggled).toMatch(SERVICE_DATE_PATTERN);
    expect(garage).toMatchObject({ id: SAMPLE_GARAGE_DOOR_ID, bluetooth_sensor: false, bluetooth_sensor_battery_level: 0 });
    expect(body.devices[1]?.doors[0]).toMatchObject({ id: SAMPLE_SHARED_GATE_ID, user_relationship: 'Has Access' });
  });

  it('reflects added doors, battery and device changes', async () => {
    const sim = await startSim();
    for (let index = 0; index < 150; index += 1) {
      sim.addDoor(SAMPLE_OWNED_DEVICE_ID, makeDoor({ name: `Door ${index}` }));
    }
    sim.setBatteryLevel(SAMPLE_FRONT_GATE_ID, 12);
    sim.setDeviceActive(SAMPLE_SHARED_DEVICE_ID, false);
    sim.removeDoor(SAMPLE_GARAGE_DOOR_ID);
    const body = (await (await api(sim, SYNC_PATH)).json()) as { devices: SyncDevice[] };
    expect(body.devices[0]?.doors).toHaveLength(151);
    expect(body.devices[0]?.doors[0]?.bluetooth_sensor_battery_level).toBe(12);
    expect(body.devices[1]?.active).toBe(false);
  });
});

describe('toggle', () => {
  it('accepts the request, shows the old state during travel and the new one afterwards', async () => {
    const sim = await startSim({ travelTimeMs: OBSERVABLE_TRAVEL_TIME_MS });
    const before = await syncDoor(sim, SAMPLE_FRONT_GATE_ID);
    const res = await toggle(sim, { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; timestamp: number; message: string };
    expect(body).toMatchObject({ success: true, message: '200' });
    expect(Number.isInteger(body.timestamp)).toBe(true);
    expect((await syncDoor(sim, SAMPLE_FRONT_GATE_ID))?.state).toBe('CLOSED');

    await waitFor(async () => (await syncDoor(sim, SAMPLE_FRONT_GATE_ID))?.state === 'OPEN');
    expect((await syncDoor(sim, SAMPLE_FRONT_GATE_ID))?.last_toggled).not.toBe(before?.last_toggled);
    expect(sim.historyEvents().at(-1)).toMatchObject({ doorId: SAMPLE_FRONT_GATE_ID, doorState: 'OPEN', channel: 'API', wasSuccess: true });
  });

  it('accepts the plural path, ignores a request for the current state, and lets a new request replace a pending one', async () => {
    const sim = await startSim({ travelTimeMs: ENDLESS_TRAVEL_TIME_MS });
    const same = await toggle(sim, { door_id: SAMPLE_GARAGE_DOOR_ID, door_state: 'CLOSED' }, '/oauth/v1/endpoints/toggle');
    expect(same.status).toBe(200);
    expect(sim.pendingTravels()).toEqual([]);

    await toggle(sim, { door_id: SAMPLE_GARAGE_DOOR_ID, door_state: 'OPEN' });
    expect(sim.pendingTravels()).toHaveLength(1);
    await toggle(sim, { door_id: SAMPLE_GARAGE_DOOR_ID, door_state: 'CLOSED' });
    expect(sim.pendingTravels()).toEqual([]);
    expect(sim.getDoor(SAMPLE_GARAGE_DOOR_ID)?.state).toBe('CLOSED');
  });

  it('answers a programmed 428 with success true and the contract message, without moving the door', async () => {
    const sim = await startSim();
    sim.setToggleOutcome(SAMPLE_SHARED_GATE_ID, 428);
    const res = await toggle(sim, { door_id: SAMPLE_SHARED_GATE_ID, door_state: 'OPEN' });
    expect(res.status).toBe(428);
    expect(await res.json()).toMatchObject({
      success: true,
      message: 'Your Gate Controller requires pairing a door sensor before the request can be processed. (428)',
    });
    expect(sim.pendingTravels()).toEqual([]);
    expect(sim.historyEvents().at(-1)).toMatchObject({ doorId: SAMPLE_SHARED_GATE_ID, wasSuccess: false });

    sim.setToggleOutcome(SAMPLE_SHARED_GATE_ID, 500);
    expect((await toggle(sim, { door_id: SAMPLE_SHARED_GATE_ID, door_state: 'OPEN' })).status).toBe(500);
    sim.setToggleOutcome(SAMPLE_SHARED_GATE_ID, null);
    expect((await toggle(sim, { door_id: SAMPLE_SHARED_GATE_ID, door_state: 'OPEN' })).status).toBe(200);
  });

  it('answers a programmed 202 with the contract body and a 204 with no body, and moves the door as for a 200', async () => {
    const sim = await startSim();
    sim.setToggleOutcome(SAMPLE_SHARED_GATE_ID, 202);
    const accepted = await toggle(sim, { door_id: SAMPLE_SHARED_GATE_ID, door_state: 'OPEN' });
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toMatchObject({ success: true, message: '202' });
    expect(sim.pendingTravels()).toMatchObject([{ doorId: SAMPLE_SHARED_GATE_ID, target: 'OPEN' }]);

    sim.setToggleOutcome(SAMPLE_FRONT_GATE_ID, 204);
    const empty = await toggle(sim, { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' });
    expect(empty.status).toBe(204);
    expect(empty.headers.get('content-type')).toBeNull();
    expect(await empty.text()).toBe('');
    expect(sim.pendingTravels().map((travel) => travel.doorId)).toEqual([SAMPLE_SHARED_GATE_ID, SAMPLE_FRONT_GATE_ID]);
  });

  it('answers 400 for malformed bodies and 404 for unknown doors or inactive controllers', async () => {
    const sim = await startSim();
    for (const bad of ['{not json', { door_id: SAMPLE_FRONT_GATE_ID }, { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'open' }]) {
      const res = await toggle(sim, bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        success: true,
        message: 'Error communicating with Gate Controller. Malformed Request. (400)',
      });
    }
    const unknown = await toggle(sim, { door_id: '00000000-0000-4000-8000-000000000000', door_state: 'OPEN' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toContain('unplug it and plug it back in');

    sim.setDeviceActive(SAMPLE_OWNED_DEVICE_ID, false);
    expect((await toggle(sim, { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' })).status).toBe(404);
  });
});

describe('history', () => {
  interface HistoryBody {
    success: boolean;
    data: { toggle_events: { door_id: string; door_state: string; toggle_date_time: string; channel: string }[] };
  }

  async function history(sim: AccessControlSimulator, query: string, path = HISTORY_PATH): Promise<Response> {
    return api(sim, `${path}?${query}`);
  }

  async function seeded(): Promise<AccessControlSimulator> {
    const sim = await startSim();
    sim.addHistoryEvent({ doorId: SAMPLE_FRONT_GATE_ID, doorState: 'OPEN', at: new Date('2025-03-01T10:00:00Z') });
    sim.addHistoryEvent({ doorId: SAMPLE_GARAGE_DOOR_ID, doorState: 'OPEN', at: new Date('2025-03-02T10:00:00Z') });
    sim.addHistoryEvent({ doorId: SAMPLE_FRONT_GATE_ID, doorState: 'CLOSED', at: new Date('2025-03-03T23:59:59Z'), channel: 'Remote' });
    sim.addHistoryEvent({ doorId: SAMPLE_SHARED_GATE_ID, doorState: 'OPEN', at: new Date('2025-03-04T00:00:00Z') });
    return sim;
  }

  it('filters by door, device and account, newest first, with inclusive dates', async () => {
    const sim = await seeded();
    const door = (await (await history(sim, `history_type=door&door_id=${SAMPLE_FRONT_GATE_ID}`)).json()) as HistoryBody;
    expect(door.success).toBe(true);
    expect(door.data.toggle_events.map((event) => event.toggle_date_time)).toEqual(['2025-03-03 23:59:59', '2025-03-01 10:00:00']);
    expect(door.data.toggle_events[0]).toMatchObject({ door_state: 'CLOSED', channel: 'Remote' });

    const device = (await (await history(sim, `history_type=device&device_id=${SAMPLE_OWNED_DEVICE_ID}`)).json()) as HistoryBody;
    expect(device.data.toggle_events).toHaveLength(3);

    const user = (await (await history(sim, 'history_type=user', `${HISTORY_PATH}/`)).json()) as HistoryBody;
    expect(user.data.toggle_events.map((event) => event.door_id)).toEqual([
      SAMPLE_SHARED_GATE_ID,
      SAMPLE_FRONT_GATE_ID,
      SAMPLE_GARAGE_DOOR_ID,
      SAMPLE_FRONT_GATE_ID,
    ]);

    const ranged = (await (await history(sim, 'history_type=user&start_date=2025-03-02&end_date=2025-03-03')).json()) as HistoryBody;
    expect(ranged.data.toggle_events.map((event) => event.toggle_date_time)).toEqual(['2025-03-03 23:59:59', '2025-03-02 10:00:00']);
  });

  it('writes its history oldest first, or with dates alone, as told at the start or later', async () => {
    const sim = await seeded();
    const times = async (): Promise<string[]> => {
      const body = (await (await history(sim, `history_type=door&door_id=${SAMPLE_FRONT_GATE_ID}`)).json()) as HistoryBody;
      return body.data.toggle_events.map((event) => event.toggle_date_time);
    };
    sim.setHistoryShape({ order: 'oldest-first' });
    expect(await times()).toEqual(['2025-03-01 10:00:00', '2025-03-03 23:59:59']);
    sim.setHistoryShape({ dates: 'date-only' });
    expect(await times()).toEqual(['2025-03-03', '2025-03-01']);
    const other = await startSim({ history: { order: 'oldest-first', dates: 'date-only' } });
    other.addHistoryEvent({ doorId: SAMPLE_FRONT_GATE_ID, doorState: 'OPEN', at: new Date('2025-03-01T10:00:00Z') });
    other.addHistoryEvent({ doorId: SAMPLE_FRONT_GATE_ID, doorState: 'CLOSED', at: new Date('2025-03-02T10:00:00Z') });
    const body = (await (await history(other, 'history_type=user')).json()) as HistoryBody;
    expect(body.data.toggle_events.map((event) => event.toggle_date_time)).toEqual(['2025-03-01', '2025-03-02']);
  });

  it('writes its history shuffled, in ISO 8601 with the zone of its clock (the sync too), an entry dated as given, and refuses a controller history on request', async () => {
    const sim = await seeded();
    const read = async (query: string): Promise<Response> => history(sim, query);
    const times = async (): Promise<string[]> => {
      const body = (await (await read(`history_type=door&door_id=${SAMPLE_FRONT_GATE_ID}`)).json()) as HistoryBody;
      return body.data.toggle_events.map((event) => event.toggle_date_time);
    };
    sim.setHistoryShape({ dates: 'iso', zoneOffsetMinutes: 60 });
    expect(await times()).toEqual(['2025-03-04T00:59:59+01:00', '2025-03-01T11:00:00+01:00']);
    sim.setHistoryShape({ dates: 'iso' });
    expect(await times()).toEqual(['2025-03-03T23:59:59Z', '2025-03-01T10:00:00Z']);
    // A service keeping local time writes last_toggled in it too.
    sim.setHistoryShape({ zoneOffsetMinutes: -330 });
    expect(await times()).toEqual(['2025-03-03 18:29:59', '2025-03-01 04:30:00']);
    const sync = (await (await api(sim, SYNC_PATH)).json()) as { devices: { doors: { last_toggled: string }[] }[] };
    expect(sync.devices[0]?.doors[0]?.last_toggled).toBe('2025-01-15 03:00:00');
    sim.addHistoryEvent({
      doorId: SAMPLE_FRONT_GATE_ID,
      doorState: 'OPEN',
      at: new Date('2025-03-05T10:00:00Z'),
      dateText: '05/03/2025 10:00:00',
    });
    sim.setHistoryShape({ order: 'shuffled' });
    const shuffled = await times();
    expect(shuffled).toContain('05/03/2025 10:00:00');
    expect(shuffled).not.toEqual(['05/03/2025 10:00:00', '2025-03-03 23:59:59', '2025-03-01 10:00:00']);
    expect([...shuffled].sort()).toEqual(['05/03/2025 10:00:00', '2025-03-01 10:00:00', '2025-03-03 23:59:59']);
    expect(await times()).toEqual(shuffled);
    sim.setHistoryShape({ deviceHistory: false });
    const refused = await read(`history_type=device&device_id=${SAMPLE_OWNED_DEVICE_ID}`);
    expect(refused.status).toBe(400);
    expect((await read(`history_type=door&door_id=${SAMPLE_FRONT_GATE_ID}`)).status).toBe(200);
  });

  it("holds a sample week that names the household: the settings page's activity shows three people and a refused attempt", async () => {
    const sim = await startSim();
    for (const event of sampleHistory(Date.now())) sim.addHistoryEvent(event);
    const answer = await readActivity(sim.baseUrl, TOKEN, [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_SHARED_GATE_ID]);
    if (!answer.ok) throw new Error(answer.message);
    const entries = answer.doors.flatMap((door) => (door.ok ? door.entries : []));
    expect(answer.doors.every((door) => door.ok && door.entries.length > 0)).toBe(true);
    expect(new Set(entries.map((entry) => entry.person?.name))).toEqual(new Set(['Grace Hopper', 'Alan Turing', 'Ada Lovelace']));
    expect(entries.filter((entry) => entry.outcome === 'refused').map((entry) => entry.person?.name)).toEqual(['Alan Turing']);
  });

  it('answers 400 JSON for missing or bad parameters', async () => {
    const sim = await startSim();
    for (const query of [
      '',
      'history_type=door',
      'history_type=device',
      'history_type=week',
      'history_type=user&start_date=2025-02-30',
      'history_type=user&start_date=2025-03-02&end_date=2025-03-01',
    ]) {
      const res = await history(sim, query);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toMatchObject({ success: false, message: expect.any(String) as unknown });
    }
  });
});

describe('webhooks', () => {
  it('posts a door_state_change with the key header for external changes and toggle completions', async () => {
    const receiver = await startReceiver();
    const sim = await startSim({ webhook: { url: receiver.url, apiKey: 'k'.repeat(96) } });
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { channel: 'Remote' });
    sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { silent: true });
    await toggle(sim, { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'CLOSED' });
    await waitFor(() => sim.webhookDeliveries.length === 2);

    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0]?.headers['x-service-api-key']).toBe('k'.repeat(96));
    const first = JSON.parse(receiver.received[0]?.body ?? '') as Record<string, unknown>;
    expect(first).toMatchObject({
      eventType: 'door_state_change',
      doorID: SAMPLE_FRONT_GATE_ID,
      deviceID: SAMPLE_OWNED_DEVICE_ID,
      doorState: 'OPEN',
      channel: 'Remote',
      userThatToggled: { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com' },
    });
    expect(first.eventOccurredUTC).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(Number.isInteger(first.eventOccurred)).toBe(true);
    expect(sim.webhookDeliveries[1]).toMatchObject({ status: 200, body: { doorState: 'CLOSED', channel: 'API' } });
  });

  it('uses the table spelling and a custom header name when asked, and records failures without retrying', async () => {
    const receiver = await startReceiver(403);
    const target: WebhookTarget = { url: receiver.url, apiKey: 'secret', headerName: 'X-Other-Key', spelling: 'table' };
    const sim = await startSim({ webhook: target });
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'OPEN');
    await sim.flushWebhooks();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.headers['x-other-key']).toBe('secret');
    expect(JSON.parse(receiver.received[0]?.body ?? '')).toMatchObject({
      doorId: SAMPLE_SHARED_GATE_ID,
      deviceId: SAMPLE_SHARED_DEVICE_ID,
    });
    expect(sim.webhookDeliveries).toEqual([expect.objectContaining({ status: 403 })]);

    sim.setWebhook({ url: 'http://127.0.0.1:1/unreachable', apiKey: 'x' });
    sim.setDoorState(SAMPLE_SHARED_GATE_ID, 'CLOSED');
    await sim.flushWebhooks();
    expect(sim.webhookDeliveries[1]?.error).toEqual(expect.any(String));
  });

  it('sends raw and built events on demand, with headers overridden or removed', async () => {
    const receiver = await startReceiver();
    const sim = await startSim({ webhook: { url: receiver.url, apiKey: 'secret' } });
    const event = sim.buildWebhookEvent(SAMPLE_FRONT_GATE_ID, { eventType: 'door1_open' });
    expect(event).toMatchObject({ doorID: SAMPLE_FRONT_GATE_ID, doorState: 'CLOSED', eventType: 'door1_open' });
    expect((await sim.sendRawWebhook(event)).status).toBe(200);
    await sim.sendRawWebhook('{broken', { 'X-Service-API-Key': null });
    expect(receiver.received[1]).toMatchObject({ body: '{broken' });
    expect(receiver.received[1]?.headers['x-service-api-key']).toBeUndefined();
    expect(sim.webhookDeliveries).toEqual([]);
  });
});

describe('faults', () => {
  it('serves a status with Retry-After for the given number of requests only', async () => {
    const sim = await startSim();
    sim.setFault('sync', { kind: 'status', status: 429, retryAfterS: 30 }, { times: 1 });
    const limited = await api(sim, SYNC_PATH);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect((await api(sim, SYNC_PATH)).status).toBe(200);
  });

  it('serves invalid JSON, schema violations, corrupt gzip, truncated and reset bodies', async () => {
    const sim = await startSim();
    sim.setFault('sync', { kind: 'invalid-json' }, { times: 1 });
    await expect((await api(sim, SYNC_PATH)).json()).rejects.toThrow();
    sim.setFault('sync', { kind: 'schema' }, { times: 1 });
    expect(await (await api(sim, SYNC_PATH)).json()).toEqual({ devices: 'nope' });
    for (const kind of ['corrupt-gzip', 'truncated', 'reset'] as const) {
      sim.setFault('all', { kind }, { times: 1 });
      await expect(
        api(sim, SYNC_PATH).then((res) => res.arrayBuffer()),
        kind,
      ).rejects.toThrow();
    }
    expect((await api(sim, SYNC_PATH)).status).toBe(200);
  });

  it('refuses connections for refuse faults and outages while the control interface keeps working', async () => {
    const sim = await startSim();
    sim.setFault('toggle', { kind: 'refuse' });
    await expect(toggle(sim, { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' })).rejects.toThrow();
    expect((await api(sim, SYNC_PATH)).status).toBe(200);
    sim.setFault('toggle', null);

    sim.setOutage(true);
    await expect(api(sim, SYNC_PATH)).rejects.toThrow();
    const state = await fetch(`${sim.baseUrl}/_simulator/state`);
    expect(await state.json()).toMatchObject({ outage: true });
    sim.setOutage(false);
    expect((await api(sim, SYNC_PATH)).status).toBe(200);
  });

  it('never answers a hanging request, and stop() cleans it up', async () => {
    const sim = await startSim();
    sim.setFault('history', { kind: 'hang' });
    const pending = api(sim, `${HISTORY_PATH}?history_type=user`);
    await waitFor(() => sim.countRequests('/toggle-history') === 1);
    await sim.stop();
    await expect(pending).rejects.toThrow();
  });
});

describe('delay faults', () => {
  it('answers a slow endpoint late and acts then, also when the client hung up meanwhile', async () => {
    const sim = await startSim();
    sim.setFault('toggle', { kind: 'delay', ms: 300 }, { times: 1 });
    const aborted = new AbortController();
    const request = api(sim, TOGGLE_PATH, {
      method: 'POST',
      body: JSON.stringify({ door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' }),
      signal: aborted.signal,
    });
    await waitFor(() => sim.countRequests('/toggle') === 1);
    aborted.abort();
    await expect(request).rejects.toThrow();
    // Not acted on before the delay ran out: the door never started to move.
    expect(sim.historyEvents().some((event) => event.doorId === SAMPLE_FRONT_GATE_ID && event.channel === 'API')).toBe(false);
    await waitFor(() => sim.historyEvents().some((event) => event.doorId === SAMPLE_FRONT_GATE_ID && event.channel === 'API'));
    expect((await toggle(sim, { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'CLOSED' })).status).toBe(200);
  });

  it('acts on nothing once stopped during a delay', async () => {
    const sim = await startSim();
    sim.setFault('toggle', { kind: 'delay', ms: 60_000 });
    const pending = toggle(sim, { door_id: SAMPLE_FRONT_GATE_ID, door_state: 'OPEN' });
    await waitFor(() => sim.countRequests('/toggle') === 1);
    await sim.stop();
    await expect(pending).rejects.toThrow();
    expect(sim.historyEvents().some((event) => event.channel === 'API')).toBe(false);
  });
});

describe('control interface', () => {
  async function control(sim: AccessControlSimulator, path: string, body: unknown): Promise<Response> {
    return fetch(`${sim.baseUrl}/_simulator/${path}`, { method: 'POST', body: JSON.stringify(body) });
  }

  it('changes doors, outcomes, outage and devices, and rejects bad input', async () => {
    const receiver = await startReceiver();
    const sim = await startSim({ webhook: { url: receiver.url, apiKey: 'secret' } });
    expect((await control(sim, `doors/${SAMPLE_FRONT_GATE_ID}`, { state: 'OPEN' })).status).toBe(200);
    expect(sim.getDoor(SAMPLE_FRONT_GATE_ID)?.state).toBe('OPEN');
    await sim.flushWebhooks();
    expect(sim.webhookDeliveries).toHaveLength(1);
    // A sample person moves it: the webhook names them.
    expect((await control(sim, `doors/${SAMPLE_FRONT_GATE_ID}`, { state: 'CLOSED', person: 'grace' })).status).toBe(200);
    await sim.flushWebhooks();
    expect(sim.webhookDeliveries[1]?.body.userThatToggled).toMatchObject({ emailAddress: 'grace@example.com' });
    expect((await control(sim, `doors/${SAMPLE_FRONT_GATE_ID}`, { state: 'OPEN', person: 'mallory' })).status).toBe(400);

    expect((await control(sim, `doors/${SAMPLE_GARAGE_DOOR_ID}/toggle-outcome`, { status: 501 })).status).toBe(200);
    expect((await toggle(sim, { door_id: SAMPLE_GARAGE_DOOR_ID, door_state: 'OPEN' })).status).toBe(501);
    expect((await control(sim, `doors/${SAMPLE_GARAGE_DOOR_ID}/toggle-outcome`, { status: null })).status).toBe(200);

    expect((await control(sim, `doors/${SAMPLE_GARAGE_DOOR_ID}/name`, { name: 'Carport' })).status).toBe(200);
    expect(sim.getDoor(SAMPLE_GARAGE_DOOR_ID)?.name).toBe('Carport');

    expect((await control(sim, `devices/${SAMPLE_SHARED_DEVICE_ID}`, { active: false })).status).toBe(200);
    expect((await control(sim, 'outage', { on: true })).status).toBe(200);
    const snapshot = (await (await fetch(`${sim.baseUrl}/_simulator/state`)).json()) as { outage: boolean; devices: SyncDevice[] };
    expect(snapshot.outage).toBe(true);
    expect(snapshot.devices[1]?.active).toBe(false);

    expect((await control(sim, `doors/${SAMPLE_FRONT_GATE_ID}`, { state: 'AJAR' })).status).toBe(400);
    expect((await control(sim, 'outage', 'yes')).status).toBe(400);
    expect((await control(sim, `doors/${SAMPLE_GARAGE_DOOR_ID}/name`, { name: 42 })).status).toBe(400);
    expect((await control(sim, 'doors/no-such-door/name', { name: 'Shed' })).status).toBe(404);
    expect((await control(sim, 'doors/no-such-door', { state: 'OPEN' })).status).toBe(404);
  });

  it('sends the sample enforcer events: a user at a door, a vehicle at a controller only', async () => {
    const receiver = await startReceiver();
    const sim = await startSim({ webhook: { url: receiver.url, apiKey: 'secret' } });
    expect((await control(sim, 'enforcer', { sample: 'unauthorized-user', doorId: SAMPLE_FRONT_GATE_ID })).status).toBe(200);
    expect((await control(sim, 'enforcer', { sample: 'unauthorized-vehicle', deviceId: SAMPLE_SHARED_DEVICE_ID })).status).toBe(200);
    await sim.flushWebhooks();
    const bodies = sim.webhookDeliveries.map((delivery) => delivery.body);
    expect(bodies).toMatchObject([
      { eventType: 'enforcer_unauthorized_user', doorID: SAMPLE_FRONT_GATE_ID, userThatToggled: { firstName: 'Mallory' } },
      { eventType: 'enforcer_unauthorized_vehicle', deviceID: SAMPLE_SHARED_DEVICE_ID, vehicle: { licensePlate: 'KX-482-PD' } },
    ]);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).not.toHaveProperty('doorID');
    expect((await control(sim, 'enforcer', { sample: 'burglar', doorId: SAMPLE_FRONT_GATE_ID })).status).toBe(400);
    expect((await control(sim, 'enforcer', { sample: 'unauthorized-user', doorId: 'no-such-door' })).status).toBe(404);
  });
});

// The settings server process (src/ui/server/server.ts) as the Homebridge UI drives it: every request, however malformed, gets a short answer naming the field, and nothing goes to stderr.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MockInstance } from 'vitest';

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { AccessControlSimulator } from '../../../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID } from '../../../../dev/simulator/server.js';
import { PLATFORM_NAME } from '../../../../src/settings.js';
import { checkBlock } from '../../../../src/ui/shared/check-config.js';
import { echoInAccount, secretLeaks } from '../../../support/secret-leaks.js';
import { useSimulator } from '../../../support/simulator.js';

interface Response {
  action: string;
  payload: { requestId: string; success: boolean; data: unknown };
}

const sent: Response[] = [];
// Put back as it was found (undefined when the test runs in a worker thread).
const originalSend = Reflect.get(process, 'send');
let listenersBefore = { message: process.listeners('message'), disconnect: process.listeners('disconnect') };
let errorSpy: MockInstance;
let stderrSpy: MockInstance;
let nextId = 0;

beforeAll(async () => {
  listenersBefore = { message: process.listeners('message'), disconnect: process.listeners('disconnect') };
  // The server talks to the Homebridge UI over the IPC channel: process.send out, 'message' in.
  process.send = ((message: Response) => {
    sent.push(message);
    return true;
  }) as typeof process.send;
  await import('../../../../src/ui/server/server.js');
});

afterAll(() => {
  Reflect.set(process, 'send', originalSend);
  // The server's own listeners go with it: its 'disconnect' one would end this worker when vitest lets go of it.
  for (const listener of process.listeners('message')) {
    if (!listenersBefore.message.includes(listener)) process.removeListener('message', listener);
  }
  for (const listener of process.listeners('disconnect')) {
    if (!listenersBefore.disconnect.includes(listener)) process.removeListener('disconnect', listener);
  }
});

beforeEach(() => {
  errorSpy = vi.spyOn(console, 'error');
  stderrSpy = vi.spyOn(process.stderr, 'write');
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** One request as the Homebridge UI forwards it from the page; resolves with the server's answer. */
async function ask(path: string, body: unknown): Promise<{ success: boolean; data: unknown }> {
  const requestId = `test-${String((nextId += 1))}`;
  process.emit('message', { action: 'request', path, body, requestId }, undefined);
  await expect.poll(() => sent.some((response) => response.payload.requestId === requestId)).toBe(true);
  const response = sent.find((candidate) => candidate.payload.requestId === requestId);
  return { success: response?.payload.success ?? false, data: response?.payload.data };
}

const TOKEN = 'server-requests-token-77e1';

describe('the settings server, sent wrong-typed or missing fields', () => {
  const cases: [string, unknown, unknown][] = [
    [
      '/sign-in',
      {},
      { ok: false, kind: 'fields', message: 'Fix the settings first: Access token is required; Service address is required.' },
    ],
    [
      '/sign-in',
      { baseUrl: 'http://127.0.0.1:1' },
      { ok: false, kind: 'fields', message: 'Fix the settings first: Access token is required.' },
    ],
    [
      '/sign-in',
      { accessToken: 5, baseUrl: {} },
      { ok: false, kind: 'fields', message: 'Fix the settings first: Access token must be text; Service address must be text.' },
    ],
    [
      '/sign-in',
      'x',
      { ok: false, kind: 'server', message: 'The settings page sent a request the settings server cannot read; reload the page.' },
    ],
    ['/check-port', { port: 'x' }, { ok: false, message: 'Listener port must be a whole number from 1 to 65535.' }],
    [
      '/check-port',
      { port: 70000, host: 5 },
      { ok: false, message: 'Listener port must be a whole number from 1 to 65535. Listen on address must be text.' },
    ],
    ['/check-port', { port: 8000, entryIndex: 'a' }, { ok: false, message: 'Settings for must be the number of an entry.' }],
    ['/test-event', { port: 8000, apiKey: 5, tls: false }, { ok: false, message: 'Webhook API key must be text.' }],
    [
      '/test-event',
      { port: 8000, apiKey: 'k', path: [], headerName: {}, tls: 'yes' },
      {
        ok: false,
        message: 'Path (optional) must be text. API key header must be text. TLS certificate file must be a file name, or empty.',
      },
    ],
    ['/activity', { doorIds: [] }, { ok: false, message: 'The doors to read must be a list of 1 to 8 door ids.' }],
    [
      '/activity',
      { doorIds: Array.from({ length: 9 }, (_, i) => `door-${i}`) },
      { ok: false, message: 'The doors to read must be a list of 1 to 8 door ids.' },
    ],
    ['/activity', { doorIds: ['door-1', 7] }, { ok: false, message: 'The doors to read must be a list of 1 to 8 door ids.' }],
    [
      '/activity',
      { baseUrl: '', accessToken: TOKEN, doorIds: ['door-1'] },
      { ok: false, message: 'Fix the settings first: Service address is required.' },
    ],
  ];

  it.each(cases)('%s %j answers with a short message naming the field, and nothing on stderr', async (path, body, expected) => {
    const answer = await ask(path, body);
    expect(answer).toEqual({ success: true, data: expected });
    expect(errorSpy).not.toHaveBeenCalled();
    expect(stderrSpy).not.toHaveBeenCalled();
  });

  it('names wrong-typed settings in the block to check by what is wrong, never with a stack (the page runs this check itself)', () => {
    expect(checkBlock({ accessToken: 5, baseUrl: {}, doors: 'x' }, undefined)).toMatchObject({
      problems: ['Access token must be text', 'Service address must be text', 'The per-door settings must be a list of doors'],
    });
    expect(errorSpy).not.toHaveBeenCalled();
    expect(stderrSpy).not.toHaveBeenCalled();
  });

  it('never returns the token in its answer to a sign-in that fails', async () => {
    const answer = await ask('/sign-in', { baseUrl: 'http://127.0.0.1:1', accessToken: TOKEN });
    expect(answer.success).toBe(true);
    expect(answer.data).toMatchObject({ ok: false });
    expect(JSON.stringify(answer)).not.toContain(TOKEN);
  });
});

describe("the settings server's answers carry no saved webhook key (issue 44)", () => {
  const KEY = '6b0e9d2f4a8c1753'.repeat(6);
  /** The key as a hostile service would echo it: upper case, split by a zero-width space. */
  const ECHOED = `${KEY.slice(0, 40).toUpperCase()}\u200b${KEY.slice(40)}`;
  let sim: AccessControlSimulator;
  let dir: string;
  const configPathBefore = process.env.HOMEBRIDGE_CONFIG_PATH;

  useSimulator({ accessToken: TOKEN }, (started) => (sim = started));

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'server-requests-'));
    const configPath = join(dir, 'config.json');
    await writeFile(configPath, JSON.stringify({ platforms: [{ platform: PLATFORM_NAME, webhook: { port: 51828, apiKey: KEY } }] }));
    process.env.HOMEBRIDGE_CONFIG_PATH = configPath;
  });

  afterAll(async () => {
    if (configPathBefore === undefined) delete process.env.HOMEBRIDGE_CONFIG_PATH;
    else process.env.HOMEBRIDGE_CONFIG_PATH = configPathBefore;
    await rm(dir, { recursive: true, force: true });
  });

  it('in a door name of Sign in, nor in a person or a channel of People and activity', async () => {
    echoInAccount(sim, SAMPLE_FRONT_GATE_ID, 'Gate', ECHOED);
    try {
      const signedIn = await ask('/sign-in', { baseUrl: sim.baseUrl, accessToken: TOKEN });
      expect(signedIn.data).toMatchObject({
        ok: true,
        account: { doors: expect.arrayContaining([expect.objectContaining({ name: 'Gate [redacted]' })]) as unknown },
      });
      const activity = await ask('/activity', { baseUrl: sim.baseUrl, accessToken: TOKEN, doorIds: [SAMPLE_FRONT_GATE_ID] });
      expect(JSON.stringify(activity.data)).toMatch(/App \[redacted\]/);
      expect(secretLeaks(JSON.stringify([signedIn, activity]), KEY)).toEqual([]);
    } finally {
      sim.renameDoor(SAMPLE_FRONT_GATE_ID, 'Front Gate');
    }
  });
});

// The settings page's server side against real peers: "Sign in" on the simulator, port checks with real binds, the test event on the real listener.
import { createServer } from 'node:net';
import type { Server } from 'node:net';

import { describe, expect, it } from 'vitest';

import type { AccessControlSimulator } from '../../../../dev/simulator/server.js';
import { WEBHOOK_TEST_EVENT_TYPE } from '../../../../src/settings.js';
import { checkBlock } from '../../../../src/ui/shared/check-config.js';
import { checkPort, portOwner } from '../../../../src/ui/server/ports.js';
import { signIn } from '../../../../src/ui/server/sign-in.js';
import { sendTestEvent } from '../../../../src/ui/server/test-event.js';
import { WebhookReceiver } from '../../../../src/webhook/receiver.js';
import type { WebhookEvent } from '../../../../src/webhook/event.js';
import { captureLog } from '../../../support/log.js';
import { useSimulator } from '../../../support/simulator.js';

const TOKEN = 'settings-page-token-8d1e';
const KEY = 'ab12'.repeat(24);
const SHORT_TIMEOUTS = { connectMs: 500, headersMs: 500, bodyMs: 500 };

let sim: AccessControlSimulator;

useSimulator({ accessToken: TOKEN }, (started) => (sim = started));

function holdPort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: Server): number => {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
};

const TIMEOUT_WORDS = 'The service did not answer in time. It may be busy or down; try again in a minute.';

describe('Sign in', () => {
  it('lists the controllers and doors of the account, and never returns the token', async () => {
    const result = await signIn(sim.baseUrl, TOKEN);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.account.controllers).toHaveLength(2);
    expect(result.account.doors.map((door) => door.name)).toEqual(['Front Gate', 'Garage Door', 'Shared Gate']);
    expect(result.account.doors[0]).toMatchObject({ state: 'CLOSED', owned: true, sensor: true, batteryPct: 85 });
    expect(result.account.doors[2]).toMatchObject({ owned: false, relationship: 'Has Access' });
    expect(JSON.stringify(result.account)).not.toContain(TOKEN);
  });

  it('says in words what went wrong for a refused token, a missing address and no answer, the raw reason apart', async () => {
    const refused = await signIn(sim.baseUrl, 'wrong-token');
    expect(refused).toEqual({
      ok: false,
      kind: 'refused',
      message: 'The service refused this access token. Copy the Access token from your account again and press Sign in.',
      detail: 'the service refused the access token (HTTP 401)',
    });
    const missing = await signIn('', TOKEN);
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toMatch(/^Fix the settings first: Service address /);
    expect(!missing.ok && missing.message).not.toContain(TOKEN);
    sim.setFault('sync', { kind: 'hang' });
    const hung = await signIn(sim.baseUrl, TOKEN, { timeouts: SHORT_TIMEOUTS, deadlineMs: 2_000 });
    sim.clearFaults();
    expect(hung).toEqual({ ok: false, kind: 'timeout', message: TIMEOUT_WORDS, detail: 'the service did not answer in time' });
  });

  it('gives up at its deadline when the service trickles its answer', async () => {
    sim.setFault('sync', { kind: 'trickle', intervalMs: 100 });
    const slow = await signIn(sim.baseUrl, TOKEN, { deadlineMs: 300 });
    sim.clearFaults();
    expect(slow).toEqual({ ok: false, kind: 'timeout', message: TIMEOUT_WORDS, detail: 'the service did not answer in time' });
  });
});

describe('checking the block about to be saved', () => {
  it('uses the plugin parser and counts the doors the filters let in', async () => {
    const result = await signIn(sim.baseUrl, TOKEN);
    expect(result.ok).toBe(true);
    const account = result.ok ? result.account : undefined;
    const block = { platform: 'AccessControl', accessToken: TOKEN, baseUrl: sim.baseUrl, includeDoors: 'owned' };
    const check = checkBlock(block, account);
    expect(check.problems).toEqual([]);
    expect(check.shown).toEqual({ count: 2, total: 3, limit: 149, people: 0 });
    expect([...check.excluded.values()]).toEqual(['only owned doors are included and this one is "Has Access"']);
    expect(checkBlock({ platform: 'AccessControl' }, account).problems).toEqual([
      'Access token is required',
      'Service address is required',
    ]);
  });
});

describe('webhook port check', () => {
  const homebridgeConfig = {
    bridge: { port: 51826 },
    platforms: [
      { platform: 'config', port: 8581 },
      { platform: 'AccessControl', webhook: { port: 51900 } },
      { platform: 'AccessControl', webhook: { port: 51901 }, _bridge: { port: 51902 } },
    ],
  };

  it('names who in Homebridge already has the port', () => {
    expect(portOwner(homebridgeConfig, 8581, 0)).toBe("the Homebridge UI's port");
    expect(portOwner(homebridgeConfig, 51826, 0)).toBe("the Homebridge bridge's own HomeKit port (bridge.port)");
    expect(portOwner(homebridgeConfig, 51902, 0)).toBe('the HomeKit port of the child bridge of AccessControl (_bridge.port)');
    expect(portOwner(homebridgeConfig, 51901, 0)).toBe('the webhook port of another entry of this plugin');
    // An entry's own saved port is not a clash with itself.
    expect(portOwner(homebridgeConfig, 51900, 0)).toBeUndefined();
    expect(portOwner({ platforms: [{ platform: 'config' }] }, 8581, 0)).toBe("the Homebridge UI's port");
  });

  it("binds the port to find other programs, and tells the plugin's own running listener apart", async () => {
    const held = await holdPort();
    const port = portOf(held);
    const options = { configPath: undefined, entryIndex: 0, savedPort: undefined };
    expect(await checkPort(port, '127.0.0.1', options)).toEqual({
      ok: false,
      message: `Port ${port} is in use by another program. Choose another port.`,
    });
    expect((await checkPort(port, '127.0.0.1', { ...options, savedPort: port })).ok).toBe(true);
    await new Promise((resolve) => held.close(resolve));
    expect(await checkPort(port, '127.0.0.1', options)).toEqual({ ok: true, message: `Port ${port} is free.` });
  });
});

describe('Send test event', () => {
  it('reaches the running listener with the key, moves nothing, and explains 401, 404 and no listener', async () => {
    const events: WebhookEvent[] = [];
    const receiver = new WebhookReceiver({
      port: 0,
      host: '127.0.0.1',
      apiKey: KEY,
      path: '/access-control',
      onEvent: (event) => void events.push(event),
      log: captureLog(),
    });
    await receiver.start();
    const target = {
      port: receiver.port,
      host: '127.0.0.1',
      path: '/access-control',
      apiKey: KEY,
      headerName: undefined,
      tls: false,
      certFile: undefined,
    };
    try {
      const ok = await sendTestEvent(target);
      expect(ok.ok).toBe(true);
      expect(ok.message).toMatch(/answered 200 \{"message":"ok"\}, as this plugin's listener does when it takes the key/);
      await expect.poll(() => events.length).toBe(1);
      expect(events[0]).toMatchObject({ eventType: WEBHOOK_TEST_EVENT_TYPE, doorId: undefined, doorState: undefined });
      // Deliberate change (issue 30.10): a listener with another key cannot prove it holds this one, so no key is sent.
      expect(await sendTestEvent({ ...target, apiKey: 'cd34'.repeat(24) })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/runs with another API key/) as string,
      });
      expect(await sendTestEvent({ ...target, path: '/other' })).toMatchObject({
        ok: false,
        message: expect.stringMatching(/answered 404/) as string,
      });
    } finally {
      await receiver.stop();
    }
    const none = await sendTestEvent(target);
    expect(none.ok).toBe(false);
    expect(none.message).toMatch(/^No listener answers on 127\.0\.0\.1:\d+\. Save, restart Homebridge/);
    expect(events).toHaveLength(1);
  });
});

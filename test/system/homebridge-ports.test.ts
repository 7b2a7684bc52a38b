// The webhook listener never takes a port Homebridge listens on (bridge, child bridge, UI): taking it first stops Homebridge.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { readReservedPorts, reservedPorts } from '../../src/util/homebridge-ports.js';
import { RealtimeUpdates } from '../../src/sync/realtime.js';
import type { ReservedPort } from '../../src/util/homebridge-ports.js';
import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { freePort } from '../../dev/harness/homebridge-process.js';
import { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import { captureLog } from '../support/log.js';
import { useSimulator } from '../support/simulator.js';

const API_KEY = 'ab'.repeat(48);
const TOKEN = 'ports-token-81d2';

describe('reservedPorts', () => {
  it("lists the bridge's, every child bridge's, the UI's and this platform's own child bridge's port", () => {
    const config = {
      bridge: { username: '0E:AC:00:00:00:00', port: 51826 },
      platforms: [
        { platform: 'config', name: 'Config' },
        { platform: 'AccessControl', _bridge: { username: '0E:AC:00:00:00:01', port: 51901 } },
        { platform: 'Other', _bridge: { port: 51902 } },
        'junk',
        null,
      ],
      accessories: [{ accessory: 'Lamp', _bridge: { port: 51903 } }],
    };
    const ports = reservedPorts(config, { platform: 'AccessControl', _bridge: { port: 51901 } });
    expect(ports.map((p) => p.port)).toEqual([51901, 51826, 8581, 51901, 51902, 51903]);
    expect(ports[0]?.owner).toBe("this child bridge's own HomeKit port (_bridge.port)");
    expect(ports[1]?.owner).toBe("the Homebridge bridge's own HomeKit port (bridge.port)");
    expect(ports[2]?.owner).toBe("the Homebridge UI's port");
    expect(ports[4]?.owner).toBe('the HomeKit port of the child bridge of Other (_bridge.port)');
    expect(reservedPorts({ platforms: [{ platform: 'config', port: 9000 }] }, {}).map((p) => p.port)).toEqual([9000]);
  });

  it('keeps only what it can read: a bridge without a port (Homebridge then picks a free one), junk, nothing', () => {
    expect(reservedPorts({ bridge: { username: 'x' } }, undefined)).toEqual([]);
    expect(reservedPorts('junk', { _bridge: { port: 'x' } })).toEqual([]);
    expect(reservedPorts(undefined, { _bridge: { port: 51901 } }).map((p) => p.port)).toEqual([51901]);
  });

  it('reads config.json, and says when it could not', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ports-'));
    try {
      const file = path.join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ bridge: { port: 51826 } }));
      expect(await readReservedPorts(file, {})).toEqual({ ports: [expect.objectContaining({ port: 51826 }) as unknown], complete: true });
      writeFileSync(file, '{ not json');
      expect(await readReservedPorts(file, { _bridge: { port: 51901 } })).toMatchObject({ ports: [{ port: 51901 }], complete: false });
      expect(await readReservedPorts(path.join(dir, 'missing.json'), {})).toEqual({ ports: [], complete: false });
      expect(await readReservedPorts(undefined, {})).toEqual({ ports: [], complete: false });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Whether anything accepts a TCP connection on the port (the listener binds every interface, loopback among them). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the listener and the ports Homebridge uses', () => {
  function realtime(port: number, reserved: () => Promise<{ ports: ReservedPort[]; complete: boolean }>, bridgeUp?: Promise<void>) {
    const log = captureLog();
    const updates = new RealtimeUpdates({
      log,
      config: { port, apiKey: API_KEY, headerName: 'X-Service-API-Key', reconcileInterval: 300 },
      findDoor: () => undefined,
      now: () => 0,
      reservedPorts: reserved,
      bridgeUp,
    });
    const lines = (re: RegExp): string[] => log.lines.map((l) => l.text).filter((t) => re.test(t));
    return { updates, log, lines };
  }

  it("refuses the bridge's port with one line and opens nothing", async () => {
    // A port free now (no bridge in this test holds it), so that a listener on it would answer the probe.
    const port = await freePort();
    const r = realtime(port, () =>
      Promise.resolve({ ports: [{ port, owner: "the Homebridge bridge's own HomeKit port (bridge.port)" }], complete: true }),
    );
    await r.updates.start();
    expect(await listening(port)).toBe(false);
    expect(r.log.lines.filter((l) => l.level === 'error').map((l) => l.text)).toEqual([
      `The webhook listener could not start: port ${port} is the Homebridge bridge's own HomeKit port (bridge.port); choose another webhook port; webhooks are off, the plugin carries on by polling.`,
    ]);
    expect(r.lines(/Webhook listener on/)).toEqual([]);
    await r.updates.stop();
  });

  it("when Homebridge's config cannot be read, waits until the bridge holds its port, and opens nothing if stopped meanwhile", async () => {
    let bridgeIsUp: () => void = () => undefined;
    const bridgeUp = new Promise<void>((resolve) => (bridgeIsUp = resolve));
    const unknown = () => Promise.resolve({ ports: [], complete: false });
    const waiting = realtime(0, unknown, bridgeUp);
    const started = waiting.updates.start();
    await new Promise((resolve) => setImmediate(resolve));
    expect(waiting.lines(/Webhook listener on/)).toEqual([]);
    bridgeIsUp();
    await started;
    expect(waiting.lines(/Webhook listener on/)).toHaveLength(1);
    await waiting.updates.stop();

    let release: () => void = () => undefined;
    const port = await freePort();
    const stopped = realtime(port, unknown, new Promise<void>((resolve) => (release = resolve)));
    const pending = stopped.updates.start();
    await stopped.updates.stop();
    release();
    await pending;
    expect(stopped.lines(/Webhook listener on/)).toEqual([]);
    expect(await listening(port)).toBe(false);
  });

  it('never rejects, whatever goes wrong while starting', async () => {
    const r = realtime(0, () => Promise.reject(new Error('disk on fire')));
    await expect(r.updates.start()).resolves.toBeUndefined();
    expect(r.lines(/^The webhook listener could not start: disk on fire; webhooks are off/)).toHaveLength(1);
  });
});

describe('a platform in a child bridge whose webhook port is its own _bridge.port', () => {
  let sim: AccessControlSimulator;

  useSimulator({ accessToken: TOKEN }, (started) => (sim = started));

  it('refuses the port with one line and goes on polling', async () => {
    const api = new HomebridgeDouble();
    const log = captureLog();
    const clock = new ManualClock();
    const platform = api.boot(
      {
        platform: 'AccessControl',
        accessToken: TOKEN,
        baseUrl: sim.baseUrl,
        webhook: { port: 51901, apiKey: API_KEY },
        _bridge: { name: 'Gates', username: '0E:AC:00:00:00:01', pin: '031-45-154', port: 51901 },
      },
      log,
      clock,
    );
    try {
      clock.advance(0);
      await platform.syncSettled();
      expect(api.registered.size).toBe(3);
      await vi.waitFor(() => expect(log.lines.filter((l) => l.level === 'error')).toHaveLength(1));
      expect(log.lines.find((l) => l.level === 'error')?.text).toMatch(
        /^The webhook listener could not start: port 51901 is this child bridge's own HomeKit port \(_bridge\.port\)/,
      );
    } finally {
      await platform.shutdown();
    }
  });
});

// Hostile setups against a real Homebridge: a webhook port that is the bridge's own, and a flood of connections to the listener.
import { connect } from 'node:net';
import type { Socket } from 'node:net';

import { describe, expect, it } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import { connectController } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE } from '../../dev/harness/hap-types.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import { WEBHOOK_MAX_CONNECTIONS } from '../../src/settings.js';
import { SAMPLE_FRONT_GATE_ID } from '../../dev/simulator/server.js';
import { sleep } from '../support/wait.js';
import { platformEntry, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-31eb66721424';
const API_KEY = 'bead'.repeat(24);
const POLL_INTERVAL_S = 5;
const BOOT_WAIT_MS = 20_000;

/** `host` unset: the listener binds every interface at once, as most users have it, and so before the bridge does. */
function platform(baseUrl: string, webhook: { port: number; host?: string }): Record<string, unknown> {
  return platformEntry(baseUrl, TOKEN, { pollInterval: POLL_INTERVAL_S, webhook: { ...webhook, apiKey: API_KEY } });
}

describe("a webhook port that is the bridge's own HomeKit port", () => {
  let port = 0;
  // Before the fix the listener took the port first, HAP-NodeJS failed with EADDRINUSE and Homebridge exited, so the
  // rig never saw the ready line and the file failed in beforeAll.
  const rig = useHomebridge({
    simulator: { accessToken: TOKEN },
    beforeHomebridge: async () => {
      port = await freePort();
    },
    platforms: (sim) => [platform(sim.baseUrl, { port })],
    homebridge: () => ({ bridgePort: port }),
    readyLine: /The webhook listener could not start: port \d+ is the Homebridge bridge's own HomeKit port/,
    door: SAMPLE_FRONT_GATE_ID,
    waitMs: BOOT_WAIT_MS,
  });

  it('keeps Homebridge up: the listener refuses with one line, and doors still sync and answer HomeKit', async () => {
    const current = await rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'CurrentDoorState');
    expect(await rig.controller.read(current)).toBe(CURRENT_DOOR_STATE.CLOSED);
    const lines = rig.hb.log().split('\n');
    expect(lines.filter((line) => line.includes('The webhook listener could not start'))).toHaveLength(1);
    expect(lines.some((line) => line.includes('Webhook listener on'))).toBe(false);
    expect(rig.hb.exited).toBeUndefined();
  });
});

describe('a flood of connections to the webhook listener', () => {
  /** Far below a real system's limit, so a few hundred sockets show what ~21,000 did to a bridge with the usual one. */
  const MAX_OPEN_FILES = 512;
  /** More than the whole file limit of the bridge. */
  const FLOOD_SOCKETS = 1_000;
  /** The flood comes from several loopback addresses, so the listener's total cap is what holds, not the per-client one. */
  const SOURCE_ADDRESSES = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6', '127.0.0.7', '127.0.0.8'];
  const TOP_UP_EVERY_MS = 250;
  /** The flood stops by itself after this long, whatever happens. */
  const FLOOD_LIMIT_MS = 40_000;
  /** How long the listener may take to close the flood's connections past its cap. */
  const REFUSALS_WAIT_MS = 15_000;

  let webhookPort = 0;
  const rig = useHomebridge({
    simulator: { accessToken: TOKEN },
    beforeHomebridge: async (sim) => {
      webhookPort = await freePort();
      sim.setWebhook({ url: `http://127.0.0.1:${webhookPort}/`, apiKey: API_KEY });
    },
    platforms: (sim) => [platform(sim.baseUrl, { port: webhookPort, host: '127.0.0.1' })],
    homebridge: { maxOpenFiles: MAX_OPEN_FILES },
    readyLine: /Webhook listener on/,
    door: SAMPLE_FRONT_GATE_ID,
    waitMs: BOOT_WAIT_MS,
  });

  it('keeps the bridge answering a HomeKit read while the listener is saturated, and holds at most its cap', async () => {
    const open = new Set<Socket>();
    let opened = 0;
    let refused = 0;
    const stopFlooding = new AbortController();
    const floodUntil = Date.now() + FLOOD_LIMIT_MS;
    const topUp = (): void => {
      while (open.size < FLOOD_SOCKETS) {
        const socket = connect({ host: '127.0.0.1', port: webhookPort, localAddress: SOURCE_ADDRESSES[opened % SOURCE_ADDRESSES.length] });
        opened += 1;
        open.add(socket);
        socket.on('error', () => undefined);
        socket.once('close', () => {
          open.delete(socket);
          refused += 1;
        });
      }
    };
    // Held connections are cut after the listener's headers time-out; topping them up keeps the listener saturated.
    const flood = (async () => {
      while (!stopFlooding.signal.aborted && Date.now() < floodUntil) {
        topUp();
        await sleep(TOP_UP_EVERY_MS);
      }
    })();
    let controller: HomeKitController | undefined;
    try {
      await sleep(2 * TOP_UP_EVERY_MS);
      // A new HomeKit connection (pair-verify and a read), as a phone opening the Home app makes.
      controller = await connectController(rig.hb);
      const current = await controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', 'CurrentDoorState');
      expect(await controller.read(current)).toBe(CURRENT_DOOR_STATE.CLOSED);
      // The listener refused what went past its cap rather than holding every connection it was offered (on a loaded
      // machine it may still be working through the first wave when the read above is answered).
      await expect.poll(() => refused, { timeout: REFUSALS_WAIT_MS }).toBeGreaterThanOrEqual(FLOOD_SOCKETS - WEBHOOK_MAX_CONNECTIONS);
    } finally {
      stopFlooding.abort();
      await flood;
      for (const socket of open) socket.destroy();
      await controller?.close();
    }
    expect(rig.hb.exited).toBeUndefined();
    // Connections past the cap either pushed out an idle one or, while all were fresh, were refused: either is said.
    await rig.hb.waitForLog(/The webhook listener (holds its limit of|is full \(its limit of) \d+ connections/, BOOT_WAIT_MS);
    // Once the flood is over, the service's webhooks get through again.
    const after = await rig.sim.sendRawWebhook(rig.sim.buildWebhookEvent(SAMPLE_FRONT_GATE_ID, { doorState: 'CLOSED' }));
    expect(after.status).toBe(200);
  });
});

// On Matter, a door moved by someone else shows as soon as the webhook arrives, with no sync in between (issue 23, item 3).
import { describe, expect, it, vi } from 'vitest';

import { freePort } from '../../dev/harness/homebridge-process.js';
import { SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { matterSerial } from '../../src/matter/matter-doors.js';
import { ManualClock } from '../support/homebridge-double.js';
import { Homebridge2Double, LockState, MatterApiDouble, matterSettled } from '../support/matter-double.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { simulatorPerTest } from '../support/simulator.js';

const TOKEN = 'matter-webhook-token-77d1';
const API_KEY = 'ab'.repeat(48);

const startSimulator = simulatorPerTest();
const running = shutDownAfterEach();

describe('a door moved by someone else, on Matter', () => {
  it('shows on the Matter device when the webhook arrives, before any sync', async () => {
    const clock = new ManualClock();
    const service = await startSimulator({ accessToken: TOKEN, now: () => clock.now() });
    const port = await freePort();
    const matter = new MatterApiDouble();
    const rig = await bootSynced(
      service,
      { accessToken: TOKEN, pollInterval: 15, matter: 'locks', webhook: { port, host: '127.0.0.1', apiKey: API_KEY } },
      { clock, api: new Homebridge2Double([], matter), running },
    );
    await matterSettled();
    await vi.waitFor(() => expect(rig.log.texts('info').some((t) => t.startsWith('Webhook listener on'))).toBe(true));
    service.setWebhook({ url: `http://127.0.0.1:${port}/`, apiKey: API_KEY });
    const lockState = () => matter.device(matterSerial(SAMPLE_GARAGE_DOOR_ID))?.clusters.doorLock?.lockState;
    expect(lockState()).toBe(LockState.Locked);
    const syncs = service.countRequests('/endpoints/sync');

    service.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN');
    await service.flushWebhooks();
    await vi.waitFor(async () => {
      await matterSettled();
      expect(lockState()).toBe(LockState.Unlocked);
    });
    expect(service.countRequests('/endpoints/sync')).toBe(syncs);
  });
});

// The access token echoed by the service in another spelling, end to end (issue 44): a real Homebridge (with -D) and a
// HomeKit controller opening a door whose toggle the service refuses with a message quoting the token percent-encoded,
// split by spaces, with zero-width spaces inside, and all three; the log holds it at no level, and says the refusal's status.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { HAP_STATUS, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { echoedSpellings, secretLeaks } from '../support/secret-leaks.js';
import { platformEntry, RIG_WAIT_MS, useHomebridge } from './homebridge-rig.js';

/** With a character a URL escapes every few: percent-encoded, no run of it long enough to be found is left as written. */
const TOKEN = 'secrets+e2e/token=7c4d+9a1f';
const SPELLINGS = echoedSpellings(TOKEN);

const rig = useHomebridge({
  simulator: { accessToken: TOKEN },
  // The token pasted as a door's name (issue 52): never its name, in HomeKit, the log or the cache.
  platforms: (sim) => [platformEntry(sim.baseUrl, TOKEN, { doors: [{ id: SAMPLE_FRONT_GATE_ID, name: TOKEN }] })],
  door: SAMPLE_GARAGE_DOOR_ID,
});

describe("the access token written as a door's name in config.json, in a real Homebridge", () => {
  it('is refused with a line naming the key, and is in neither the log, cachedAccessories nor the names HomeKit reads', async () => {
    await rig.hb.waitForLog(/In the configuration, doors\.0\.name holds the secret of accessToken/, RIG_WAIT_MS);
    const names = JSON.stringify(await rig.controller.accessories());
    expect(names).toContain('Front Gate');
    expect(secretLeaks(names, TOKEN)).toEqual([]);
    expect(secretLeaks(rig.hb.log(), TOKEN)).toEqual([]);
    const cache = await readFile(path.join(rig.hb.storageDir, 'accessories', 'cachedAccessories'), 'utf8');
    expect(cache).toContain('Front Gate');
    expect(secretLeaks(cache, TOKEN)).toEqual([]);
  });
});

describe('a refusal quoting the access token in another spelling, in a real Homebridge', () => {
  it.each(['percent-encoded', 'split by spaces', 'with zero-width spaces', 'percent-encoded, split and with zero-width spaces'] as const)(
    '%s: the door is said not to open, with the status and its meaning, and the token is in the log at no level',
    async (how) => {
      const mark = rig.hb.lineCount();
      rig.sim.setFault('toggle', {
        kind: 'status',
        status: 400,
        body: JSON.stringify({ success: true, message: `Error communicating with Garage Controller for Bearer ${SPELLINGS[how]}. (400)` }),
      });
      try {
        const target = await rig.controller.findCharacteristic(SAMPLE_GARAGE_DOOR_ID, 'GarageDoorOpener', 'TargetDoorState');
        expect(await rig.controller.writeResult(target, TARGET_DOOR_STATE.OPEN)).toBe(HAP_STATUS.SERVICE_COMMUNICATION_FAILURE);
        await rig.hb.waitForLog(
          /Garage Door could not be opened: the service refused the command \(HTTP 400: the controller reported a malformed request\); the service's message is left out: it quoted the access token/,
          RIG_WAIT_MS,
          { fromLine: mark },
        );
      } finally {
        rig.sim.clearFaults();
      }
      // The log as Homebridge wrote it with -D (the rig's default): every level, the debug lines included.
      expect(secretLeaks(rig.hb.log(), TOKEN)).toEqual([]);
    },
  );
});

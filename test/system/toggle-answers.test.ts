// What the answer to a toggle says: any 2xx is taken as 200 is; an answer that does not say whether the service took it holds the door.
import * as hap from 'hap-nodejs';
import { afterEach, describe, expect, it } from 'vitest';

import type { AccessControlSimulator } from '../../dev/simulator/server.js';
import { SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { bootSynced, shutDownAfterEach } from '../support/platform-rig.js';
import { echoedSpellings, secretLeaks } from '../support/secret-leaks.js';
import { togglesReceived, useSimulator } from '../support/simulator.js';

/** With characters percent-encoding changes, so its percent-encoded echo is another spelling. */
const TOKEN = 'toggle-answers+token/7d41e8=';
const { CurrentDoorState, TargetDoorState } = hap.Characteristic;

let sim: AccessControlSimulator;
const running = shutDownAfterEach();

useSimulator({ accessToken: TOKEN, travelTimeMs: 20 }, (started) => (sim = started));

afterEach(() => {
  sim.clearFaults();
  sim.setToggleOutcome(SAMPLE_GARAGE_DOOR_ID, null);
  sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'CLOSED', { silent: true });
});

async function boot() {
  const rig = await bootSynced(sim, { accessToken: TOKEN, pollInterval: 15 }, { running });
  const shown = () => ({
    current: rig.api.characteristic(SAMPLE_GARAGE_DOOR_ID, CurrentDoorState).value,
    target: rig.api.characteristic(SAMPLE_GARAGE_DOOR_ID, TargetDoorState).value,
  });
  const wish = (state: number) => rig.api.characteristic(SAMPLE_GARAGE_DOOR_ID, TargetDoorState).handleSetRequest(state);
  // Home's target is put back a tick after a refused write.
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  const problems = () => rig.log.lines.filter((l) => l.level === 'error' || l.level === 'warn').map((l) => l.text);
  return { ...rig, shown, wish, settle, problems };
}

const toggles = (): number => togglesReceived(sim, SAMPLE_GARAGE_DOOR_ID).length;

describe('a toggle the service answered with a success other than 200', () => {
  it.each([
    [202, 'Accepted, with the contract body'],
    [204, 'No Content, no body at all'],
  ])('HTTP %i (%s) is taken: Home shows opening, a repeated wish sends nothing, and the state follows the door', async (status) => {
    const { shown, wish, settle, poll, problems } = await boot();
    sim.setToggleOutcome(SAMPLE_GARAGE_DOOR_ID, status);
    const before = toggles();

    await wish(TargetDoorState.OPEN);
    await settle();
    expect(shown()).toEqual({ current: CurrentDoorState.OPENING, target: TargetDoorState.OPEN });

    await wish(TargetDoorState.OPEN);
    await settle();
    expect(toggles()).toBe(before + 1);
    expect(shown()).toEqual({ current: CurrentDoorState.OPENING, target: TargetDoorState.OPEN });

    await expect.poll(() => sim.getDoor(SAMPLE_GARAGE_DOOR_ID)?.state).toBe('OPEN');
    await poll();
    expect(shown()).toEqual({ current: CurrentDoorState.OPEN, target: TargetDoorState.OPEN });
    expect(toggles()).toBe(before + 1);
    expect(problems()).toEqual([]);
  });
});

describe('a toggle answered with a status that does not say whether the service took it', () => {
  it.each([302, 303, 307])('HTTP %i holds the door as possibly opening: no second toggle, opening or closing', async (status) => {
    const { shown, wish, settle, problems } = await boot();
    sim.setFault('toggle', { kind: 'status', status });
    const before = toggles();

    await expect(wish(TargetDoorState.OPEN)).rejects.toBe(hap.HAPStatus.SERVICE_COMMUNICATION_FAILURE);
    await settle();
    expect(shown()).toEqual({ current: CurrentDoorState.OPENING, target: TargetDoorState.OPEN });
    expect(problems()).toEqual([expect.stringMatching(new RegExp(`may still open: .*HTTP ${status}.*no other command is sent`))]);

    await wish(TargetDoorState.OPEN);
    await expect(wish(TargetDoorState.CLOSED)).rejects.toBe(hap.HAPStatus.RESOURCE_BUSY);
    await settle();
    expect(toggles()).toBe(before + 1);
    expect(shown()).toEqual({ current: CurrentDoorState.OPENING, target: TargetDoorState.OPEN });
  });
});

describe("the service's text carries no secret to the log (issues 38, 44)", () => {
  it.each(Object.entries(echoedSpellings(TOKEN)))(
    'a refusal quoting the token %s is logged with its status and meaning, its message left out',
    async (_, spelling) => {
      const { wish, settle, problems, log } = await boot();
      sim.setFault('toggle', {
        kind: 'status',
        status: 400,
        body: JSON.stringify({ success: true, message: `Malformed Request for Bearer ${spelling} (400)` }),
      });

      await expect(wish(TargetDoorState.OPEN)).rejects.toBeDefined();
      await settle();
      expect(problems()).toEqual([
        "Garage Door could not be opened: the service refused the command (HTTP 400: the controller reported a malformed request); the service's message is left out: it quoted the access token",
      ]);
      expect(secretLeaks(JSON.stringify(log.lines), TOKEN)).toEqual([]);
    },
  );

  it("a refusal quoting no secret is logged with the service's own reason", async () => {
    const { wish, settle, problems } = await boot();
    const reason = 'Your Garage Controller requires pairing a door sensor before the request can be processed. (428)';
    sim.setFault('toggle', { kind: 'status', status: 428, body: JSON.stringify({ success: true, message: reason }) });

    await expect(wish(TargetDoorState.OPEN)).rejects.toBeDefined();
    await settle();
    expect(problems()).toEqual([`Garage Door could not be opened: ${reason}`]);
  });

  it("a door named with the token is named [redacted] in Home and in the log, as the sync's other text", async () => {
    sim.renameDoor(SAMPLE_GARAGE_DOOR_ID, `Garage ${TOKEN.toUpperCase()}`);
    try {
      const { api, log } = await boot();
      expect([...api.registered.values()].map((accessory) => accessory.displayName)).toContainEqual(
        expect.stringMatching(/^Garage \W?redacted\W?$/),
      );
      expect(JSON.stringify(log.lines).toLowerCase()).not.toContain(TOKEN);
    } finally {
      sim.renameDoor(SAMPLE_GARAGE_DOOR_ID, 'Garage Door');
    }
  });
});

// One simulator for a test file or describe block (started before its tests, stopped after, handed over once it listens),
// and what it received from the plugin.
import { afterAll, afterEach, beforeAll } from 'vitest';

import { syncBody } from '../../dev/simulator/contract.js';
import { AccessControlSimulator } from '../../dev/simulator/server.js';
import type { SimulatorOptions } from '../../dev/simulator/server.js';

/** Registers the hooks where it is called; `onStarted` receives the running simulator (assign it to the file's `sim`). */
export function useSimulator(options: SimulatorOptions, onStarted: (sim: AccessControlSimulator) => void): void {
  let sim: AccessControlSimulator | undefined;
  beforeAll(async () => {
    sim = new AccessControlSimulator(options);
    await sim.start();
    onStarted(sim);
  });
  afterAll(async () => {
    await sim?.stop();
  });
}

/**
 * For tests that each need a simulator of their own (their devices, the test's clock): returns `start(options)`, which
 * starts one, stopped after the test. Call it at the top of the file before `shutDownAfterEach()`, so the simulators
 * stop after the platforms calling them (vitest runs after-hooks last registered first).
 */
export function simulatorPerTest(): (options: SimulatorOptions) => Promise<AccessControlSimulator> {
  const started: AccessControlSimulator[] = [];
  afterEach(async () => {
    for (const sim of started.splice(0)) {
      await sim.stop();
    }
  });
  return async (options) => {
    const sim = new AccessControlSimulator(options);
    started.push(sim);
    await sim.start();
    return sim;
  };
}

/** A toggle's body as the plugin sent it (contract: door id and the state asked for). */
export interface ToggleSent {
  door_id: string;
  door_state: string;
}

/** Every toggle the simulator received, in order, each body as sent; only those for `doorId` when given. */
export function togglesReceived(sim: AccessControlSimulator, doorId?: string): ToggleSent[] {
  return sim.requests
    .filter((r) => r.path.endsWith('/endpoint/toggle'))
    .map((r) => JSON.parse(r.body) as ToggleSent)
    .filter((body) => doorId === undefined || body.door_id === doorId);
}

/** The account as the simulator sends it (`token` is the simulator's), changed by `edit`: the body of a sync fault. */
export async function accountEdited(
  sim: AccessControlSimulator,
  token: string,
  edit: (account: { devices: { id: string; doors: { id: string; state: string }[] | null }[] }) => void,
): Promise<string> {
  const response = await fetch(`${sim.baseUrl}/oauth/v1/endpoints/sync`, {
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'accept-charset': 'utf-8',
    },
  });
  const account = (await response.json()) as Parameters<typeof edit>[0];
  edit(account);
  return JSON.stringify(account);
}

/**
 * The account as the simulator sends it with `doorId`'s state replaced by `state` (text the plugin may not know), as
 * the body of a sync fault: how a test makes the service report a state it never would. `token` is the simulator's.
 */
export async function accountWithDoorState(sim: AccessControlSimulator, token: string, doorId: string, state: string): Promise<string> {
  return accountEdited(sim, token, (account) => {
    for (const door of account.devices.flatMap((device) => device.doors ?? [])) {
      if (door.id === doorId) door.state = state;
    }
  });
}

/**
 * The account as the simulator holds it now (its history's zone offset aside), with `doorId` in `state`: built without a
 * request, so a test that adds a door and sets this as the sync's answer in one turn leaves no sync a moment between them
 * to see the door as it really is (a busy machine once let a poll in while the request of accountWithDoorState ran).
 */
export function accountNowWithDoorState(sim: AccessControlSimulator, doorId: string, state: string): string {
  const account = syncBody(sim.devices) as { devices: { doors: { id: string; state: string }[] }[] };
  for (const door of account.devices.flatMap((device) => device.doors)) if (door.id === doorId) door.state = state;
  return JSON.stringify(account);
}

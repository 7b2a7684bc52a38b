// One simulator for a test file or describe block: started before its tests, stopped after, handed over once it listens.
import { afterAll, beforeAll } from 'vitest';

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

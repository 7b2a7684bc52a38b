// The demo's bridge port: the one kept in its storage since the first run (so a paired iPhone finds the bridge where it
// was), or another when a program took that one meanwhile, said in a sentence that names both.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

import { freePort, IDENTITY_FILE } from '../harness/homebridge-process.js';

/** The port to start the bridge on (undefined: the harness picks a free one), and what to say when it moved. */
export interface BridgePortChoice {
  port?: number;
  moved?: string;
}

/** Whether nothing listens on `port`, on every interface as Homebridge listens. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/** The bridge port kept in `storageDir`, or another one (and a sentence) when something else has it now. */
export async function bridgePortFor(storageDir: string): Promise<BridgePortChoice> {
  let stored: unknown;
  try {
    stored = (JSON.parse(await readFile(path.join(storageDir, IDENTITY_FILE), 'utf8')) as { port?: unknown }).port;
  } catch {
    return {}; // The first run: the harness picks a free port and keeps it.
  }
  if (typeof stored !== 'number' || !Number.isInteger(stored) || stored <= 0) return {};
  if (await portIsFree(stored)) return { port: stored };
  const port = await freePort();
  return {
    port,
    moved: `Another program has port ${stored}, where the demo's bridge ran last time: the bridge runs on port ${port} instead (a paired iPhone finds it there by itself).`,
  };
}

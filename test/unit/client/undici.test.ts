// The narrow undici loader: its three files today, and undici's main entry should a later undici 7 move them.
import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import { loadUndiciParts } from '../../../src/client/undici.js';
import type { UndiciParts } from '../../../src/client/undici.js';
import type { AccessControlSimulator } from '../../../dev/simulator/server.js';
import { useSimulator } from '../../support/simulator.js';

const TOKEN = 'undici-loader-token';
const requireHere = createRequire(import.meta.url);

let sim: AccessControlSimulator;

useSimulator({ accessToken: TOKEN }, (started) => (sim = started));

async function syncStatus(parts: UndiciParts): Promise<number> {
  const agent = new parts.Agent();
  try {
    const response = await parts.request(agent, {
      origin: sim.baseUrl,
      path: '/oauth/v1/endpoints/sync',
      method: 'GET',
      headers: { authorization: 'Bearer wrong' },
    });
    await response.body.dump();
    return response.statusCode;
  } finally {
    await agent.close();
  }
}

describe('loading undici', () => {
  it('takes the three narrow files when they are where undici 7 keeps them', async () => {
    const parts = loadUndiciParts(requireHere);
    expect(parts.narrow).toBe(true);
    expect(await syncStatus(parts)).toBe(401);
  });

  it('falls back to the main entry when those files moved, and works the same', async () => {
    const parts = loadUndiciParts((id) => {
      if (id.startsWith('undici/lib/')) {
        throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
      }
      return requireHere(id);
    });
    expect(parts.narrow).toBe(false);
    expect(await syncStatus(parts)).toBe(401);
    expect(new parts.errors.HeadersTimeoutError()).toBeInstanceOf(parts.errors.UndiciError);
  });
});

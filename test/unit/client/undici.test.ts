// The narrow undici loader: its three files today, undici's main entry should a later undici 7 move them, and the
// HTTP/2 connector left unloaded until something calls it (issue 22: node:http2, tls and crypto are not loaded at start).
import { mkdtemp, rm } from 'node:fs/promises';
import { createSecureServer } from 'node:http2';
import type { Http2SecureServer } from 'node:http2';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { HTTP2_CONNECTOR, deferHttp2Connector, loadUndiciParts } from '../../../src/client/undici.js';
import type { ModuleLoader, UndiciParts } from '../../../src/client/undici.js';
import type { AccessControlSimulator } from '../../../dev/simulator/server.js';
import { makeSelfSignedCertificate } from '../../support/certificates.js';
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

/** A loader with a cache of its own, whose one module is `exports`; it counts how often it really loaded it. */
function fakeLoader(exports: unknown): ModuleLoader & { loads: () => number } {
  const file = '/fake/undici/lib/dispatcher/client-h2.js';
  const cache: Record<string, NodeJS.Module | undefined> = {};
  const counter = { loads: 0 };
  const load = (id: string): unknown => {
    if (id !== HTTP2_CONNECTOR) throw new Error(`unexpected ${id}`);
    const cached = cache[file];
    if (cached !== undefined) return cached.exports as unknown;
    counter.loads += 1;
    cache[file] = { exports } as NodeJS.Module;
    return exports;
  };
  return Object.assign(load, {
    resolve: (): string => file,
    cache,
    loads: (): number => counter.loads,
  });
}

describe('loading undici', () => {
  it('takes the three narrow files when they are where undici 7 keeps them', async () => {
    const parts = loadUndiciParts(requireHere);
    expect(parts.narrow).toBe(true);
    expect(await syncStatus(parts)).toBe(401);
  });

  it('falls back to the main entry when those files moved, and works the same', async () => {
    const moved: ModuleLoader = Object.assign(
      (id: string): unknown => {
        if (id.startsWith('undici/lib/')) {
          throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
        }
        return requireHere(id);
      },
      {
        resolve: (id: string): string => {
          throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
        },
        cache: requireHere.cache,
      },
    );
    const parts = loadUndiciParts(moved);
    expect(parts.narrow).toBe(false);
    expect(await syncStatus(parts)).toBe(401);
    expect(new parts.errors.HeadersTimeoutError()).toBeInstanceOf(parts.errors.UndiciError);
  });
});

describe("undici's HTTP/2 connector, left unloaded until called", () => {
  it('stands in without loading it, then loads it once at the first call and passes the call through', () => {
    const calls: unknown[][] = [];
    const real = function (this: unknown, ...args: unknown[]): string {
      calls.push([this, ...args]);
      return 'session';
    };
    const loader = fakeLoader(real);
    deferHttp2Connector(loader);
    const standIn = loader(HTTP2_CONNECTOR) as (this: unknown, ...args: unknown[]) => unknown;
    expect(loader.loads()).toBe(0);
    expect(standIn).not.toBe(real);

    const self = { client: true };
    expect(standIn.call(self, 'client', 'socket')).toBe('session');
    expect(standIn.call(self, 'client', 'other socket')).toBe('session');
    expect(loader.loads()).toBe(1);
    expect(calls).toEqual([
      [self, 'client', 'socket'],
      [self, 'client', 'other socket'],
    ]);
    // From then on whoever asks gets the real connector.
    expect(loader(HTTP2_CONNECTOR)).toBe(real);
  });

  it('leaves a connector that is already loaded, and a undici without one, alone', () => {
    const real = (): string => 'session';
    const loaded = fakeLoader(real);
    expect(loaded(HTTP2_CONNECTOR)).toBe(real);
    deferHttp2Connector(loaded);
    expect(loaded(HTTP2_CONNECTOR)).toBe(real);

    const missing = fakeLoader(real);
    missing.resolve = () => {
      throw Object.assign(new Error(`Cannot find module '${HTTP2_CONNECTOR}'`), { code: 'MODULE_NOT_FOUND' });
    };
    deferHttp2Connector(missing);
    expect(missing.cache).toEqual({});
  });

  describe('with a real HTTP/2 server', () => {
    let dir: string | undefined;
    let server: Http2SecureServer | undefined;

    afterEach(async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    it('still speaks HTTP/2 through the stand-in when a dispatcher asks for it (the plugin never does)', async () => {
      const file = requireHere.resolve(HTTP2_CONNECTOR);
      const standIn = requireHere.cache[file];
      // This file's import of src/client/undici.ts put the stand-in there: undici's real connector is not loaded yet.
      expect(standIn?.exports).toBeTypeOf('function');

      dir = await mkdtemp(path.join(tmpdir(), 'undici-h2-'));
      const { cert, key } = makeSelfSignedCertificate(dir, 'h2', 'IP:127.0.0.1');
      server = createSecureServer({ cert, key }, (req, res) => res.end(`HTTP/${req.httpVersion}`));
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;

      const parts = loadUndiciParts(requireHere);
      const agent = new parts.Agent({ allowH2: true, connect: { ca: cert } });
      try {
        const response = await parts.request(agent, { origin: `https://127.0.0.1:${String(port)}`, path: '/', method: 'GET' });
        expect(await response.body.text()).toBe('HTTP/2.0');
      } finally {
        await agent.close();
      }
      // The stand-in handed over: the real connector is in the cache now.
      expect(requireHere.cache[file]).toBeDefined();
      expect(requireHere.cache[file]).not.toBe(standIn);
    });
  });
});

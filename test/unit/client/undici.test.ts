// The narrow undici loader: its three files with the undici installed (or the one under test, see undici-under-test.ts),
// undici's main entry when they moved or changed, Node's module state left as undici left it (issue 30: plugins share a
// hoisted undici), and the package's undici range and Node engines in step with undici's own.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createSecureServer } from 'node:http2';
import type { Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { NARROW_FILES, loadUndiciParts, undiciParts } from '../../../src/client/undici.js';
import type { ModuleLoader, UndiciParts } from '../../../src/client/undici.js';
import type * as Undici from 'undici';
import type { AccessControlSimulator } from '../../../dev/simulator/server.js';
import { makeSelfSignedCertificate } from '../../support/certificates.js';
import { useSimulator } from '../../support/simulator.js';
import { requireUndici, undiciManifest, UNDICI_PREFIX } from './undici-under-test.js';

const TOKEN = 'undici-loader-token';
const REPO_MANIFEST = new URL('../../../package.json', import.meta.url);

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

function notFound(id: string): Error {
  return Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
}

/** undici's require, except that `change` decides what each narrow file gives. */
function loaderWhere(change: (id: string) => unknown): ModuleLoader {
  return (id) => (id.startsWith('undici/lib/') ? change(id) : (requireUndici(id) as unknown));
}

interface Manifest {
  version?: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
}

type Version = [number, number, number];

function parseVersion(text: string): Version {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text.trim());
  if (!match) throw new Error(`not a plain version: ${text}`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

describe('loading undici', () => {
  it(`takes the three narrow files with the undici installed (${undiciManifest().version})`, async () => {
    // What the client uses: the narrow files of the undici under test, not its main entry nor another copy.
    const client = undiciParts();
    expect(client.narrow).toBe(true);
    expect(client.Agent).toBe(requireUndici(NARROW_FILES.agent));
    expect(client.errors).toBe(requireUndici(NARROW_FILES.errors));
    expect(undiciParts()).toBe(client);
    const parts = loadUndiciParts(requireUndici);
    expect(parts.narrow).toBe(true);
    expect(await syncStatus(parts)).toBe(401);
    // The same classes the main entry hands out: an error of the narrow path is one of undici's, whoever checks.
    const full = requireUndici('undici') as typeof Undici;
    expect(parts.errors.HeadersTimeoutError).toBe(full.errors.HeadersTimeoutError);
    expect(parts.Agent).toBe(full.Agent);
  });

  it('falls back to the main entry when those files moved, and works the same', async () => {
    const parts = loadUndiciParts(
      loaderWhere((id) => {
        throw notFound(id);
      }),
    );
    expect(parts.narrow).toBe(false);
    expect(await syncStatus(parts)).toBe(401);
    expect(new parts.errors.HeadersTimeoutError()).toBeInstanceOf(parts.errors.UndiciError);
  });

  it.each(Object.entries(NARROW_FILES))(
    'falls back to the main entry when the %s file is there but no longer what it was',
    async (_part, file) => {
      const parts = loadUndiciParts(loaderWhere((id) => (id === file ? {} : requireUndici(id))));
      expect(parts.narrow).toBe(false);
      expect(await syncStatus(parts)).toBe(401);
    },
  );
});

describe("Node's module state, which every plugin on the bridge shares", () => {
  it('holds only modules undici loaded itself: no stand-in, every entry walkable', () => {
    const undiciRoot = path.dirname(requireUndici.resolve('undici/package.json')) + path.sep;
    const undiciModules = Object.values(requireUndici.cache).filter(
      (module): module is NodeJS.Module => module?.filename.startsWith(undiciRoot) === true,
    );
    expect(undiciModules.length).toBeGreaterThan(0);
    for (const module of undiciModules) {
      expect(Array.isArray(module.paths), module.filename).toBe(true);
      expect(module.loaded, module.filename).toBe(true);
    }
    // undici's client.js requires its HTTP/2 connector at load: it is there, and it is undici's own.
    const connector = requireUndici.cache[requireUndici.resolve('undici/lib/dispatcher/client-h2.js')];
    expect(connector?.id).toBe(connector?.filename);
  });

  describe('with a real HTTP/2 server', () => {
    let dir: string | undefined;
    let server: Http2SecureServer | undefined;

    afterEach(async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    it("leaves another plugin's HTTP/2 through the same undici working, after the plugin loaded it", async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'undici-h2-'));
      const { cert, key } = makeSelfSignedCertificate(dir, 'h2', 'IP:127.0.0.1');
      server = createSecureServer({ cert, key }, (req, res) => res.end(`HTTP/${req.httpVersion}`));
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;

      // Another plugin, with undici's main entry and HTTP/2 on.
      const { Agent, request } = requireUndici('undici') as typeof Undici;
      const agent = new Agent({ allowH2: true, connect: { ca: cert } });
      try {
        const response = await request(`https://127.0.0.1:${String(port)}/`, { dispatcher: agent });
        expect(await response.body.text()).toBe('HTTP/2.0');
      } finally {
        await agent.close();
      }
    });
  });
});

describe("the package's undici and Node ranges", () => {
  it.skipIf(UNDICI_PREFIX !== undefined)("allows the undici installed, and the lowest undici it allows is the range's floor", async () => {
    const manifest = JSON.parse(await readFile(REPO_MANIFEST, 'utf8')) as Manifest;
    const range = manifest.dependencies?.undici ?? '';
    // A caret range: the floor is the lowest version CI tests (test/package/undici-range.test.ts), the newest is 7.x's.
    const match = /^\^(\d+\.\d+\.\d+)$/.exec(range);
    expect(match, `undici's range "${range}" is a plain caret range`).not.toBeNull();
    const floor = parseVersion(match?.[1] ?? '');
    const installed = parseVersion(undiciManifest().version);
    expect(installed[0]).toBe(floor[0]);
    expect(compare(installed, floor)).toBeGreaterThanOrEqual(0);
  });

  it('claims no Node the undici under test refuses, and starts where it starts (engines.node)', async () => {
    const manifest = JSON.parse(await readFile(REPO_MANIFEST, 'utf8')) as Manifest;
    const theirs = /^>=\s*(\d+\.\d+\.\d+)$/.exec(undiciManifest().engines?.node ?? '');
    expect(theirs, `undici's engines.node "${undiciManifest().engines?.node ?? ''}" is a plain lower bound`).not.toBeNull();
    const undiciFloor = parseVersion(theirs?.[1] ?? '');
    const ours = (manifest.engines?.node ?? '').split('||').map((part) => {
      const caret = /^\s*\^(\d+\.\d+\.\d+)\s*$/.exec(part);
      expect(caret, `engines.node part "${part}" is a caret range`).not.toBeNull();
      return parseVersion(caret?.[1] ?? '');
    });
    for (const lowest of ours) {
      expect(
        compare(lowest, undiciFloor),
        `^${lowest.join('.')} starts at or above undici's >=${undiciFloor.join('.')}`,
      ).toBeGreaterThanOrEqual(0);
    }
    const ourFloor = [...ours].sort(compare)[0];
    if (UNDICI_PREFIX === undefined) {
      // With the installed undici (the newest the lock file holds), the package starts exactly where undici does.
      expect(ourFloor).toEqual(undiciFloor);
    }
  });
});

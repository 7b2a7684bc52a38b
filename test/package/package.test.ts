// The package as users get it: the tarball the ui project's global setup packed (one `npm pack` per run), installed into
// a fresh folder outside the repo with the current Homebridge, its dependencies from the registry and nothing from the
// repo's node_modules; Homebridge started from there against the simulator and read by a HomeKit controller.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { startHomebridge } from '../../dev/harness/homebridge-process.js';
import type { HomebridgeProcess } from '../../dev/harness/homebridge-process.js';
import { pairController } from '../../dev/harness/homekit-controller.js';
import type { HomeKitController } from '../../dev/harness/homekit-controller.js';
import { CURRENT_DOOR_STATE, HAP_CHARACTERISTIC, HAP_SERVICE } from '../../dev/harness/hap-types.js';
import { AccessControlSimulator } from '../../dev/simulator/server.js';
import { PLATFORM_NAME, PLUGIN_NAME } from '../../src/settings.js';
import { HOMEBRIDGE_2_OVERRIDES, HOMEBRIDGE_2_VERSION, REPO_ROOT, installedVersion, npmInstallPrefix } from '../support/npm-prefix.js';
import { tearDown } from '../e2e/teardown.js';
import '../ui/ui-harness.js';

const TOKEN = 'package-test-token-51c0';
/** Every door of the simulator's sample account is in Home within the first sync; generous for a busy machine. */
const DOORS_WAIT_MS = 30_000;
/** The settings page the Homebridge UI opens: the server it forks and the page it serves (with the option catalog it loads), inside customUiPath. */
const CUSTOM_UI_FILES = ['server.js', 'public/index.html', 'public/js/page.js'];
/** A path segment or name that belongs to the tools and tests that never ship. */
const DEV_ONLY_PATH =
  /(^|\/)(dev|dist-dev|test|tests|bench|demo|simulator|harness|fixtures|coverage|reports|\.cache|\.demo)(\/|$)|\.test\.|\.spec\.|simulator|bench|demo/i;

/**
 * Node's own modules only a setup or a moment that needs them may load (issue 22): the TLS webhook listener (https) and
 * zlib (the first compressed answer). Importing the plugin must load neither. tls and http2 do load: undici's client.js
 * requires its HTTP/2 connector, and the plugin leaves undici's modules as undici loads them (issue 30).
 */
const LOADED_ON_DEMAND = ['https', 'zlib'];
/** A phrase of zod's German locale (ASCII: esbuild escapes the rest): the bundle holds English only (zod/mini, `en` alone), not zod's ~40 locales. */
const OTHER_LOCALE_TEXT = 'Eingabe: erwartet';

interface InstalledPackage {
  version?: string;
  dependencies?: Record<string, string>;
}

interface Schema {
  customUi?: boolean;
  customUiPath?: string;
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full, base)));
    else out.push(path.relative(base, full).split(path.sep).join('/'));
  }
  return out;
}

describe('the packed plugin, installed as users install it', () => {
  const env = inject('uiEnv');
  let prefix: string;
  let pluginDir: string;
  let sim: AccessControlSimulator | undefined;
  let hb: HomebridgeProcess | undefined;
  let controller: HomeKitController | undefined;

  beforeAll(async () => {
    // Outside the repo, so no import can fall back on the repo's node_modules.
    prefix = await mkdtemp(path.join(tmpdir(), 'hb-package-test-'));
    const installMs = await npmInstallPrefix(prefix, {
      description: 'Made by test/package/package.test.ts: the current Homebridge and the packed plugin, nothing else.',
      dependencies: { homebridge: HOMEBRIDGE_2_VERSION, [PLUGIN_NAME]: `file:${env.tarball}` },
      // Test install only (see HOMEBRIDGE_2_OVERRIDES): the registry here lacks the hap-nodejs Homebridge 2.4.0 pins.
      overrides: HOMEBRIDGE_2_OVERRIDES,
    });
    pluginDir = path.join(prefix, 'node_modules', PLUGIN_NAME);
    console.log(`[package] ${path.basename(env.tarball)} + Homebridge ${HOMEBRIDGE_2_VERSION} installed in ${prefix} in ${installMs} ms`);
  });

  afterAll(async () => {
    await tearDown({ controllers: [controller], ...(hb ? { hb } : {}), ...(sim ? { sim } : {}) });
    await rm(prefix, { recursive: true, force: true });
  });

  it('installs outside the repo, with its dependencies from the registry', async () => {
    expect(path.relative(REPO_ROOT, prefix).startsWith('..')).toBe(true);
    const repoManifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as InstalledPackage;
    const installed = JSON.parse(await readFile(path.join(pluginDir, 'package.json'), 'utf8')) as InstalledPackage;
    expect(installed.version).toBe(repoManifest.version);
    expect(await installedVersion(prefix, 'homebridge')).toBe(HOMEBRIDGE_2_VERSION);
    const dependencies = Object.keys(installed.dependencies ?? {});
    expect(dependencies.length).toBeGreaterThan(0);
    for (const name of dependencies) {
      expect(existsSync(path.join(prefix, 'node_modules', name, 'package.json')), `${name} installed next to the plugin`).toBe(true);
    }
  });

  it("holds the settings page's files where config.schema.json points the Homebridge UI", async () => {
    const schema = JSON.parse(await readFile(path.join(pluginDir, 'config.schema.json'), 'utf8')) as Schema;
    expect(schema.customUi).toBe(true);
    const folder = schema.customUiPath ?? 'homebridge-ui';
    for (const file of CUSTOM_UI_FILES) {
      expect(existsSync(path.join(pluginDir, folder, file)), `${folder}/${file}`).toBe(true);
    }
  });

  it('holds no simulator, dev, bench, demo or test file', async () => {
    const files = await listFiles(pluginDir);
    expect(files).toContain('dist/index.js');
    expect(files.filter((file) => DEV_ONLY_PATH.test(file))).toEqual([]);
  });

  it('loads lean: one bundle without source maps, English messages only, no undici, listener or zlib until needed', async () => {
    const files = await listFiles(path.join(pluginDir, 'dist'));
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
    const scripts = files.filter((file) => file.endsWith('.js'));
    for (const file of scripts) {
      const text = await readFile(path.join(pluginDir, 'dist', file), 'utf8');
      expect(text.includes(OTHER_LOCALE_TEXT), `${file} holds zod's other locales`).toBe(false);
    }
    // In a process of its own (this Node, the one Homebridge 1.11 runs on here), as Homebridge imports it.
    const script = [
      'const before = new Set(process.moduleLoadList);',
      `const plugin = await import(${JSON.stringify(pathToFileURL(path.join(pluginDir, 'dist', 'index.js')).href)});`,
      "if (typeof plugin.default !== 'function') throw new Error('no default export');",
      "const { createRequire } = await import('node:module');",
      // Node's one require cache, shared by every plugin of the bridge.
      "const cache = createRequire(process.cwd() + '/').cache;",
      "const files = Object.keys(cache).map((file) => file.split('\\\\').join('/'));",
      'console.log(JSON.stringify({',
      "  loaded: process.moduleLoadList.filter((m) => !before.has(m)).map((m) => m.replace('NativeModule ', '')),",
      '  pathless: Object.values(cache).filter((m) => !Array.isArray(m.paths)).map((m) => m.filename),',
      "  undici: files.filter((file) => file.includes('/node_modules/undici/')).map((file) => file.split('/node_modules/undici/')[1]),",
      '}));',
    ].join('\n');
    const { loaded, pathless, undici } = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: prefix, encoding: 'utf8' }),
    ) as { loaded: string[]; pathless: string[]; undici: string[] };
    expect(loaded.filter((name) => LOADED_ON_DEMAND.includes(name))).toEqual([]);
    // Code walking require.cache finds only modules Node loaded itself (a stand-in without paths crashed it).
    expect(pathless).toEqual([]);
    // undici comes with the client, at the first sync (src/client/undici.ts), not with the import (issue 50, item 4): nor
    // do node:http, tls and http2, which its narrow path brings. That path with the installed undici is the unit test's.
    expect(undici).toEqual([]);
    expect(loaded).not.toContain('http2');
  });

  it('publishes every door of the account to HomeKit, with its state, from the installed Homebridge', async () => {
    sim = new AccessControlSimulator({ accessToken: TOKEN });
    await sim.start();
    hb = await startHomebridge({
      platforms: [{ platform: PLATFORM_NAME, name: 'Access Control', accessToken: TOKEN, baseUrl: sim.baseUrl }],
      homebridgePrefix: prefix,
      pluginDir: path.join(prefix, 'node_modules'),
      nodePath: env.nodePath,
    });
    expect(hb.version).toBe(HOMEBRIDGE_2_VERSION);
    controller = await pairController(hb);
    const doors = sim.devices.flatMap((device) => device.doors);
    expect(doors.length).toBeGreaterThan(0);
    for (const door of doors) {
      await controller.waitForAccessory(door.id, DOORS_WAIT_MS);
      const current = await controller.findCharacteristic(door.id, HAP_SERVICE.GarageDoorOpener, HAP_CHARACTERISTIC.CurrentDoorState);
      expect(await controller.read(current), door.name).toBe(door.state === 'OPEN' ? CURRENT_DOOR_STATE.OPEN : CURRENT_DOOR_STATE.CLOSED);
    }
    expect(hb.log()).toContain(`Loaded plugin: ${PLUGIN_NAME}@`);
    expect(hb.stderr()).toBe('');
  });
});

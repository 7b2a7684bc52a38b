// The Homebridge plugin verification checker's rules on package.json and config.schema.json (CONTRIBUTING.md "Publishing").
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { PLATFORM_NAME } from '../../src/settings.js';
import { readConfigForm, valuesOfKey } from '../support/config-schema.js';
import { HOMEBRIDGE_2_VERSION } from '../support/npm-prefix.js';

interface Manifest {
  keywords?: string[];
  engines?: Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bundleDependencies?: string[];
  allowScripts?: Record<string, boolean | string>;
}

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Manifest;

/** Whether the `||` range (of `^x.y.z` parts, the only form used here) holds `version`. */
function caretRangeHolds(range: string, version: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number);
  return range.split('||').some((part) => {
    const match = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`engines range part "${part}" is not of the form ^x.y.z`);
    const [want, wantMinor, wantPatch] = match.slice(1).map(Number);
    return major === want && ((minor ?? 0) > (wantMinor ?? 0) || (minor === wantMinor && (patch ?? 0) >= (wantPatch ?? 0)));
  });
}

describe('package.json, as the plugin checker reads it', () => {
  it('names homebridge and hap-nodejs only among the devDependencies', () => {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
      const names = Object.keys(manifest[field] ?? {});
      expect(
        names.filter((name) => /(^|\/)(homebridge|hap-nodejs)$/.test(name)),
        field,
      ).toEqual([]);
    }
    expect(manifest.bundleDependencies ?? []).toEqual([]);
  });

  it('accepts the latest Node 22 and 24 (and 26, tested too), and the current Homebridge 2.x', () => {
    const node = manifest.engines?.node ?? '';
    for (const version of ['22.99.0', '24.99.0', '26.99.0']) expect(caretRangeHolds(node, version), version).toBe(true);
    expect(caretRangeHolds(manifest.engines?.homebridge ?? '', HOMEBRIDGE_2_VERSION)).toBe(true);
    expect(caretRangeHolds(manifest.engines?.homebridge ?? '', '2.99.0')).toBe(true);
  });

  it('has the homebridge-plugin keyword and no install script', () => {
    expect(manifest.keywords).toContain('homebridge-plugin');
    const installScripts = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare'];
    expect(Object.keys(manifest.scripts ?? {}).filter((name) => installScripts.includes(name))).toEqual([]);
  });

  it("runs no dependency's install script in a checkout: every allowScripts entry is a denial (CONTRIBUTING, Set up)", () => {
    expect(Object.entries(manifest.allowScripts ?? {}).filter(([, allowed]) => allowed !== false)).toEqual([]);
    expect(Object.keys(manifest.allowScripts ?? {})).toContain('esbuild');
  });

  it('builds on every pack, not only on publish: `npm pack` in a fresh clone ships the code', () => {
    // prepack runs before `npm pack` and `npm publish` alike (and is no install script); prepublishOnly runs on publish only.
    expect(manifest.scripts?.prepack).toBe('npm run build');
    expect(manifest.scripts?.prepublishOnly ?? '').not.toContain('build');
  });
});

describe('config.schema.json, as the plugin checker reads it', () => {
  it('is registered under the platform name, has a name field and no boolean "required"', () => {
    const schema = readConfigForm();
    expect(schema.pluginAlias).toBe(PLATFORM_NAME);
    expect(schema.schema.properties.name).toBeDefined();
    expect(valuesOfKey(schema, 'required').filter((value) => typeof value === 'boolean')).toEqual([]);
  });
});

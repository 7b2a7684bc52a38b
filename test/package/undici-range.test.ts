// The undici range in package.json is the range CI tests: the client tests (test/unit/client/) run on the lowest and on the
// newest undici it allows, each installed from the registry into .cache/undici-range/<version> (reused while it is there).
// The plugin takes three of undici's own files (src/client/undici.ts); a user's npm may give it any version in the range.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { CACHE_DIR, REPO_ROOT, installedVersion, npmInstallPrefix, runOrThrow, withInstallLock } from '../support/npm-prefix.js';

const execFileAsync = promisify(execFile);
const RANGE_DIR = path.join(CACHE_DIR, 'undici-range');
/** The client tests take seconds; a first run transforms the sources, and the machine may be busy. */
const CLIENT_TESTS_TIMEOUT_MS = 120_000;
const VIEW_TIMEOUT_MS = 60_000;

interface Manifest {
  dependencies?: Record<string, string>;
}

async function undiciRange(): Promise<string> {
  const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
  return manifest.dependencies?.undici ?? '';
}

/** The lowest version the range allows (its caret floor) and the newest the registry has in it. */
async function endsOfRange(range: string): Promise<string[]> {
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (floor === undefined) throw new Error(`undici's range "${range}" is not a plain caret range`);
  const output = await runOrThrow(
    'Asking the registry for undici',
    'npm',
    ['view', `undici@${range}`, 'version', '--json'],
    REPO_ROOT,
    VIEW_TIMEOUT_MS,
  );
  const listed = JSON.parse(output) as string | string[];
  const newest = Array.isArray(listed) ? listed.at(-1) : listed;
  if (newest === undefined) throw new Error(`the registry has no undici in ${range}`);
  return [...new Set([floor, newest])];
}

async function installUndici(version: string): Promise<string> {
  const prefix = path.join(RANGE_DIR, version);
  await withInstallLock(prefix, async () => {
    if ((await installedVersion(prefix, 'undici')) !== version) {
      await npmInstallPrefix(prefix, {
        description: 'Made by test/package/undici-range.test.ts: one undici for the client tests.',
        dependencies: { undici: version },
      });
    }
  });
  return prefix;
}

describe('the undici range in package.json, at both ends', async () => {
  const range = await undiciRange();
  const versions = await endsOfRange(range);

  it.each(versions)(`runs the client tests on undici %s (${range})`, async (version) => {
    const prefix = await installUndici(version);
    expect(await installedVersion(prefix, 'undici')).toBe(version);
    const vitest = path.join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    const { stdout: raw } = await execFileAsync(
      process.execPath,
      [vitest, 'run', '--config', 'test/package/undici-range.config.ts', '--reporter=verbose'],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, UNDICI_UNDER_TEST: prefix, FORCE_COLOR: '0', NO_COLOR: '1', REPORT_DIR: '' },
        timeout: CLIENT_TESTS_TIMEOUT_MS,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    // Plain text whatever the terminal: vitest colours its report when it thinks it may.
    // eslint-disable-next-line no-control-regex
    const stdout = raw.replace(/\u001b\[[0-9;]*m/g, '');
    // The narrow path was taken with this undici, and every client test passed on it.
    expect(stdout).toContain(`takes the three narrow files with the undici installed (${version})`);
    expect(stdout).toMatch(/Tests\s+\d+ passed/);
    expect(stdout).not.toMatch(/\d+ failed/);
  });
});

// CI's closing line (dev/ci/closing-line.ts, run by .ci/run) over synthetic vitest reports: a file failed in its beforeAll,
// a suite that could not run and a normal failure are each counted as a failed file, and the line says so.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { closingLines } from '../../dev/ci/closing-line.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
let dir: string | undefined;

/** A reports folder holding `reports` (file name → report) and `notes`. */
async function reportsDir(reports: Record<string, unknown>, notes: Record<string, string> = {}): Promise<string> {
  dir = await mkdtemp(path.join(tmpdir(), 'closing-line-'));
  for (const [name, report] of Object.entries(reports)) await writeFile(path.join(dir, name), JSON.stringify(report));
  for (const [name, note] of Object.entries(notes)) await writeFile(path.join(dir, name), `${note}\n`);
  return dir;
}

afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const file = (name: string, status: 'passed' | 'failed', message = '') => ({ name: path.join(ROOT, name), status, message });

/** A file whose beforeAll failed: no test failed, its tests were skipped, the file failed. */
const BEFORE_ALL_FAILED = {
  success: false,
  numPassedTests: 4,
  numFailedTests: 0,
  numPendingTests: 6,
  numTodoTests: 0,
  testResults: [
    file('test/e2e/plugin.test.ts', 'failed', '\nHook timed out in 120000ms.\nIf this is a long-running hook…'),
    file('test/e2e/lock.test.ts', 'passed'),
  ],
};
/** A suite that could not run at all (test/matter/run.sh without a network namespace): no files, a reason. */
const COULD_NOT_RUN = { success: false, reason: 'no network namespace could be made (unshare: Operation not permitted)' };
/** A normal failure: one test failed in one file of three. */
const NORMAL_FAILURE = {
  success: false,
  numPassedTests: 40,
  numFailedTests: 1,
  numPendingTests: 0,
  numTodoTests: 2,
  testResults: [
    file('test/unit/a.test.ts', 'passed'),
    file('test/unit/b.test.ts', 'failed', 'AssertionError: expected 1 to be 2'),
    file('test/unit/c.test.ts', 'passed'),
  ],
};

describe("CI's closing line", () => {
  it('counts a file failed in its beforeAll, a suite that could not run and a normal failure, each as a failed file', async () => {
    const reports = await reportsDir(
      {
        'vitest-homebridge-2.4.0-node22.json': BEFORE_ALL_FAILED,
        'vitest-matter-homebridge-2.4.0-node22.json': COULD_NOT_RUN,
        'vitest-homebridge-node20.json': NORMAL_FAILURE,
      },
      { 'vitest-matter-homebridge-2.4.0-node22.note': 'Node 24 runs the Matter smoke subset.' },
    );
    expect(closingLines(reports, ROOT)).toEqual([
      'vitest-homebridge-2.4.0-node22.json: 4 passed, 0 failed, 6 skipped; 1 of 2 files failed',
      '  failed file: test/e2e/plugin.test.ts: Hook timed out in 120000ms.',
      'vitest-homebridge-node20.json: 40 passed, 1 failed, 2 skipped; 1 of 3 files failed',
      '  failed file: test/unit/b.test.ts: AssertionError: expected 1 to be 2',
      'vitest-matter-homebridge-2.4.0-node22.json: 0 passed, 0 failed, 0 skipped; 1 of 1 files failed',
      '  failed file: vitest-matter-homebridge-2.4.0-node22.json: no network namespace could be made (unshare: Operation not permitted)',
      '  Node 24 runs the Matter smoke subset.',
      'Tests: 44 passed, 1 failed, 8 skipped; test files: 3 of 6 failed',
    ]);
  });

  it('says a file failed before its tests could run when no test failed, for a beforeAll and for a suite that could not run', async () => {
    for (const report of [BEFORE_ALL_FAILED, COULD_NOT_RUN]) {
      const lines = closingLines(await reportsDir({ 'vitest-one.json': report }), ROOT);
      expect(lines.slice(-2)).toEqual([
        expect.stringMatching(/^Tests: \d+ passed, 0 failed, \d+ skipped; test files: 1 of \d+ failed$/),
        '(a file failed before its tests could run: see the failed files above)',
      ]);
      await rm(dir ?? '', { recursive: true, force: true });
    }
  });

  it('is all green for reports without a failure', async () => {
    const green = {
      success: true,
      numPassedTests: 3,
      numFailedTests: 0,
      numPendingTests: 0,
      testResults: [file('test/unit/a.test.ts', 'passed')],
    };
    expect(closingLines(await reportsDir({ 'vitest-homebridge-node20.json': green }), ROOT)).toEqual([
      'vitest-homebridge-node20.json: 3 passed, 0 failed, 0 skipped; 0 of 1 files failed',
      'Tests: 3 passed, 0 failed, 0 skipped; test files: 0 of 1 failed',
    ]);
  });

  it('prints the same lines when .ci/run runs it as a script', async () => {
    const reports = await reportsDir({ 'vitest-homebridge-node20.json': NORMAL_FAILURE });
    const script = path.join(reports, 'closing-line.js');
    execFileSync(path.join(ROOT, 'node_modules/.bin/esbuild'), [
      path.join(ROOT, 'dev/ci/closing-line.ts'),
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--log-level=warning',
      `--outfile=${script}`,
    ]);
    const printed = execFileSync(process.execPath, [script, reports], { cwd: ROOT, encoding: 'utf8' });
    expect(printed.trim().split('\n')).toEqual(closingLines(reports, ROOT));
  });
});

// The parts' exit codes (test/support/exit-codes.sh, sourced by test/run-all.sh and test/matter/run.sh): `npm test`, and so
// CI, fails when any part failed or left no code at all (it died before writing one), and each part is named on its line.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../support/exit-codes.sh', import.meta.url));

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Writes each part's code (undefined: no file), then runs exit_codes over `names` as the scripts do. */
async function exitCodes(codes: Record<string, string | undefined>, names: string[]): Promise<{ status: number | null; lines: string[] }> {
  dir = await mkdtemp(path.join(tmpdir(), 'exit-codes-'));
  for (const [name, code] of Object.entries(codes)) if (code !== undefined) await writeFile(path.join(dir, name), `${code}\n`);
  const run = spawnSync('sh', ['-c', `. "$0"; exit_codes "$1" "test:" ${names.join(' ')}`, SCRIPT, dir], { encoding: 'utf8' });
  return { status: run.status, lines: run.stdout.trim().split('\n') };
}

describe("the parts' exit codes", () => {
  it('succeeds when every part wrote 0, naming each', async () => {
    expect(await exitCodes({ fast: '0', ui: '0' }, ['fast', 'ui'])).toEqual({
      status: 0,
      lines: ['test: fast: exit 0', 'test: ui: exit 0'],
    });
  });

  it('fails when one part failed, and when one wrote nothing, whatever comes after', async () => {
    expect(await exitCodes({ fast: '1', ui: '0' }, ['fast', 'ui'])).toEqual({
      status: 1,
      lines: ['test: fast: exit 1', 'test: ui: exit 0'],
    });
    expect(await exitCodes({ fast: '0' }, ['fast', 'matter'])).toEqual({
      status: 1,
      lines: ['test: fast: exit 0', 'test: matter: exit missing'],
    });
  });
});

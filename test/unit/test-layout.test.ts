// Tests sit where a reader looks for them: test/unit/<folder>/ holds the tests of src/<folder>/, and a file at the root of
// test/unit/ tests a module at the root of src/ or the repository as a whole (issue 45, item 5).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const UNIT = path.join(ROOT, 'test', 'unit');
const SRC = path.join(ROOT, 'src');

/** Data a test reads (cached accessories as Homebridge stores them, say): beside its tests, not code of its own. */
const DATA_FOLDER = 'fixtures';

/** Tests of the repository as a whole, not of one module: their names say what of it they check. */
const REPOSITORY_CHECKS = new Set([
  'docs-figures.test.ts',
  'docs-links.test.ts',
  'generated-files.test.ts',
  'generated-layout.test.ts',
  'kind-lists.test.ts',
  'package-manifest.test.ts',
  'source-layout.test.ts',
  'test-layout.test.ts',
]);

/** Every folder under `dir`, relative to it, but data folders. */
function foldersUnder(dir: string, relative = ''): string[] {
  return readdirSync(path.join(dir, relative), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== DATA_FOLDER)
    .flatMap((entry) => {
      const folder = path.join(relative, entry.name);
      return [folder, ...foldersUnder(dir, folder)];
    });
}

describe('the layout of test/unit', () => {
  it('has a folder only where src/ has the same folder', () => {
    const sourceFolders = new Set(foldersUnder(SRC));
    expect(foldersUnder(UNIT).filter((folder) => !sourceFolders.has(folder))).toEqual([]);
  });

  it('has at its root only tests of a module at the root of src/, or of the repository as a whole', () => {
    const rootModules = new Set(
      readdirSync(SRC)
        .filter((name) => name.endsWith('.ts'))
        .map((name) => name.replace(/\.ts$/, '.test.ts')),
    );
    const stray = readdirSync(UNIT).filter((name) => name.endsWith('.ts') && !rootModules.has(name) && !REPOSITORY_CHECKS.has(name));
    expect(stray).toEqual([]);
  });
});

// The figures and counts README.md, CONTRIBUTING.md and docs/development.md give of the tests and the package are what
// they say (issue 53.8): test times from the last CI run's report (.ci/times.json), the parts `npm test` runs from
// test/run-all.sh, and what the npm package holds from `npm pack --dry-run`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { SuiteTimes } from '../../dev/ci/suite-times.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string): string => readFileSync(`${ROOT}${file}`, 'utf8');
/** `npm pack --dry-run` reads the whole tree; a busy machine takes seconds. */
const PACK_TIMEOUT_MS = 60_000;

const times = JSON.parse(read('.ci/times.json')) as SuiteTimes;
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

describe('test times (.ci/times.json, the last CI run)', () => {
  it('README and docs/development.md give the whole run in minutes, rounded', () => {
    const minutes = Math.round(times.totalS / 60);
    for (const file of ['README.md', 'docs/development.md']) {
      const said = [...read(file).matchAll(/npm test +# every test, as CI runs them \(about (\d+) minutes? on two cores\)/g)];
      expect(said.length, file).toBeGreaterThan(0);
      for (const [, figure] of said) expect(Number(figure), file).toBe(minutes);
    }
  });

  it("CONTRIBUTING's table gives each suite's time, and the whole run's", () => {
    const text = read('CONTRIBUTING.md');
    const rows: Record<string, number> = {};
    for (const [, name = '', seconds] of text.matchAll(/^\| .*\(`(vitest-[^`]+)`\) \| (\d+) s \|$/gm)) rows[name] = Number(seconds);
    expect(rows).toEqual(times.suites);
    const total = /The whole run, from `npm ci` to the closing line: (\d+) min (\d+) s \(commit `([^`]+)`\)\./.exec(
      text.replace(/\s+/g, ' '),
    );
    expect(total?.slice(1)).toEqual([String(Math.floor(times.totalS / 60)), String(times.totalS % 60), times.commit]);
  });
});

describe('the parts of `npm test` (test/run-all.sh)', () => {
  it('are as many as CONTRIBUTING and docs/development.md say', () => {
    const parts = /PARTS="\$\{TEST_PARTS:-([^}]+)\}"/.exec(read('test/run-all.sh'))?.[1]?.trim().split(/\s+/) ?? [];
    expect(parts.length).toBeGreaterThan(0);
    const word = NUMBER_WORDS[parts.length];
    expect(read('CONTRIBUTING.md')).toMatch(new RegExp(`runs ${word ?? ''} parts, `));
    expect(read('docs/development.md')).toMatch(new RegExp(`one of the ${word ?? ''} parts \`npm test\` runs,`));
  });
});

describe('what the npm package holds', () => {
  it('is what CONTRIBUTING says, as `npm pack --dry-run` lists it', { timeout: PACK_TIMEOUT_MS }, () => {
    const listing = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
    const files = (JSON.parse(listing) as { files: { path: string }[] }[])[0]?.files.map((file) => file.path) ?? [];
    const docs = files.filter((file) => /^docs\/[^/]+\.md$/.test(file));
    const entries = new Set(files.filter((file) => !docs.includes(file)).map((file) => file.replace(/\/.*$/, '/')));
    // A checkout not built yet has no dist/ to list; every pack builds it first (prepack).
    if (!existsSync(`${ROOT}dist`)) entries.add('dist/');
    const sentence = /The npm package holds ([^:]+), nothing else:/.exec(read('CONTRIBUTING.md').replace(/\s+/g, ' '))?.[1] ?? '';
    const pages = /the (\d+) pages of `docs\/`/.exec(sentence);
    expect(Number(pages?.[1])).toBe(docs.length);
    const named = [...sentence.replace(pages?.[0] ?? '', '').matchAll(/`([^`]+)`/g)].map(([, name]) => name);
    expect(new Set(named)).toEqual(entries);
  });
});

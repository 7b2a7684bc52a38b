// The wall time of each suite of a CI run, from its vitest JSON reports, and of the whole run: written by .ci/run to
// reports/times.json; committed as .ci/times.json, it is where README, CONTRIBUTING and docs/development.md take their
// test times from (test/unit/docs-figures.test.ts holds them to it).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** What a vitest JSON report holds that the times read: when the run began, and when each file ended (ms since 1970). */
interface Report {
  startTime?: number;
  testResults?: { endTime?: number }[];
}

/** One CI run's times: the whole run, and each suite by its report's name (without .json), in seconds. */
export interface SuiteTimes {
  /** The commit CI ran. */
  commit: string;
  totalS: number;
  suites: Record<string, number>;
}

/** The wall time of the suite a report tells of, in whole seconds: from its start to the end of its last file. */
export function wallSeconds(report: Report): number | undefined {
  const ends = (report.testResults ?? []).map((result) => result.endTime ?? 0);
  if (report.startTime === undefined || ends.length === 0) return undefined;
  return Math.round((Math.max(...ends) - report.startTime) / 1000);
}

/** The times of the reports in `dir` (a suite that could not run has none), with the run's own total. */
export function suiteTimes(dir: string, totalS: number, commit: string): SuiteTimes {
  const suites: Record<string, number> = {};
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name.startsWith('vitest-'))
    .sort()) {
    const seconds = wallSeconds(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Report);
    if (seconds !== undefined) suites[file.replace(/\.json$/, '')] = seconds;
  }
  return { commit, totalS, suites };
}

// Run as a script (.ci/run): node dist-dev/ci/suite-times.js <reports dir> <total seconds> <commit>.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir = 'reports', total = '0', commit = ''] = process.argv.slice(2);
  const times = suiteTimes(dir, Number(total), commit);
  writeFileSync(path.join(dir, 'times.json'), `${JSON.stringify(times, null, 2)}\n`);
  console.log(`CI took ${Math.floor(times.totalS / 60)} min ${times.totalS % 60} s (reports/times.json: the time of each suite)`);
}

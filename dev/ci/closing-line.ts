// CI's closing line over every suite's vitest JSON report (.ci/run): passed, failed and skipped tests, and failed files
// counted apart from failed tests, since a file whose beforeAll fails (Homebridge did not start, say) fails no test.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** What a vitest JSON report holds that the closing line reads; a suite that could not run writes success false and a reason. */
interface Report {
  success?: boolean;
  reason?: string;
  numPassedTests?: number;
  numFailedTests?: number;
  numPendingTests?: number;
  numTodoTests?: number;
  testResults?: { name: string; status: string; message?: string }[];
}

const firstLine = (text: string | undefined): string => (text ?? '').split('\n').find((line) => line.trim() !== '') ?? '';

/**
 * The lines for the reports in `dir` (each `<name>.json`, with an optional `<name>.note` saying why it skips what it
 * skips), in name order, then the closing line; `cwd` makes the failed files' paths short.
 */
export function closingLines(dir: string, cwd = process.cwd()): string[] {
  const lines: string[] = [];
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let files = 0;
  let failedFiles = 0;
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const report = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Report;
    const results = report.testResults ?? [];
    // A suite that could not run at all (test/matter/run.sh without a namespace) writes a report without files: one failure.
    const bad =
      results.length > 0
        ? results.filter((result) => result.status === 'failed')
        : report.success === false
          ? [{ name: file, message: report.reason }]
          : [];
    const skippedHere = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += skippedHere;
    files += Math.max(results.length, bad.length);
    failedFiles += bad.length;
    lines.push(
      `${file}: ${report.numPassedTests ?? 0} passed, ${report.numFailedTests ?? 0} failed, ${skippedHere} skipped; ${bad.length} of ${Math.max(results.length, bad.length)} files failed`,
    );
    for (const result of bad) {
      const why = firstLine(result.message);
      lines.push(`  failed file: ${path.relative(cwd, path.resolve(cwd, result.name))}${why ? `: ${why}` : ''}`);
    }
    const note = path.join(dir, file.replace(/\.json$/, '.note'));
    if (existsSync(note)) lines.push(`  ${readFileSync(note, 'utf8').trim()}`);
  }
  lines.push(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped; test files: ${failedFiles} of ${files} failed`);
  if (failedFiles > 0 && failed === 0) lines.push('(a file failed before its tests could run: see the failed files above)');
  return lines;
}

// Run as a script (.ci/run): node dist-dev/ci/closing-line.js <reports dir>.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(closingLines(process.argv[2] ?? 'reports').join('\n'));
}

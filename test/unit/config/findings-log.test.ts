// What the platform block's reading says in the log at start: every problem of a block that cannot run in one error,
// each ignored setting in an error of its own, near misses as warnings, and notes only in debug.
import { describe, expect, it } from 'vitest';

import { logConfigAdvice, logConfigProblems } from '../../../src/config/findings-log.js';
import { parseConfig } from '../../../src/config/index.js';
import { VALID_CONFIG } from '../../support/config-fixtures.js';
import { captureLog } from '../../support/log.js';

function logged(raw: Record<string, unknown>) {
  const log = captureLog();
  const parsed = parseConfig(raw);
  logConfigProblems(log, parsed);
  if (parsed.ok) logConfigAdvice(log, parsed);
  return log.lines;
}

describe('the configuration in the log', () => {
  it('says a block that cannot run in one error naming every problem, and nothing else', () => {
    const lines = logged({ ...VALID_CONFIG, accessToken: '', pollInterval: 1, _note: 'hi' });
    expect(lines.map(({ level }) => level)).toEqual(['error']);
    expect(lines[0]?.text).toMatch(/^The configuration is not valid, so no door is synced until it is fixed: .+; .+\.$/);
  });

  it('says each ignored setting as an error, then each near miss as a warning', () => {
    expect(logged({ ...VALID_CONFIG, pollInterval: 1, webhookk: {} })).toEqual([
      { level: 'error', text: 'In the configuration, pollInterval must be at least 5 seconds; the default, 15 seconds, is used.' },
      { level: 'warn', text: 'In the configuration, "webhookk" is read as webhook.' },
    ]);
  });

  it('names notes in one debug line: one note, or several', () => {
    expect(logged({ ...VALID_CONFIG, _note: 'the gate by the road' })).toEqual([
      { level: 'debug', text: 'In the configuration, _note is a note: it names no door and changes nothing.' },
    ]);
    expect(logged({ ...VALID_CONFIG, _note: 'a', comment: 'b' })).toEqual([
      { level: 'debug', text: 'In the configuration, _note; comment are notes: they name no door and change nothing.' },
    ]);
  });

  it('says nothing of a block with nothing to say', () => {
    expect(logged(VALID_CONFIG)).toEqual([]);
  });
});

// A bug of the plugin's own is logged once with its stack, and, through the platform's redacting log, never with the
// access token or the webhook key in it.
import { describe, expect, it } from 'vitest';

import { BugLog } from '../../../src/util/bug-log.js';
import { redactingLog } from '../../../src/util/redacting-log.js';
import { captureLog } from '../../support/log.js';

const TOKEN = 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b';
const WEBHOOK_KEY = '7e1d'.repeat(24);

describe('BugLog', () => {
  it('blanks the token and the webhook key, in either case, and says each bug once', () => {
    const log = captureLog();
    const bugs = new BugLog(redactingLog(log, [TOKEN, WEBHOOK_KEY]));
    const error = new Error(`failed for Bearer ${TOKEN} with key ${WEBHOOK_KEY.toUpperCase()}`);
    bugs.report('reading a door', error);
    bugs.report('reading a door', error);
    const lines = log.lines.filter((line) => line.level === 'error').map((line) => line.text);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('A bug in the plugin while reading a door');
    expect(lines[0]).not.toContain(TOKEN);
    expect(lines[0]?.toLowerCase()).not.toContain(WEBHOOK_KEY);
    expect(lines[0]).toContain('[redacted]');
  });
});

// The platform's log: every line, at every level and however it is written, leaves without the token or the webhook key.
import { describe, expect, it } from 'vitest';

import { redactingLog } from '../../../src/util/redacting-log.js';
import { captureLog } from '../../support/log.js';

const TOKEN = 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b';
const WEBHOOK_KEY = '7e1d'.repeat(24);

describe('redactingLog', () => {
  it('takes the secrets out of a line at every level, in any spelling, and leaves other lines as they are', () => {
    const log = captureLog();
    const redacting = redactingLog(log, [TOKEN, WEBHOOK_KEY]);
    redacting(`plain ${TOKEN}`);
    redacting.info(`info ${TOKEN.toUpperCase()}`);
    redacting.success(`success ${encodeURIComponent(`"${TOKEN}"`)}`);
    redacting.warn(`warn ${WEBHOOK_KEY}`);
    redacting.error(`error ${TOKEN.split('').join(' ')}`);
    redacting.debug(`debug ${WEBHOOK_KEY.slice(10, 30)}`);
    // Logging.log takes Homebridge's LogLevel, a const enum of these words that a test cannot import at run time.
    Reflect.apply(redacting.log.bind(redacting), undefined, ['warn', `log ${TOKEN}`]);
    redacting.warn('Door Garage Door is open 100%% of the time.');
    expect(log.lines).toEqual([
      { level: 'info', text: 'plain [redacted]' },
      { level: 'info', text: 'info [redacted]' },
      { level: 'success', text: 'success %22[redacted]%22' },
      { level: 'warn', text: 'warn [redacted]' },
      { level: 'error', text: 'error [redacted]' },
      { level: 'debug', text: 'debug [redacted]' },
      { level: 'info', text: 'log [redacted]' },
      { level: 'warn', text: 'Door Garage Door is open 100%% of the time.' },
    ]);
    expect(redacting.prefix).toBe(log.prefix);
  });

  it('finds a secret passed as a parameter, and formats the line once', () => {
    const written: unknown[][] = [];
    const log = Object.assign(captureLog(), { warn: (...line: unknown[]) => void written.push(line) });
    redactingLog(log, [TOKEN]).warn('sent %s at %d%%', TOKEN, 5);
    expect(written).toEqual([['%s', 'sent [redacted] at 5%']]);
  });
});

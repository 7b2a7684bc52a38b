// Sync health: failures counted for the back-off, one line per outage and one at its end, "No Response" after enough failures.
import { describe, expect, it, vi } from 'vitest';

import { ServiceError } from '../../../src/client/errors.js';
import { FAILED_SYNCS_BEFORE_NO_RESPONSE, MAX_RETRY_AFTER_MS } from '../../../src/settings.js';
import { SyncHealth } from '../../../src/sync/health.js';
import { captureLog } from '../../support/log.js';

function setup() {
  const log = captureLog();
  const accountUnreadable = vi.fn();
  return { log, accountUnreadable, health: new SyncHealth({ log, accountUnreadable }) };
}

const outage = () => new ServiceError('network', 'the service did not answer');
const tooLongWait = () => new ServiceError('rate-limited', 'HTTP 429', 429, 3 * MAX_RETRY_AFTER_MS);

describe('SyncHealth', () => {
  it('logs an outage once, keeps repeats to debug, and logs its end once', () => {
    const t = setup();
    t.health.failed(outage());
    t.health.failed(outage());
    t.health.failed(outage());
    t.health.succeeded();
    t.health.succeeded();
    expect(t.log.texts('error')).toEqual(['The account could not be synced: the service did not answer. Retrying with back-off.']);
    expect(t.log.texts('debug')).toHaveLength(2);
    expect(t.log.texts('info')).toEqual(['The account can be read again; door states are current.']);
  });

  it('counts failures in a row and keeps the asked wait for the back-off, both cleared by a good sync', () => {
    const t = setup();
    t.health.failed(outage());
    t.health.failed(tooLongWait());
    expect(t.health.failedSyncs).toBe(2);
    expect(t.health.retryAfterMs).toBe(3 * MAX_RETRY_AFTER_MS);
    t.health.succeeded();
    expect(t.health.failedSyncs).toBe(0);
    expect(t.health.retryAfterMs).toBeUndefined();
  });

  it(`makes the doors unreadable from the ${FAILED_SYNCS_BEFORE_NO_RESPONSE}th failure in a row on, not before`, () => {
    const t = setup();
    for (let i = 1; i < FAILED_SYNCS_BEFORE_NO_RESPONSE; i += 1) {
      t.health.failed(outage());
    }
    expect(t.accountUnreadable).not.toHaveBeenCalled();
    t.health.failed(outage());
    t.health.failed(outage());
    expect(t.accountUnreadable).toHaveBeenCalledTimes(2);
  });

  it('says once per outage that it waits less than the service asked, and again in the next outage', () => {
    const t = setup();
    t.health.failed(tooLongWait());
    t.health.failed(tooLongWait());
    t.health.failed(outage());
    t.health.failed(tooLongWait());
    const capped = () => t.log.texts('warn').filter((line) => line.includes('instead, the longest the plugin waits'));
    expect(capped()).toHaveLength(1);
    t.health.succeeded();
    t.health.failed(tooLongWait());
    expect(capped()).toHaveLength(2);
  });

  it('names the unreadable parts of a good sync when they change, and says when every part can be read again', () => {
    const t = setup();
    t.health.noteUnreadable([]);
    t.health.noteUnreadable(['devices.0: bad id']);
    t.health.noteUnreadable(['devices.0: bad id']);
    t.health.noteUnreadable(['devices.0: bad id', 'devices.1.doors.0: bad state']);
    t.health.noteUnreadable([]);
    t.health.noteUnreadable([]);
    expect(t.log.lines.map((line) => `${line.level}: ${line.text}`)).toEqual([
      'warn: Part of the account could not be read and is left as it was: devices.0: bad id.',
      'warn: Part of the account could not be read and is left as it was: devices.0: bad id; devices.1.doors.0: bad state.',
      'info: Every part of the account can be read again.',
    ]);
  });
});

// The service's Retry-After as law: no covered request before it passes, said once per outage with the time, capped.
import { describe, expect, it } from 'vitest';

import { ServiceError } from '../../../src/client/errors.js';
import { MAX_RETRY_AFTER_MS } from '../../../src/settings.js';
import { ServiceWait } from '../../../src/sync/service-wait.js';
import { ManualClock } from '../../support/homebridge-double.js';
import { captureLog } from '../../support/log.js';

function rig() {
  const clock = new ManualClock();
  const log = captureLog();
  const wait = new ServiceWait({ clock, log });
  let sent = 0;
  const limited = (retryAfterMs: number | undefined) => () => {
    sent += 1;
    return Promise.reject(new ServiceError('rate-limited', 'the service is limiting requests (HTTP 429)', 429, retryAfterMs));
  };
  const ok = () => {
    sent += 1;
    return Promise.resolve('answer');
  };
  return { clock, log, wait, limited, ok, sent: () => sent };
}

describe('ServiceWait', () => {
  it('sends nothing until the wait has passed, then sends again', async () => {
    const t = rig();
    await expect(t.wait.send(t.limited(600_000))).rejects.toBeInstanceOf(ServiceError);
    expect(t.wait.until()).toBe(t.clock.now() + 600_000);
    t.clock.advance(599_999);
    const held = await t.wait.send(t.ok).catch((error: unknown) => error);
    expect(held).toMatchObject({ kind: 'rate-limited', retryAfterMs: 1 });
    expect(t.sent()).toBe(1);
    t.clock.advance(1);
    await expect(t.wait.send(t.ok)).resolves.toBe('answer');
    expect(t.sent()).toBe(2);
  });

  it('says until when once per outage, caps the wait, and ignores failures that ask for none', async () => {
    const t = rig();
    await t.wait.send(t.limited(undefined)).catch(() => undefined);
    expect(t.wait.until()).toBeUndefined();
    await t.wait.send(t.limited(30 * 24 * 3_600_000)).catch(() => undefined);
    expect(t.wait.until()).toBe(t.clock.now() + MAX_RETRY_AFTER_MS);
    t.clock.advance(MAX_RETRY_AFTER_MS);
    await t.wait.send(t.limited(60_000)).catch(() => undefined);
    expect(t.log.texts('warn')).toEqual([
      'The service asked the plugin to wait: no sync or history request until 2026-11-21 13:00:00 UTC (in 60 minutes). Commands from HomeKit are still sent; doors whose state grows stale meanwhile show No Response.',
    ]);
    t.clock.advance(60_000);
    await t.wait.send(t.ok);
    await t.wait.send(t.limited(60_000)).catch(() => undefined);
    expect(t.log.texts('warn')).toHaveLength(2);
  });
});

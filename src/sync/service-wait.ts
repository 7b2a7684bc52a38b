// The wait a 429 or 503 asked for with Retry-After, as law for every request it covers (syncs and history reads): none
// is sent before it has passed. Commands from HomeKit are not covered: the user asked for them.
import type { Logging } from 'homebridge';

import { ServiceError } from '../client/errors.js';
import { MAX_RETRY_AFTER_MS } from '../settings.js';
import type { Clock } from '../util/clock.js';
import { describeWait } from './schedule.js';

export interface ServiceWaitDeps {
  clock: Clock;
  log: Logging;
}

export class ServiceWait {
  /** No covered request before this time; undefined while the service asked for no wait. */
  private untilMs: number | undefined;
  /** Said at the first wait of an outage; a longer one asked again before any request succeeds goes to the debug log. */
  private said = false;

  constructor(private readonly deps: ServiceWaitDeps) {}

  /** When covered requests may be sent again, while the service's wait lasts. */
  until(): number | undefined {
    if (this.untilMs !== undefined && this.deps.clock.now() >= this.untilMs) {
      this.untilMs = undefined;
    }
    return this.untilMs;
  }

  /**
   * Sends `request` unless the wait holds: then it fails at once as the service would (rate-limited, with the time left),
   * and nothing reaches the service. A failure that carries a Retry-After starts or lengthens the wait.
   */
  async send<T>(request: () => Promise<T>): Promise<T> {
    const until = this.until();
    if (until !== undefined) {
      const leftMs = until - this.deps.clock.now();
      throw new ServiceError('rate-limited', `the service asked to wait until ${clockTime(until)} and was not asked again`, 429, leftMs);
    }
    try {
      const answer = await request();
      this.said = false;
      return answer;
    } catch (error) {
      this.note(error);
      throw error;
    }
  }

  /** A failed answer: its Retry-After (capped at MAX_RETRY_AFTER_MS, as the schedule is) holds every covered request. */
  private note(error: unknown): void {
    if (!(error instanceof ServiceError) || error.retryAfterMs === undefined || error.retryAfterMs <= 0) return;
    const waitMs = Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS);
    const until = this.deps.clock.now() + waitMs;
    if (this.untilMs !== undefined && until <= this.untilMs) return;
    this.untilMs = until;
    const line = `The service asked the plugin to wait: no sync or history request until ${clockTime(until)} (in ${describeWait(waitMs)}).`;
    if (this.said) {
      this.deps.log.debug(line);
      return;
    }
    this.said = true;
    this.deps.log.warn(`${line} Commands from HomeKit are still sent; doors whose state grows stale meanwhile show No Response.`);
  }
}

/** A time for the log, in UTC with its zone said (the log's own times are the machine's). */
function clockTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

// How the account sync is faring: failures in a row and the wait the service asked for (for the back-off), the lines for an
// outage and its end, and when the doors must show "No Response".
import type { Logging } from 'homebridge';

import type { ServiceError } from '../client/errors.js';
import { FAILED_SYNCS_BEFORE_NO_RESPONSE, MAX_RETRY_AFTER_MS } from '../settings.js';
import { IncidentLog } from '../util/incident-log.js';
import { listForLog } from '../util/log-text.js';
import { NoticeOnce } from '../util/notice-once.js';
import { asServiceError, syncFailureLogLine } from './failure.js';
import { describeWait } from './schedule.js';

export interface SyncHealthDeps {
  log: Logging;
  /** Called at each failed sync from the FAILED_SYNCS_BEFORE_NO_RESPONSE-th in a row on: the doors can no longer be trusted. */
  accountUnreadable: () => void;
}

export class SyncHealth {
  private failures = 0;
  private lastFailure: ServiceError | undefined;
  private readonly incidents: IncidentLog;
  /** The service asked for a longer wait than the plugin waits: said once per outage. */
  private readonly retryAfterCapped = new NoticeOnce();
  /** Parts of the account a good sync could not read: said when they change, and when none are left. */
  private readonly unreadableParts = new NoticeOnce();

  constructor(private readonly deps: SyncHealthDeps) {
    this.incidents = new IncidentLog(deps.log);
  }

  /** Failed syncs since the last good one, for the back-off. */
  get failedSyncs(): number {
    return this.failures;
  }

  /** The wait the service asked for at the last failure, if it asked. */
  get retryAfterMs(): number | undefined {
    return this.lastFailure?.retryAfterMs;
  }

  /** A sync failed with `error` (whatever it threw). */
  failed(error: unknown): void {
    const failure = asServiceError(error);
    this.failures += 1;
    this.lastFailure = failure;
    this.incidents.report(failure.kind, syncFailureLogLine(failure));
    const asked = failure.retryAfterMs;
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
      // The schedule caps the wait; say so once, or a user would wonder why the plugin ignores the service.
      this.retryAfterCapped.holds(() =>
        this.deps.log.warn(
          `The service asked to wait ${describeWait(asked)} before the next request; waiting ${describeWait(MAX_RETRY_AFTER_MS)} instead, the longest the plugin waits, then asking again.`,
        ),
      );
    }
    if (this.failures >= FAILED_SYNCS_BEFORE_NO_RESPONSE) {
      this.deps.accountUnreadable();
    }
  }

  /** A sync answered: the outage, if any, is over. */
  succeeded(): void {
    this.failures = 0;
    this.lastFailure = undefined;
    this.retryAfterCapped.ended();
    this.incidents.resolve('The account can be read again; door states are current.');
  }

  /** Logs the parts of a good sync that could not be read when they differ from the last ones logged, and when none are left. */
  noteUnreadable(unreadable: readonly string[]): void {
    if (unreadable.length === 0) {
      this.unreadableParts.ended(() => this.deps.log.info('Every part of the account can be read again.'));
      return;
    }
    this.unreadableParts.holds(
      () => this.deps.log.warn(`Part of the account could not be read and is left as it was: ${listForLog(unreadable)}.`),
      unreadable.join('\n'),
    );
  }
}

// "People and activity": the shown doors' toggle history of the last days, read by the settings server (it holds the token), a few at a time.
import { ServiceError } from '../../client/errors.js';
import type { Timeouts } from '../../client/http.js';
import { AccessControlClient } from '../../client/service-client.js';
import type { ToggleEvent } from '../../client/types.js';
import { parseConfig } from '../../config/index.js';
import {
  ACTIVITY_DAYS,
  ACTIVITY_DOOR_DEADLINE_MS,
  ACTIVITY_ENTRIES_PER_DOOR_MAX,
  ACTIVITY_RATE_LIMIT_PAUSE_MS,
  MAX_RETRY_AFTER_MS,
  ACTIVITY_REQUESTS_IN_FLIGHT_MAX,
  PLATFORM_NAME,
} from '../../settings.js';
import { asServiceError } from '../../sync/failure.js';
import { within } from '../../util/clock.js';
import { oneLine } from '../../util/log-text.js';
import { doorActivity } from './activity-entries.js';
import { InFlightLimit } from './in-flight-limit.js';
import { inPageWords } from '../shared/labels.js';
import type { ActivityAnswer, DoorActivity } from '../shared/messages.js';

const DAY_MS = 24 * 60 * 60_000;

/** Every read of every request of this server process shares it: two pages open at once still keep the bound. */
const SHARED_LIMIT = new InFlightLimit(ACTIVITY_REQUESTS_IN_FLIGHT_MAX);

/**
 * After a 429, no history is asked until the wait the service gave (or ACTIVITY_RATE_LIMIT_PAUSE_MS) has passed: the
 * running bridge syncs with the same token, and reading on through a lockout would only lengthen it.
 */
export class HistoryPause {
  private untilMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** How long reads are still paused (ms), or undefined. */
  left(): number | undefined {
    const left = this.untilMs - this.now();
    return left > 0 ? left : undefined;
  }

  /** The wait the service gave, at most MAX_RETRY_AFTER_MS as the sync takes it: a Retry-After of days must not end the section. */
  rateLimited(retryAfterMs: number | undefined): void {
    const waitMs = Math.min(retryAfterMs ?? ACTIVITY_RATE_LIMIT_PAUSE_MS, MAX_RETRY_AFTER_MS);
    this.untilMs = Math.max(this.untilMs, this.now() + waitMs);
  }
}

/** Shared by every request of this server process, as the limit is. */
const SHARED_PAUSE = new HistoryPause();

/** The days the history is asked for, UTC as the service's dates: the last ACTIVITY_DAYS, today included. */
export function activityDays(nowMs: number): { startDate: string; endDate: string } {
  const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
  return { startDate: day(nowMs - (ACTIVITY_DAYS - 1) * DAY_MS), endDate: day(nowMs) };
}

/**
 * When to reload, from the wait the service gave (Retry-After) as the pause takes it: "in 5 seconds", "in a minute",
 * "in 10 minutes"; a minute when it gave none.
 */
export function waitWords(retryAfterMs: number | undefined): string {
  const seconds = Math.ceil(Math.min(retryAfterMs ?? ACTIVITY_RATE_LIMIT_PAUSE_MS, MAX_RETRY_AFTER_MS) / 1000);
  if (seconds <= 1) return 'in a second';
  if (seconds < 60) return `in ${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'in a minute' : minutes >= 60 ? 'in an hour' : `in ${minutes} minutes`;
}

/** Why one door's history could not be read, in the page's words; the client's own sentence goes behind Details. */
function activityFailure(doorId: string, failure: ServiceError): DoorActivity & { ok: false } {
  const detail = oneLine(failure.message);
  const said = (message: string): DoorActivity & { ok: false } => ({ doorId, ok: false, message, detail });
  switch (failure.kind) {
    case 'auth':
      return said(
        `The service refused to show this door's history (HTTP ${failure.status ?? 401}): the access token may not be allowed to read it.`,
      );
    case 'rate-limited':
      return said(
        `The service is limiting requests for now: its history was not read. Reload the page ${waitWords(failure.retryAfterMs)} to try again.`,
      );
    case 'timeout':
      return said('The service did not answer in time for this door. Reload the page to try again.');
    case 'network':
      return said('The service could not be reached for this door. Check that it is up, then reload the page.');
    case 'http':
      return failure.status === 404
        ? said('The service has no history for this door.')
        : said(`The service answered with an error for this door (HTTP ${failure.status ?? 'unknown'}); it may be down for a while.`);
    default:
      return said("The service's answer for this door could not be read.");
  }
}

export interface ActivityOptions {
  /** Default: the one limit of this process. Tests give their own. */
  limit?: InFlightLimit;
  /** Default: the one pause of this process. Tests give their own. */
  pause?: HistoryPause;
  /** One door's read; default: the service's toggle history through the plugin's client. Tests give a fake. */
  readDoor?: (doorId: string) => Promise<ToggleEvent[]>;
  deadlineMs?: number;
  timeouts?: Timeouts;
  nowMs?: number;
  /** Text the service's answers must not pass on besides the token (the saved webhook keys). */
  secrets?: readonly string[];
}

/**
 * Each door's history of the last days (each door once, in the order asked), one request per door and never more than the limit in flight; one door's
 * failure is its own result, the others are still read. Never throws; the token goes to the service only.
 */
export async function readActivity(
  baseUrl: unknown,
  accessToken: unknown,
  doorIds: readonly string[],
  options: ActivityOptions = {},
): Promise<ActivityAnswer> {
  const parsed = parseConfig({ platform: PLATFORM_NAME, baseUrl, accessToken });
  if (!parsed.ok) {
    return { ok: false, message: `Fix the settings first: ${parsed.problems.map(inPageWords).join('; ')}.` };
  }
  const deadlineMs = options.deadlineMs ?? ACTIVITY_DOOR_DEADLINE_MS;
  const limit = options.limit ?? SHARED_LIMIT;
  const pause = options.pause ?? SHARED_PAUSE;
  let client: AccessControlClient | undefined;
  const days = activityDays(options.nowMs ?? Date.now());
  const readDoor =
    options.readDoor ??
    ((doorId: string): Promise<ToggleEvent[]> => {
      client ??= new AccessControlClient({
        baseUrl: parsed.config.baseUrl,
        accessToken: parsed.config.accessToken,
        timeouts: options.timeouts,
        readTimeoutMs: deadlineMs,
        secrets: options.secrets,
      });
      return client.history({ historyType: 'door', doorId, ...days });
    });
  try {
    // Each door once: one request per door, whatever the list repeats.
    const doors = await Promise.all(
      [...new Set(doorIds)].map((doorId) =>
        limit.run(async (): Promise<DoorActivity> => {
          const left = pause.left();
          if (left !== undefined) {
            const seconds = Math.ceil(left / 1000);
            return activityFailure(
              doorId,
              new ServiceError('rate-limited', `not asked: the service asked to wait ${seconds} s more`, 429, left),
            );
          }
          try {
            // A stalled answer must not hold a place in the limit.
            const events = await within(
              readDoor(doorId),
              deadlineMs,
              () => new ServiceError('timeout', 'the history request did not answer in time'),
            );
            return doorActivity(doorId, events, ACTIVITY_ENTRIES_PER_DOOR_MAX, days);
          } catch (error) {
            const failure = asServiceError(error);
            if (failure.kind === 'rate-limited') pause.rateLimited(failure.retryAfterMs);
            return activityFailure(doorId, failure);
          }
        }),
      ),
    );
    return { ok: true, doors };
  } finally {
    // Not awaited: after a deadline the agent would wait for the stalled request to end.
    void client?.close();
  }
}

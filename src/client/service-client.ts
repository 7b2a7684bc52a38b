// The access-control service's three calls (sync, toggle, history), typed and validated; it knows nothing of Homebridge.
import type { Agent } from './undici.js';

import { READ_TIMEOUT_MS, TOGGLE_TIMEOUT_MS } from '../settings.js';
import { isSuccessStatus, ServiceError, statusKind, ToggleRejectedError } from './errors.js';
import { createAgent, DEFAULT_TIMEOUTS, requestJson, secretName } from './http.js';
import { namesOf, withoutSecretsIn } from '../util/redact.js';
import type { JsonResponse, Timeouts } from './http.js';
import { historyFieldsRead, parseHistory, parseSync, syncFieldsRead, toggleResponseSchema } from './schemas.js';
import type { Account, DoorState, ToggleEvent } from './types.js';

const SYNC_PATH = '/oauth/v1/endpoints/sync';
const TOGGLE_PATH = '/oauth/v1/endpoint/toggle';
const HISTORY_PATH = '/oauth/v1/endpoints/toggle-history';

export interface ClientOptions {
  /** The service's base address without the /oauth/v1 part, e.g. https://api.example.com */
  baseUrl: string;
  accessToken: string;
  /** Connection timeouts; the defaults suit the real service, tests shorten them. */
  timeouts?: Timeouts;
  /** Whole-request bound of a toggle. */
  toggleTimeoutMs?: number;
  /** Whole-request bound of a sync or history read. */
  readTimeoutMs?: number;
  /** Other text the service's answers must never pass on (the webhook key); the access token never is either. */
  secrets?: readonly string[];
}

export interface HistoryQuery {
  historyType: 'door' | 'device' | 'user';
  doorId?: string;
  deviceId?: string;
  /** YYYY-MM-DD */
  startDate?: string;
  /** YYYY-MM-DD */
  endDate?: string;
}

export class AccessControlClient {
  private readonly agent: Agent;
  private readonly baseUrl: string;
  private readonly toggleTimeoutMs: number;
  private readonly readTimeoutMs: number;
  // Kept off the instance's enumerable fields so a logged or inspected client never shows it.
  readonly #accessToken: string;
  readonly #secrets: readonly string[];

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#accessToken = options.accessToken;
    this.#secrets = [options.accessToken, ...(options.secrets ?? [])];
    this.agent = createAgent(options.timeouts ?? DEFAULT_TIMEOUTS);
    this.toggleTimeoutMs = options.toggleTimeoutMs ?? TOGGLE_TIMEOUT_MS;
    this.readTimeoutMs = options.readTimeoutMs ?? READ_TIMEOUT_MS;
  }

  /** Every header the contract lists; the service answers "invalid access token" when one is missing. */
  private headers(): Record<string, string> {
    return {
      accept: 'application/json',
      'content-type': 'application/json',
      authorization: `Bearer ${this.#accessToken}`,
      'accept-charset': 'utf-8',
      'accept-encoding': 'gzip, deflate',
    };
  }

  private url(path: string, query?: Record<string, string | undefined>): URL {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) {
        url.searchParams.set(key, value);
      }
    }
    return url;
  }

  /** The whole account: every device and door the user owns or was granted. */
  async sync(): Promise<Account> {
    const response = await requestJson(this.agent, {
      method: 'GET',
      url: this.url(SYNC_PATH),
      headers: this.headers(),
      timeoutMs: this.readTimeoutMs,
      secrets: this.#secrets,
      cleansWhatItReads: true,
    });
    expectOk(response, 'sync');
    // Cleaned of secrets where it enters, field by field, but only the fields the plugin reads and logs: never the rest of
    // the answer (a 6 MB sync's images).
    const account = parseSync(withoutSecretsIn(syncFieldsRead(response.body), this.#secrets));
    if (account instanceof Error) {
      throw new ServiceError(
        'invalid-response',
        `the account data does not have the expected shape (${account.issues[0]?.message ?? 'unreadable'})`,
      );
    }
    return account;
  }

  /**
   * Asks the controller to open or close one door. Never retried here: after a time-out the service may have acted.
   * The status code decides the outcome (any 2xx is taken, a 202 or a bodiless 204 as a 200); error bodies carry `success: true` too.
   */
  async toggle(doorId: string, state: DoorState): Promise<void> {
    const response = await requestJson(this.agent, {
      method: 'POST',
      url: this.url(TOGGLE_PATH),
      headers: this.headers(),
      body: { door_id: doorId, door_state: state },
      timeoutMs: this.toggleTimeoutMs,
      secrets: this.#secrets,
    });
    if (isSuccessStatus(response.status)) {
      return;
    }
    if (statusKind(response.status) === 'rate-limited') {
      throw statusError(response, 'toggle');
    }
    if (response.quoted.length > 0) {
      // Its message may hold more of the secret than was found, in a spelling no rule knows: the status says enough.
      throw new ToggleRejectedError(
        response.status,
        undefined,
        `the service's message is left out: it quoted ${namesOf(response.quoted, secretName)}`,
      );
    }
    const parsed = toggleResponseSchema.safeParse(response.body);
    throw new ToggleRejectedError(response.status, parsed.success ? parsed.data.message : undefined);
  }

  /** Toggle history of a door, a device or the whole account, newest first as the service sends it. */
  async history(query: HistoryQuery): Promise<ToggleEvent[]> {
    const url = this.url(HISTORY_PATH, {
      history_type: query.historyType,
      door_id: query.doorId,
      device_id: query.deviceId,
      start_date: query.startDate,
      end_date: query.endDate,
    });
    const response = await requestJson(this.agent, {
      method: 'GET',
      url,
      headers: this.headers(),
      timeoutMs: this.readTimeoutMs,
      secrets: this.#secrets,
      cleansWhatItReads: true,
    });
    expectOk(response, 'history');
    // Cleaned where it enters, only the fields the plugin reads (see sync).
    const events = parseHistory(withoutSecretsIn(historyFieldsRead(response.body), this.#secrets));
    if (events instanceof Error) {
      throw new ServiceError('invalid-response', 'the history data does not have the expected shape');
    }
    return events;
  }

  /** Closes kept-alive connections so Homebridge can exit at once. */
  async close(): Promise<void> {
    if (!this.agent.closed && !this.agent.destroyed) {
      await this.agent.close();
    }
  }
}

function expectOk(response: JsonResponse, what: string): void {
  if (response.status !== 200) {
    throw statusError(response, what);
  }
}

/** The failure an error status stands for; a 429 or a 503 passes on how long the service asked to wait. */
function statusError(response: JsonResponse, what: string): ServiceError {
  const { status, retryAfterMs } = response;
  const kind = statusKind(status);
  switch (kind) {
    case 'auth':
      return new ServiceError(kind, `the service refused the access token (HTTP ${status})`, status);
    case 'rate-limited':
      return new ServiceError(kind, `the service is limiting requests (HTTP ${status})`, status, retryAfterMs);
    default:
      return new ServiceError(kind, `the ${what} request failed with HTTP ${status}`, status, retryAfterMs);
  }
}

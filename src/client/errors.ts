// The service client's typed failures, told apart by what the plugin must do about them, never by message text.

export type ServiceErrorKind =
  /** 401 or 403: the access token was refused; the user must act, retrying soon only adds noise. */
  | 'auth'
  /** No connection: refused, DNS failure, reset. */
  | 'network'
  /** Connected but no answer in time. */
  | 'timeout'
  /** 429: wait at least as long as the service says. */
  | 'rate-limited'
  /** 5xx or another unexpected status. */
  | 'http'
  /** An answer that is not JSON, not the contract's shape, or not decodable. */
  | 'invalid-response';

/** Any 2xx: the service took the request (200 as the contract shows, 202 Accepted, 204 No Content alike). */
export function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * Whether an answer that is not a success leaves open that the service acts on the command: only a 4xx surely says it
 * read the request and did not take it. A 5xx may come from a proxy or gateway that had already passed the command on
 * (504 says exactly that), and a redirect or any other status says nothing of what became of it (303 answers a POST
 * that was carried out).
 */
export function statusLeavesOutcomeOpen(status: number): boolean {
  return !(status >= 400 && status < 500);
}

/** What an error status means for the plugin: the one place a status becomes a kind. */
export function statusKind(status: number): ServiceErrorKind {
  if (status === 401 || status === 403) {
    return 'auth';
  }
  return status === 429 ? 'rate-limited' : 'http';
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError';

  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    readonly status?: number,
    /** For 'rate-limited': how long the service asked us to wait. */
    readonly retryAfterMs?: number,
    /**
     * The request may have reached the service, which may then act on it although no answer came back (a time-out, a
     * connection cut after sending, a proxy's 5xx, an unreadable 2xx). False only when it surely did not (refused
     * connection, DNS failure, an error status from the service itself): a toggle then surely moved nothing.
     */
    readonly mayHaveArrived: boolean = kind === 'timeout',
    /** For 'network': the system's code (ENOTFOUND, ECONNREFUSED...), so a not-found host is told from a silent one without reading the message. */
    readonly code?: string,
  ) {
    super(message);
  }
}

/**
 * What each toggle refusal of the contract's table means (its section 7), said with the status where the service's own
 * message is missing or left out.
 */
export const TOGGLE_REFUSALS: Readonly<Partial<Record<number, string>>> = {
  400: 'the controller reported a malformed request',
  401: 'the controller reported an authentication error',
  404: 'the controller cannot be found: unplug it and plug it back in',
  428: 'the controller needs a door sensor paired before it can do this',
  501: 'the controller reported that it cannot do this (not implemented)',
};

/**
 * A toggle answered with a status that is not a success; `serviceMessage` is its text for the user (428: pair a door
 * sensor). `mayHaveArrived` unless the status surely says the command was not taken (statusLeavesOutcomeOpen).
 * `leftOut`: why the service's message is not passed on (it quoted a secret); the status and its meaning still are.
 */
export class ToggleRejectedError extends ServiceError {
  constructor(
    status: number,
    readonly serviceMessage: string | undefined,
    readonly leftOut?: string,
  ) {
    const open = statusLeavesOutcomeOpen(status);
    const meaning = serviceMessage ? undefined : TOGGLE_REFUSALS[status];
    const said = `HTTP ${status}${meaning ? `: ${meaning}` : ''}`;
    super(
      statusKind(status),
      `${open ? `the service answered ${said}` : `the service refused the command (${said})`}${serviceMessage ? `: ${serviceMessage}` : ''}${leftOut ? `; ${leftOut}` : ''}`,
      status,
      undefined,
      open,
    );
  }
}

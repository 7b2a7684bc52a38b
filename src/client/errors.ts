// The service client's typed failures, told apart by what the plugin must do about them, never by message text.

export type ServiceErrorKind =
  /** The access token was refused: the user must act; retrying soon only adds noise. */
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

export class ServiceError extends Error {
  override readonly name = 'ServiceError';

  constructor(
    readonly kind: ServiceErrorKind,
    message: string,
    readonly status?: number,
    /** For 'rate-limited': how long the service asked us to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** A toggle the service answered with an error status; `serviceMessage` is its text for the user (428: pair a door sensor). */
export class ToggleRejectedError extends ServiceError {
  constructor(
    status: number,
    readonly serviceMessage: string | undefined,
  ) {
    super(
      status === 401 ? 'auth' : 'http',
      `the service refused the command (HTTP ${status})${serviceMessage ? `: ${serviceMessage}` : ''}`,
      status,
    );
  }
}

// The words for a failed sync, shared by the log and the settings page's "Sign in", so a user reads the same sentence in both.
import { ServiceError } from '../client/errors.js';

/** Anything a sync threw, as the typed failure the back-off and the log work with. */
export function asServiceError(error: unknown): ServiceError {
  return error instanceof ServiceError ? error : new ServiceError('invalid-response', String(error));
}

/** What went wrong and what to do, without a full stop; never holds the token. */
export function syncFailureReason(failure: ServiceError): string {
  return failure.kind === 'auth'
    ? `The service refused the access token (HTTP ${failure.status ?? 401}). Check "accessToken" in the plugin settings`
    : `The account could not be synced: ${failure.message}`;
}

/** The log's line: the reason and what the plugin does about it. */
export function syncFailureLogLine(failure: ServiceError): string {
  return failure.kind === 'auth'
    ? `${syncFailureReason(failure)}; the plugin keeps trying with back-off and recovers by itself once the token works.`
    : `${syncFailureReason(failure)}. Retrying with back-off.`;
}

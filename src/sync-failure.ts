// The one sentence a user reads when the account cannot be synced: the plugin logs it, the settings page shows it after "Sign in".
import { ServiceError } from './client/errors.js';

/** Anything a sync threw, as the typed failure the back-off and the log work with. */
export function asServiceError(error: unknown): ServiceError {
  return error instanceof ServiceError ? error : new ServiceError('invalid-response', String(error));
}

/** Says what went wrong and what to do; never holds the token. */
export function syncFailureSentence(failure: ServiceError): string {
  if (failure.kind === 'auth') {
    return `The service refused the access token (HTTP ${failure.status ?? 401}). Check "accessToken" in the plugin settings; the plugin keeps trying with back-off and recovers by itself once the token works.`;
  }
  return `The account could not be synced: ${failure.message}. Retrying with back-off.`;
}

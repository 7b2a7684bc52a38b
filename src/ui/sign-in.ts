// "Sign in" on the settings page: the plugin's own client syncs the account once, and the page gets the doors or the plugin's sentence.
import { ServiceError } from '../client/errors.js';
import type { Timeouts } from '../client/http.js';
import { AccessControlClient } from '../client/service-client.js';
import type { Account } from '../client/types.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import { parseConfig } from '../config.js';
import { PLATFORM_NAME, SIGN_IN_DEADLINE_MS } from '../settings.js';
import { asServiceError, syncFailureReason } from '../sync/failure.js';
import { accountView } from './account-view.js';
import type { AccountView } from './page/views.js';

export type SignInResult = { ok: true; account: AccountView; raw: Account } | { ok: false; message: string };

export interface SignInOptions {
  deadlineMs?: number;
  /** Tests shorten the connection's own time-outs. */
  timeouts?: Timeouts;
}

/** Never throws; the token goes to the service only, never into the result. */
export async function signIn(baseUrl: unknown, accessToken: unknown, options: SignInOptions = {}): Promise<SignInResult> {
  // The plugin's own parser names a missing or malformed field exactly as the log would.
  const parsed = parseConfig({ platform: PLATFORM_NAME, baseUrl, accessToken });
  if (!parsed.ok) {
    return { ok: false, message: `Fix the settings first: ${parsed.problems.join('; ')}.` };
  }
  const client = new AccessControlClient({ baseUrl: parsed.config.baseUrl, accessToken: parsed.config.accessToken, timeouts: options.timeouts });
  let timer: unknown;
  const deadline = new Promise<never>((_, reject) => {
    timer = SYSTEM_CLOCK.setTimeout(() => reject(new ServiceError('timeout', 'the service did not answer in time')), options.deadlineMs ?? SIGN_IN_DEADLINE_MS);
  });
  try {
    const account = await Promise.race([client.sync(), deadline]);
    return { ok: true, account: accountView(account), raw: account };
  } catch (error) {
    return { ok: false, message: `${syncFailureReason(asServiceError(error))}.` };
  } finally {
    SYSTEM_CLOCK.clearTimeout(timer);
    // Not awaited: after a deadline the agent would wait for the stalled request to end.
    void client.close();
  }
}

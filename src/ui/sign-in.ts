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
import { LABELS } from './requests.js';

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
    // The parser's words, with the field named as the page labels it ("Access token is required").
    const problems = parsed.problems.map((problem) =>
      problem.replace(/^(accessToken|baseUrl)\b/, (key) => LABELS[key as 'accessToken' | 'baseUrl']),
    );
    return { ok: false, message: `Fix the settings first: ${problems.join('; ')}.` };
  }
  const deadlineMs = options.deadlineMs ?? SIGN_IN_DEADLINE_MS;
  // The sync's own whole-request bound is the deadline too, so a stalled answer's connection is cut when the page gives up.
  const client = new AccessControlClient({
    baseUrl: parsed.config.baseUrl,
    accessToken: parsed.config.accessToken,
    timeouts: options.timeouts,
    readTimeoutMs: deadlineMs,
  });
  let timer: unknown;
  const deadline = new Promise<never>((_, reject) => {
    timer = SYSTEM_CLOCK.setTimeout(() => reject(new ServiceError('timeout', 'the service did not answer in time')), deadlineMs);
  });
  try {
    const account = await Promise.race([client.sync(), deadline]);
    return { ok: true, account: accountView(account), raw: account };
  } catch (error) {
    const failure = asServiceError(error);
    if (failure.status !== undefined && failure.status >= 300 && failure.status < 400) {
      // Never followed (undici's request does not, and no redirect handler is installed): the token goes only to the
      // address typed. Where it points is not repeated either; the service's own address is the one to type.
      return {
        ok: false,
        message: `The ${LABELS.baseUrl} answered with a redirect (HTTP ${failure.status}), which is not followed: the plugin does not follow it either. Type the address the service itself answers on.`,
      };
    }
    return { ok: false, message: `${syncFailureReason(failure)}.` };
  } finally {
    SYSTEM_CLOCK.clearTimeout(timer);
    // Not awaited: after a deadline the agent would wait for the stalled request to end.
    void client.close();
  }
}

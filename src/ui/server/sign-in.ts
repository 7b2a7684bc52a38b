// "Sign in" on the settings page: the plugin's own client syncs the account once, and the page gets the doors or the plugin's sentence.
import { ServiceError } from '../../client/errors.js';
import type { Timeouts } from '../../client/http.js';
import { AccessControlClient } from '../../client/service-client.js';
import { within } from '../../util/clock.js';
import { parseConfig } from '../../config/index.js';
import { PLATFORM_NAME, SIGN_IN_DEADLINE_MS } from '../../settings.js';
import { asServiceError } from '../../sync/failure.js';
import { accountSummary } from './account-summary.js';
import { inPageWords, LABELS } from '../shared/labels.js';
import type { AccountSummary, SignInFailure } from '../shared/messages.js';

export type SignInResult = { ok: true; account: AccountSummary } | { ok: false; kind: SignInFailure; message: string; detail?: string };

/** Host names the resolver does not know: a typo in the address, not a service that is down. */
const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN']);
/** A certificate Node will not trust: something answers, but not as a trusted HTTPS service. */
const TLS_CODE = /^(CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS_)/;

/** A failed sync in the page's words, by kind; the client's own sentence (with its codes) goes to `detail`. */
export function signInFailure(failure: ServiceError): SignInResult & { ok: false } {
  const detail = failure.message;
  const code = failure.code ?? '';
  if (failure.kind === 'auth') {
    return {
      ok: false,
      kind: 'refused',
      message: `The service refused this access token. Copy the ${LABELS.accessToken} from your account again and press Sign in.`,
      detail,
    };
  }
  if (failure.kind === 'network' && NOT_FOUND_CODES.has(code)) {
    return {
      ok: false,
      kind: 'not-found',
      message: `Nothing answers at this address: its host name was not found. Check the ${LABELS.baseUrl} for a typo.`,
      detail,
    };
  }
  if (failure.kind === 'network' && TLS_CODE.test(code)) {
    return {
      ok: false,
      kind: 'bad-answer',
      message: `Something answers at this address, but its HTTPS certificate cannot be trusted. Check the ${LABELS.baseUrl}.`,
      detail,
    };
  }
  if (failure.kind === 'network') {
    return {
      ok: false,
      kind: 'no-answer',
      message: `Nothing answers at this address. Check the ${LABELS.baseUrl}, and that the service is up.`,
      detail,
    };
  }
  if (failure.kind === 'timeout') {
    return {
      ok: false,
      kind: 'timeout',
      message: 'The service did not answer in time. It may be busy or down; try again in a minute.',
      detail,
    };
  }
  if (failure.kind === 'rate-limited') {
    return { ok: false, kind: 'bad-answer', message: 'The service is limiting requests for now; try again in a minute.', detail };
  }
  if (failure.kind === 'http') {
    return {
      ok: false,
      kind: 'bad-answer',
      message: 'The service answered with an error; it may be down for a while. Try again later.',
      detail,
    };
  }
  return {
    ok: false,
    kind: 'bad-answer',
    message: `Something answers at this address, but not as the access-control service does. Check the ${LABELS.baseUrl}.`,
    detail,
  };
}

export interface SignInOptions {
  deadlineMs?: number;
  /** Tests shorten the connection's own time-outs. */
  timeouts?: Timeouts;
  /** Text the service's answers must not pass on besides the token (the saved webhook keys). */
  secrets?: readonly string[];
}

/** Never throws; the token goes to the service only, never into the result. */
export async function signIn(baseUrl: unknown, accessToken: unknown, options: SignInOptions = {}): Promise<SignInResult> {
  // The plugin's own parser names a missing or malformed field exactly as the log would.
  const parsed = parseConfig({ platform: PLATFORM_NAME, baseUrl, accessToken });
  if (!parsed.ok) {
    // The parser's words, with the field named as the page labels it ("Access token is required").
    return { ok: false, kind: 'fields', message: `Fix the settings first: ${parsed.problems.map(inPageWords).join('; ')}.` };
  }
  const deadlineMs = options.deadlineMs ?? SIGN_IN_DEADLINE_MS;
  // The sync's own whole-request bound is the deadline too, so a stalled answer's connection is cut when the page gives up.
  const client = new AccessControlClient({
    baseUrl: parsed.config.baseUrl,
    accessToken: parsed.config.accessToken,
    timeouts: options.timeouts,
    readTimeoutMs: deadlineMs,
    secrets: options.secrets,
  });
  try {
    const account = await within(client.sync(), deadlineMs, () => new ServiceError('timeout', 'the service did not answer in time'));
    return { ok: true, account: accountSummary(account) };
  } catch (error) {
    const failure = asServiceError(error);
    if (failure.status !== undefined && failure.status >= 300 && failure.status < 400) {
      // Never followed (undici's request does not, and no redirect handler is installed): the token goes only to the
      // address typed. Where it points is not repeated either; the service's own address is the one to type.
      return {
        ok: false,
        kind: 'redirect',
        message: `The ${LABELS.baseUrl} answered with a redirect to another address, which is not followed: the plugin does not follow it either. Type the address the service itself answers on.`,
        detail: `HTTP ${failure.status}`,
      };
    }
    return signInFailure(failure);
  } finally {
    // Not awaited: after a deadline the agent would wait for the stalled request to end.
    void client.close();
  }
}

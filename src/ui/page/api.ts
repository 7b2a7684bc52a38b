// The settings page's calls to its server process (src/ui/server/server.ts), through the Homebridge UI: each ends in an answer.
import type { IHomebridgePluginUi } from '@homebridge/plugin-ui-utils/ui.interface';

import { PAGE_REQUEST_LIMIT_MS } from '../../settings.js';
import { withoutSecretsIn } from '../../util/redact.js';
import type { Secrets } from '../../util/redact.js';
import type { ActivityAnswer, Message, PageInfo, SignInAnswer } from '../shared/messages.js';

// The Homebridge UI's object on the page's window (globalThis there): read through globalThis so the unit tests' Node type check,
// which has no DOM, compiles this file too.
const hb = (): IHomebridgePluginUi => (globalThis as unknown as { homebridge: IHomebridgePluginUi }).homebridge;

export interface PortQuery {
  port: number;
  host?: string;
  entryIndex: number;
  savedPort?: number;
}

export interface TestEventQuery {
  port: number;
  host?: string;
  path?: string;
  apiKey: string;
  headerName?: string;
  tls: boolean;
}

/** The secrets no answer may put on the page: the page sets them once (every entry's access token and webhook key, as typed now). */
let secretsNow: () => Secrets = () => [];

/**
 * Every answer of the server is cleaned of these before the page draws any of it: the server cleans what the service
 * said of the token it was sent and the saved keys, but only the page knows a webhook key typed and not saved yet.
 */
export function redactAnswersWith(secrets: () => Secrets): void {
  secretsNow = secrets;
}

/**
 * One request to the server that always settles with an answer of its own shape: a rejected request (the server
 * process died, or threw) or none within PAGE_REQUEST_LIMIT_MS becomes `failed(sentence)`, so no button stays on
 * "Signing in…" or "Sending…" for ever.
 */
export function ask<T>(path: string, body: unknown, failed: (message: string) => T, limitMs = PAGE_REQUEST_LIMIT_MS): Promise<T> {
  return new Promise<T>((settle) => {
    const resolve = (answer: T): void => settle(withoutSecretsIn(answer, secretsNow()));
    const timer = setTimeout(() => {
      resolve(failed(`The settings server did not answer within ${String(Math.round(limitMs / 1000))} s. Reload the page and try again.`));
    }, limitMs);
    hb()
      .request(path, body)
      .then(
        (answer: unknown) => {
          clearTimeout(timer);
          resolve(answer as T);
        },
        (error: unknown) => {
          clearTimeout(timer);
          const reason = error instanceof Error ? error.message : typeof error === 'string' ? error : 'no reason given';
          resolve(failed(`The settings server could not answer (${reason}). Reload the page and try again.`));
        },
      );
  });
}

const failedMessage = (message: string): Message & { ok: false } => ({ ok: false, message });
const failedSignIn = (message: string): SignInAnswer => ({ ok: false, kind: 'server', message });

export const server = {
  // Without it the page cannot draw at all: its failure reaches main()'s own message.
  info: () => hb().request('/info') as Promise<PageInfo>,
  signIn: (baseUrl: unknown, accessToken: unknown): Promise<SignInAnswer> =>
    ask<SignInAnswer>('/sign-in', { baseUrl, accessToken }, failedSignIn),
  checkPort: (query: PortQuery) => ask<Message>('/check-port', query, failedMessage),
  testEvent: (query: TestEventQuery) => ask<Message>('/test-event', query, failedMessage),
  activity: (baseUrl: unknown, accessToken: unknown, doorIds: string[]): Promise<ActivityAnswer> =>
    ask<ActivityAnswer>('/activity', { baseUrl, accessToken, doorIds }, failedMessage),
};

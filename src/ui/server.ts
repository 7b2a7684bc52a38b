// The settings page's server process: the Homebridge UI forks it, and the page asks it to sign in, check the block, ports and webhooks.
import { HomebridgePluginUiServer } from '@homebridge/plugin-ui-utils';

import type { Account } from '../client/types.js';
import { oneLine } from '../util/log-text.js';
import { checkBlock } from './check-config.js';
import { savedCertFile } from './listener-tls.js';
import { pageInfo } from './page-info.js';
import type { ConfigCheck, Message, SignInView } from './page/views.js';
import { checkPort } from './ports.js';
import { readRequest, REQUESTS } from './requests.js';
import { signIn } from './sign-in.js';
import { sendTestEvent } from './test-event.js';

const NO_BLOCK = 'The settings page sent no settings to check; reload the page.';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Runs one request's handler so that it answers whatever happens. A handler that throws would reach the page as a
 * rejected request (the page waits on "Signing in…" for ever) and the UI utilities print its stack on stderr.
 */
async function answer<T>(work: () => T | Promise<T>, failed: (message: string) => T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    return failed(`The settings server could not answer: ${oneLine(error instanceof Error ? error.message : String(error))}.`);
  }
}

const failedMessage = (message: string): Message & { ok: false } => ({ ok: false, message });
const failedSignIn = (message: string): SignInView => ({ ok: false, kind: 'server', message });
const failedCheck = (message: string): ConfigCheck => ({ problems: [message], ignored: [], shown: undefined, excluded: {} });

class SettingsServer extends HomebridgePluginUiServer {
  /** The account "Sign in" read last: the door count against the bridge's cap is worked out from it. */
  private account: Account | undefined;

  constructor() {
    super();
    this.onRequest('/info', () => pageInfo());
    this.onRequest('/sign-in', (payload: unknown) =>
      answer(async (): Promise<SignInView> => {
        const request = readRequest(REQUESTS.signIn, payload);
        if (!request.ok) {
          return { ok: false, kind: 'server', message: request.message };
        }
        const result = await signIn(request.data.baseUrl, request.data.accessToken);
        if (!result.ok) {
          return result;
        }
        this.account = result.raw;
        // The page gets the view only: the raw account stays here.
        return { ok: true, account: result.account };
      }, failedSignIn),
    );
    this.onRequest('/check', (payload: unknown) =>
      answer(() => {
        const block = isRecord(payload) ? payload.block : undefined;
        return isRecord(block) ? checkBlock(block, this.account) : failedCheck(NO_BLOCK);
      }, failedCheck),
    );
    this.onRequest('/check-port', (payload: unknown) =>
      answer(() => {
        const request = readRequest(REQUESTS.checkPort, payload);
        if (!request.ok) {
          return request;
        }
        const { port, host, entryIndex, savedPort } = request.data;
        return checkPort(port, host || undefined, { configPath: this.homebridgeConfigPath, entryIndex, savedPort });
      }, failedMessage),
    );
    this.onRequest('/test-event', (payload: unknown) =>
      answer(async () => {
        const request = readRequest(REQUESTS.testEvent, payload);
        if (!request.ok) {
          return request;
        }
        const { port, host, path, apiKey, headerName, tls } = request.data;
        // The running listener was started from the saved settings: the certificate they name for this port is the one to expect.
        const certFile = tls ? await savedCertFile(this.homebridgeConfigPath, port) : undefined;
        return sendTestEvent({
          port,
          apiKey,
          tls,
          certFile,
          host: host || undefined,
          path: path || undefined,
          headerName: headerName || undefined,
        });
      }, failedMessage),
    );
    this.ready();
  }
}

new SettingsServer();

// The settings page's server process: the Homebridge UI forks it, and the page asks it to sign in, read the doors' activity, check ports and send a test event.
// The page checks the block itself (src/ui/shared/check-config.ts, bundled into it): an edit makes no request here.
import { HomebridgePluginUiServer } from '@homebridge/plugin-ui-utils';

import { readActivity } from './activity.js';
import { savedCertFile } from './listener-tls.js';
import { savedWebhookKeys } from './saved-config.js';
import { pageInfo } from './page-info.js';
import type { ActivityAnswer, Message, SignInAnswer } from '../shared/messages.js';
import { checkPort } from './ports.js';
import { answer, readRequest, REQUESTS, secretsIn } from './requests.js';
import { signIn } from './sign-in.js';
import { sendTestEvent } from './test-event.js';

const failedMessage = (message: string): Message & { ok: false } => ({ ok: false, message });
const failedSignIn = (message: string): SignInAnswer => ({ ok: false, kind: 'server', message });

class SettingsServer extends HomebridgePluginUiServer {
  constructor() {
    super();
    this.onRequest('/info', () => pageInfo());
    this.onRequest('/sign-in', (payload: unknown) =>
      answer(
        async (): Promise<SignInAnswer> => {
          const request = readRequest(REQUESTS.signIn, payload);
          if (!request.ok) {
            return { ok: false, kind: 'server', message: request.message };
          }
          const result = await signIn(request.data.baseUrl, request.data.accessToken, {
            secrets: await savedWebhookKeys(this.homebridgeConfigPath),
          });
          if (!result.ok) {
            return result;
          }
          // The page gets the account summary only (no token, nothing internal); it counts the doors its settings show from it.
          return { ok: true, account: result.account };
        },
        failedSignIn,
        secretsIn(payload),
      ),
    );
    this.onRequest('/check-port', (payload: unknown) =>
      answer(
        () => {
          const request = readRequest(REQUESTS.checkPort, payload);
          if (!request.ok) {
            return request;
          }
          const { port, host, entryIndex, savedPort } = request.data;
          return checkPort(port, host || undefined, { configPath: this.homebridgeConfigPath, entryIndex, savedPort });
        },
        failedMessage,
        secretsIn(payload),
      ),
    );
    this.onRequest('/test-event', (payload: unknown) =>
      answer(
        async () => {
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
        },
        failedMessage,
        secretsIn(payload),
      ),
    );
    // "People and activity": the shown doors' history, read here with the token, a few at a time (src/ui/activity.ts).
    this.onRequest('/activity', (payload: unknown) =>
      answer(
        async (): Promise<ActivityAnswer> => {
          const request = readRequest(REQUESTS.activity, payload);
          if (!request.ok) {
            return request;
          }
          return readActivity(request.data.baseUrl, request.data.accessToken, request.data.doorIds, {
            secrets: await savedWebhookKeys(this.homebridgeConfigPath),
          });
        },
        failedMessage,
        secretsIn(payload),
      ),
    );
    this.ready();
  }
}

new SettingsServer();

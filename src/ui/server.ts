// The settings page's server process: the Homebridge UI forks it, and the page asks it to sign in, check the block, ports and webhooks.
import { HomebridgePluginUiServer } from '@homebridge/plugin-ui-utils';
import { z } from 'zod';

import type { Account } from '../client/types.js';
import { checkBlock } from './check-config.js';
import { pageInfo } from './page-info.js';
import { checkPort } from './ports.js';
import { signIn } from './sign-in.js';
import { sendTestEvent } from './test-event.js';

const port = z.number().int().min(1).max(65535);
const optionalText = z.string().optional();

/** What the page may send; anything else is refused before it reaches the plugin's code. */
const requests = {
  signIn: z.object({ baseUrl: z.unknown(), accessToken: z.unknown() }),
  check: z.object({ block: z.record(z.string(), z.unknown()) }),
  checkPort: z.object({ port, host: optionalText, entryIndex: z.number().int().min(0).optional(), savedPort: port.optional() }),
  testEvent: z.object({ port, host: optionalText, path: optionalText, apiKey: z.string(), headerName: optionalText, tls: z.boolean() }),
};

class SettingsServer extends HomebridgePluginUiServer {
  /** The account "Sign in" read last: the door count against the bridge's cap is worked out from it. */
  private account: Account | undefined;

  constructor() {
    super();
    this.onRequest('/info', () => pageInfo());
    this.onRequest('/sign-in', async (payload: unknown) => {
      const { baseUrl, accessToken } = requests.signIn.parse(payload);
      const result = await signIn(baseUrl, accessToken);
      if (!result.ok) {
        return result;
      }
      this.account = result.raw;
      // The page gets the view only: the raw account stays here.
      return { ok: true, account: result.account };
    });
    this.onRequest('/check', (payload: unknown) => checkBlock(requests.check.parse(payload).block, this.account));
    this.onRequest('/check-port', (payload: unknown) => {
      const request = requests.checkPort.parse(payload);
      return checkPort(request.port, request.host || undefined, {
        configPath: this.homebridgeConfigPath,
        entryIndex: request.entryIndex,
        savedPort: request.savedPort,
      });
    });
    this.onRequest('/test-event', (payload: unknown) => {
      const request = requests.testEvent.parse(payload);
      return sendTestEvent({ ...request, host: request.host || undefined, path: request.path || undefined, headerName: request.headerName || undefined });
    });
    this.ready();
  }
}

new SettingsServer();

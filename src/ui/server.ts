// The settings page's server process: the Homebridge UI forks it, and the page asks it to sign in, check ports and test webhooks.
import { HomebridgePluginUiServer } from '@homebridge/plugin-ui-utils';

class SettingsServer extends HomebridgePluginUiServer {
  constructor() {
    super();
    this.onRequest('/ping', () => ({ ok: true }));
    this.ready();
  }
}

new SettingsServer();

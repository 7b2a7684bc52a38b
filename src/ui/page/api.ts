// The settings page's calls to its server process (src/ui/server.ts), through the Homebridge UI.
import type {} from '@homebridge/plugin-ui-utils/ui.interface';

import type { Block } from './model.js';
import type { ConfigCheck, Message, PageInfo, SignInView } from './views.js';

const hb = () => window.homebridge;

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

export const server = {
  info: () => hb().request('/info') as Promise<PageInfo>,
  signIn: (baseUrl: unknown, accessToken: unknown) => hb().request('/sign-in', { baseUrl, accessToken }) as Promise<SignInView>,
  check: (block: Block) => hb().request('/check', { block }) as Promise<ConfigCheck>,
  checkPort: (query: PortQuery) => hb().request('/check-port', query) as Promise<Message>,
  testEvent: (query: TestEventQuery) => hb().request('/test-event', query) as Promise<Message>,
};

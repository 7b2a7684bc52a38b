// What the settings page needs to know before the user types: the plugin's defaults (shown, never written) and this machine's addresses.
import { networkInterfaces } from 'node:os';

import { optionDefaults } from '../../option-catalog.js';
import { DEFAULT_RECONCILE_INTERVAL_S, DEFAULT_WEBHOOK_HEADER_NAME, PLATFORM_NAME } from '../../settings.js';
import type { PageInfo } from '../shared/messages.js';

export function pageInfo(): PageInfo {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && !address.internal && address.family === 'IPv4')
    .map((address) => address?.address ?? '');
  return {
    platform: PLATFORM_NAME,
    addresses,
    defaults: {
      ...optionDefaults(),
      'webhook.headerName': DEFAULT_WEBHOOK_HEADER_NAME,
      'webhook.reconcileInterval': DEFAULT_RECONCILE_INTERVAL_S,
    },
  };
}

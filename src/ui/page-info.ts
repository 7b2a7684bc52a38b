// What the settings page needs to know before the user types: the plugin's defaults (shown, never written) and this machine's addresses.
import { networkInterfaces } from 'node:os';

import {
  DEFAULT_ACCESS_ALERT_DURATION_S,
  DEFAULT_LOW_BATTERY_THRESHOLD_PCT,
  DEFAULT_PLATFORM_NAME,
  DEFAULT_POLL_INTERVAL_S,
  DEFAULT_RECONCILE_INTERVAL_S,
  DEFAULT_TRANSITION_TIMEOUT_S,
  DEFAULT_WEBHOOK_HEADER_NAME,
  PLATFORM_NAME,
} from '../settings.js';
import type { PageInfo } from './page/views.js';

export function pageInfo(): PageInfo {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((address) => address !== undefined && !address.internal && address.family === 'IPv4')
    .map((address) => address?.address ?? '');
  return {
    platform: PLATFORM_NAME,
    addresses,
    defaults: {
      name: DEFAULT_PLATFORM_NAME,
      pollInterval: DEFAULT_POLL_INTERVAL_S,
      transitionTimeout: DEFAULT_TRANSITION_TIMEOUT_S,
      lowBatteryThreshold: DEFAULT_LOW_BATTERY_THRESHOLD_PCT,
      includeDoors: 'all',
      readOnly: false,
      automationSwitch: false,
      leftOpenSensor: false,
      contactSensor: false,
      hideBattery: false,
      accessAlert: false,
      accessAlertDuration: DEFAULT_ACCESS_ALERT_DURATION_S,
      'webhook.headerName': DEFAULT_WEBHOOK_HEADER_NAME,
      'webhook.reconcileInterval': DEFAULT_RECONCILE_INTERVAL_S,
    },
  };
}

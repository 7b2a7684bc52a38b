// Entry point Homebridge loads: registers the platform and nothing else.
import type { API } from 'homebridge';

import { AccessControlPlatform } from './platform.js';
import { PLATFORM_NAME } from './settings.js';

export default (api: API): void => {
  api.registerPlatform(PLATFORM_NAME, AccessControlPlatform);
};

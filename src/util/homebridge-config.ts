// Homebridge's config.json: where the API says it is, and what it holds now (every platform block, the bridge's port).
import { readFileSync } from 'node:fs';

import type { API } from 'homebridge';

/** Homebridge's config.json, which holds the bridge's port; undefined where the API does not give it. */
export function homebridgeConfigPath(api: API): string | undefined {
  try {
    return api.user.configPath();
  } catch {
    return undefined;
  }
}

/** Homebridge's config.json as read now (every platform block); undefined where it cannot be read. */
export function readHomebridgeConfig(api: API): unknown {
  const path = homebridgeConfigPath(api);
  try {
    return path === undefined ? undefined : (JSON.parse(readFileSync(path, 'utf8')) as unknown);
  } catch {
    return undefined;
  }
}

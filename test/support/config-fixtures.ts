// What the config tests (test/unit/config/) build on: a config the parser accepts, and its reading of one more setting.
import { parseConfig } from '../../src/config/index.js';
import type { PluginConfig } from '../../src/config/index.js';
import { PLATFORM_NAME } from '../../src/settings.js';

/** A config whose token and address are fine: each test adds the setting it is about. */
export const VALID_CONFIG = { platform: PLATFORM_NAME, accessToken: 'tok-secret-123', baseUrl: 'https://api.example.com/' };

/** A webhook key of the length the contract gives (96 hex characters). */
export const WEBHOOK_API_KEY = 'ab'.repeat(48);

function accepted(raw: Record<string, unknown>) {
  const result = parseConfig({ ...VALID_CONFIG, ...raw });
  if (!result.ok) throw new Error(`unexpectedly refused: ${result.problems.join('; ')}`);
  return result;
}

/** The ignored sentences of VALID_CONFIG with `raw` added. */
export const ignoredOf = (raw: Record<string, unknown>): string[] => accepted(raw).ignored;

/** The config read from VALID_CONFIG with `raw` added. */
export const configOf = (raw: Record<string, unknown>): PluginConfig => accepted(raw).config;

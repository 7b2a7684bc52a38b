// Turns the raw platform block of config.json into a typed, defaulted configuration, or says what is wrong.
import { z } from 'zod';

import {
  DEFAULT_LOW_BATTERY_THRESHOLD_PCT,
  DEFAULT_POLL_INTERVAL_S,
  DEFAULT_TRANSITION_TIMEOUT_S,
  MAX_POLL_INTERVAL_S,
  MAX_TRANSITION_TIMEOUT_S,
  MIN_POLL_INTERVAL_S,
  MIN_TRANSITION_TIMEOUT_S,
} from './settings.js';

const requiredText = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be ${what}`) })
    .trim()
    .min(1, 'is required');

const wholeNumber = (unit: string, min: number, max: number) =>
  z
    .number({ error: `must be a number of ${unit}` })
    .int(`must be a whole number of ${unit}`)
    .min(min, `must be at least ${min} ${unit}`)
    .max(max, `must be at most ${max} ${unit}`);

const httpAddress = requiredText('text')
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address, e.g. https://api.example.com' }))
  // The plugin appends /oauth/v1/...; a trailing slash would double it.
  .transform((url) => url.replace(/\/+$/, ''));

/** The plugin's configuration as users write it in config.json (and the settings form edits it). */
export const configSchema = z.looseObject({
  name: z.string().trim().min(1).default('Access Control'),
  accessToken: requiredText('text'),
  baseUrl: httpAddress,
  pollInterval: wholeNumber('seconds', MIN_POLL_INTERVAL_S, MAX_POLL_INTERVAL_S).default(DEFAULT_POLL_INTERVAL_S),
  transitionTimeout: wholeNumber('seconds', MIN_TRANSITION_TIMEOUT_S, MAX_TRANSITION_TIMEOUT_S).default(
    DEFAULT_TRANSITION_TIMEOUT_S,
  ),
  lowBatteryThreshold: wholeNumber('percent', 0, 100).default(DEFAULT_LOW_BATTERY_THRESHOLD_PCT),
});

export type PluginConfig = z.output<typeof configSchema>;

export type ConfigResult = { ok: true; config: PluginConfig } | { ok: false; problems: string[] };

/** Validates the whole block at once so a user sees every mistake in one log line, never a value (the token is secret). */
export function parseConfig(raw: unknown): ConfigResult {
  const result = configSchema.safeParse(raw ?? {});
  if (result.success) {
    return { ok: true, config: result.data };
  }
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : 'configuration';
    return `${path} ${issue.message}`;
  });
  return { ok: false, problems };
}

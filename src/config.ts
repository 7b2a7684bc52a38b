// Turns the raw platform block of config.json into a typed, defaulted configuration, or says what is wrong.
import { z } from 'zod';

import {
  DEFAULT_LOW_BATTERY_THRESHOLD_PCT,
  DEFAULT_RECONCILE_INTERVAL_S,
  DEFAULT_WEBHOOK_HEADER_NAME,
  MAX_LEFT_OPEN_AFTER_S,
  MIN_LEFT_OPEN_AFTER_S,
  MIN_RECONCILE_INTERVAL_S,
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

/** The optional listener for the service's webhooks (contract section 6). */
export const webhookSchema = z
  .object({
    /** Off keeps the other settings without a listener; left out, the block's presence turns the listener on. */
    enabled: z.boolean({ error: 'must be true or false' }).optional(),
    port: z
      .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a port number') })
      .int('must be a whole port number')
      .min(1, 'must be between 1 and 65535')
      .max(65535, 'must be between 1 and 65535'),
    host: z.string().trim().min(1).optional(),
    apiKey: requiredText('text').pipe(
      z.string().regex(/^[0-9a-fA-F]{96}$/, 'must be the 96-character hexadecimal key the service issued'),
    ),
    path: z.string().trim().startsWith('/', 'must start with /').optional(),
    headerName: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name')
      .default(DEFAULT_WEBHOOK_HEADER_NAME),
    tlsCertFile: z.string().trim().min(1).optional(),
    tlsKeyFile: z.string().trim().min(1).optional(),
    reconcileInterval: wholeNumber('seconds', MIN_RECONCILE_INTERVAL_S, MAX_POLL_INTERVAL_S).default(DEFAULT_RECONCILE_INTERVAL_S),
  })
  .refine((w) => (w.tlsCertFile === undefined) === (w.tlsKeyFile === undefined), {
    message: 'needs both tlsCertFile and tlsKeyFile, or neither',
    path: ['tlsKeyFile'],
  });

const isBlank = (v: unknown): boolean => v === undefined || v === null || v === '';

/**
 * No listener when it is switched off, or when the block was never filled in (the settings form may save
 * one holding only defaults). Otherwise the block is checked in full, so a half-done setup is reported.
 */
function listenerWanted(value: unknown): unknown {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  const block = value as Record<string, unknown>;
  if (block['enabled'] === false || (block['enabled'] === undefined && isBlank(block['port']) && isBlank(block['apiKey']))) {
    return undefined;
  }
  return value;
}

/** A list of device or door ids; empty means no filter. */
const idList = z.array(z.string().trim().min(1), { error: 'must be a list of ids' }).default([]);

/** Door options that can be set for all doors and overridden per door. */
const doorOptionFields = {
  readOnly: z.boolean({ error: 'must be true or false' }),
  automationSwitch: z.boolean({ error: 'must be true or false' }),
  leftOpenSensor: z.boolean({ error: 'must be true or false' }),
  contactSensor: z.boolean({ error: 'must be true or false' }),
};

/** One door's own settings, found by its id (the serial number the Home app shows). */
const doorSettingsSchema = z.object({
  id: requiredText('text'),
  name: z.string().trim().min(1).optional(),
  hide: z.boolean({ error: 'must be true or false' }).optional(),
  readOnly: doorOptionFields.readOnly.optional(),
  automationSwitch: doorOptionFields.automationSwitch.optional(),
  leftOpenSensor: doorOptionFields.leftOpenSensor.optional(),
  leftOpenAfter: wholeNumber('seconds', MIN_LEFT_OPEN_AFTER_S, MAX_LEFT_OPEN_AFTER_S).optional(),
  contactSensor: doorOptionFields.contactSensor.optional(),
});

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
  webhook: z.preprocess(listenerWanted, webhookSchema.optional()),
  includeDoors: z.enum(['all', 'owned'], { error: 'must be "all" or "owned"' }).default('all'),
  readOnly: doorOptionFields.readOnly.default(false),
  automationSwitch: doorOptionFields.automationSwitch.default(false),
  leftOpenSensor: doorOptionFields.leftOpenSensor.default(false),
  leftOpenAfter: wholeNumber('seconds', MIN_LEFT_OPEN_AFTER_S, MAX_LEFT_OPEN_AFTER_S).optional(),
  contactSensor: doorOptionFields.contactSensor.default(false),
  doors: z.array(doorSettingsSchema, { error: 'must be a list of doors' }).default([]),
  // Filters to split a large account over several child bridges: each platform entry takes its share.
  includeDeviceIds: idList,
  excludeDeviceIds: idList,
  includeDoorIds: idList,
  excludeDoorIds: idList,
});

export type PluginConfig = z.output<typeof configSchema>;
export type WebhookConfig = z.output<typeof webhookSchema>;
export type DoorSettings = z.output<typeof doorSettingsSchema>;

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

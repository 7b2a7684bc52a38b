// The optional webhook listener's block (contract section 6): read whole or not at all, since half a listener set up
// would refuse the service's events; only a bad safety-net pace is replaced by its default.
import * as z from '../util/zod.js';

import { optionSpec } from '../option-catalog.js';
import { DEFAULT_RECONCILE_INTERVAL_S, DEFAULT_WEBHOOK_HEADER_NAME, MIN_RECONCILE_INTERVAL_S } from '../settings.js';
import type { Findings } from './findings.js';
import { readKeys } from './keys.js';
import type { ReadKeys } from './keys.js';
import { flag, issuesOf, optionalText, requiredText, wholeNumber } from './schemas.js';
import { dotted, isBlank, isRecord, listing, withoutBlanks } from './values.js';

/** The characters a URL path keeps as they are: the listener compares the request's parsed path with this exactly. */
const WEBHOOK_PATH = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const PATH_MESSAGE = 'must start with / and hold no spaces, ? or # (such as /access-control)';

/** The optional listener for the service's webhooks (contract section 6). */
export const webhookSchema = z
  .object({
    /** Off keeps the other settings without a listener; left out, the block's presence turns the listener on. */
    enabled: z.optional(flag),
    port: z
      .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a port number') })
      .check(
        z.int('must be a whole port number'),
        z.minimum(1, 'must be between 1 and 65535'),
        z.maximum(65535, 'must be between 1 and 65535'),
      ),
    host: z.optional(optionalText),
    apiKey: requiredText('text').check(z.regex(/^[0-9a-fA-F]{96}$/, 'must be the 96-character hexadecimal key the service issued')),
    path: z.optional(
      z.string({ error: 'must be text' }).check(
        z.trim(),
        z.regex(WEBHOOK_PATH, { error: PATH_MESSAGE, abort: true }),
        // A path URL parsing rewrites (dot segments) is never what a request's parsed path equals.
        z.refine((path) => new URL(path, 'http://listener.invalid').pathname === path, PATH_MESSAGE),
      ),
    ),
    headerName: z._default(
      z
        .string({ error: 'must be text' })
        .check(z.trim(), z.regex(HEADER_NAME, 'must be an HTTP header name (letters, digits and - such as X-Service-API-Key)')),
      DEFAULT_WEBHOOK_HEADER_NAME,
    ),
    tlsCertFile: z.optional(optionalText),
    tlsKeyFile: z.optional(optionalText),
    reconcileInterval: z._default(
      wholeNumber('seconds', MIN_RECONCILE_INTERVAL_S, optionSpec('pollInterval').max),
      DEFAULT_RECONCILE_INTERVAL_S,
    ),
  })
  .check(
    z.refine((w) => (w.tlsCertFile === undefined) === (w.tlsKeyFile === undefined), {
      message: 'needs both tlsCertFile and tlsKeyFile, or neither',
      path: ['tlsKeyFile'],
    }),
  );

export type WebhookConfig = z.output<typeof webhookSchema>;

/**
 * No listener when it is switched off, or when the block was never filled in (a settings form may save
 * one holding only defaults). Otherwise the block is checked in full, so a half-done setup is reported.
 */
export function listenerWanted(value: unknown): unknown {
  if (!isRecord(value)) return value;
  if (value.enabled === false || (isBlank(value.enabled) && isBlank(value.port) && isBlank(value.apiKey))) {
    return undefined;
  }
  return value;
}

/** The webhook block's keys as the plugin reads them: the page reads them too. */
export const readWebhookKeys = (block: Record<string, unknown>): ReadKeys => readKeys(block, { known: Object.keys(webhookSchema.shape) });

const WEBHOOKS_OFF = 'webhooks are off until it is fixed';

/** Reads the webhook block: undefined when there is no listener (off, not filled in, or not usable). */
export function readWebhook(value: unknown, findings: Findings): unknown {
  if (isBlank(value)) return undefined;
  if (!isRecord(value)) {
    findings.add(
      [{ path: ['webhook'], message: 'must be a block of settings' }],
      `webhook must be a block of settings ({ … }); ${WEBHOOKS_OFF}`,
    );
    return undefined;
  }
  // Its keys first: "Enabled": false must turn the listener off as "enabled" does.
  const keys = readWebhookKeys(value);
  for (const { key, sentence } of keys.sentences) findings.warn(['webhook', key], `in webhook, ${sentence}`);
  const wanted = listenerWanted(keys.block);
  if (!isRecord(wanted)) return undefined;
  const block = withoutBlanks(wanted);
  const issues = issuesOf(webhookSchema, block, ['webhook']);
  const [rest, pace] = [issues.filter((i) => i.path[1] !== 'reconcileInterval'), issues.filter((i) => i.path[1] === 'reconcileInterval')];
  if (rest.length > 0) {
    findings.add(issues, `${listing(issues.map((i) => `${dotted(i.path)} ${i.message}`))}; ${WEBHOOKS_OFF}`);
    return undefined;
  }
  if (pace.length > 0) {
    // A bad safety-net pace alone is no reason to lose real-time updates.
    findings.add(
      pace,
      `${listing(pace.map((i) => `${dotted(i.path)} ${i.message}`))}; the default, ${DEFAULT_RECONCILE_INTERVAL_S} seconds, is used`,
    );
    delete block.reconcileInterval;
  }
  return block;
}

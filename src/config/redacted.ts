// Where the config reader's text leaves it: each sentence, problem, note and path of a reading, and of what the settings
// protect once the account is known, without the access token or the webhook key. The readers quote what was typed
// through `typed`, which keeps the whole value beside its quote; this is the one place that knows the secrets and says a
// typed value that holds one as [redacted], and takes one out of anything else (any spelling src/util/redact.ts knows).
import { quoted } from '../util/quoted.js';
import { nearSecret, redact, REDACTED, withoutSecrets } from '../util/redact.js';
import type { Secrets } from '../util/redact.js';
import type { ConfigResult, Finding, PluginConfig } from './index.js';
import type { Protection } from './protection.js';
import { secretsOf } from './secret-values.js';
import { idOf, quotableId } from './values.js';

/**
 * Around a typed value in a sentence until it leaves: noncharacters, which no quote holds (quoted writes anything outside
 * printable ASCII as \uXXXX). Inside: the whole value as hex UTF-16 units, ":", then its quote.
 */
const OPEN = '\uFDD0';
const CLOSE = '\uFDD1';
const TYPED = /\uFDD0([0-9a-f]*):([^\uFDD1]*)\uFDD1/gu;
/** Hex digits of one UTF-16 unit. */
const UNIT_DIGITS = 4;

const marked = (value: string, quote: string): string =>
  `${OPEN}${Array.from({ length: value.length }, (_, i) => value.charCodeAt(i).toString(16).padStart(UNIT_DIGITS, '0')).join('')}:${quote}${CLOSE}`;

const unmarked = (hex: string): string =>
  String.fromCharCode(
    ...Array.from({ length: hex.length / UNIT_DIGITS }, (_, i) => parseInt(hex.slice(i * UNIT_DIGITS, (i + 1) * UNIT_DIGITS), 16)),
  );

/**
 * Typed text for a sentence, quoted (src/util/quoted.ts): the whole value goes with it, since a quote cut short may show
 * too little of a secret to be told by, yet some of it.
 */
export function typed(value: string): string {
  return marked(value, quoted(value));
}

/** An id for a sentence, as quotableId quotes it, the whole id with it (see typed); undefined: not an id. */
export function typedId(id: unknown): string | undefined {
  const quote = quotableId(id);
  return quote === undefined ? undefined : marked(typeof id === 'string' ? id.trim() : (idOf(id) ?? ''), quote);
}

/** Whether a typed value holds a secret, is one, or is a near copy or a part of one (nearSecret): then it is not quoted. */
const holdsSecret = (value: string, secrets: Secrets): boolean => nearSecret(value, secrets) || redact(value, secrets).found.length > 0;

/** A sentence as it leaves: each typed value quoted, or [redacted]; any secret left anywhere else taken out. */
function said(text: string, secrets: Secrets): string {
  const quoted = text.includes(OPEN)
    ? text.replace(TYPED, (_, hex: string, quote: string) => (holdsSecret(unmarked(hex), secrets) ? REDACTED : quote))
    : text;
  return withoutSecrets(quoted, secrets);
}

const saidFinding = (finding: Finding, secrets: Secrets): Finding => ({
  path: withoutSecrets(finding.path, secrets),
  sentence: said(finding.sentence, secrets),
});

const saidReasons = (reasons: ReadonlyMap<string, string>, secrets: Secrets): Map<string, string> =>
  new Map([...reasons].map(([door, why]) => [door, said(why, secrets)]));

/**
 * A reading of `block` as it leaves parseConfig: its sentences, problems, notes and the findings' paths (a key may be a
 * pasted token) without the block's secrets (secretsOf: near misses of their keys included). The configuration itself
 * is not text that leaves: it keeps what was written, the token above all.
 */
export function redactedResult(result: ConfigResult, block: Record<string, unknown>): ConfigResult {
  const secrets = secretsOf(block);
  const clean = (text: string): string => said(text, secrets);
  if (!result.ok) return { ok: false, problems: result.problems.map(clean) };
  return {
    ...result,
    ignored: result.ignored.map(clean),
    warnings: result.warnings.map(clean),
    findings: result.findings.map((finding) => saidFinding(finding, secrets)),
    ...(result.notes === undefined ? {} : { notes: result.notes.map(clean) }),
  };
}

/** What the settings protect, as it leaves protectionFor: its sentences and reasons without the configuration's secrets. */
export function redactedProtection(protection: Protection, config: Pick<PluginConfig, 'accessToken' | 'webhook'>): Protection {
  const secrets = [config.accessToken, config.webhook?.apiKey];
  return {
    ...protection,
    readOnly: saidReasons(protection.readOnly, secrets),
    leftOut: saidReasons(protection.leftOut, secrets),
    findings: protection.findings.map((finding) => saidFinding(finding, secrets)),
  };
}

// A secret is never a name or an id: a value of the settings that holds the access token or the webhook key (or a
// SECRET_WINDOW_CHARS run of either, in any spelling the cleaning knows) is refused, with a line naming the key. The one
// reader of the block's secrets: the rule here, and the redaction where the reader's text leaves (redacted.ts).
import { nearMiss } from '../util/near-miss.js';
import { redact } from '../util/redact.js';
import { isRecord } from './values.js';

/** Which secret a value holds, for the line: the settings' key that holds it. */
const SECRET_KEYS = ['accessToken', 'webhook.apiKey'];

/** The access token and the webhook key, wherever a near miss of their keys put them: never said in a sentence. */
export function secretsOf(block: Record<string, unknown>): unknown[] {
  const found: unknown[] = [];
  for (const [key, value] of Object.entries(block)) {
    const top = ['accessToken', 'webhook'].includes(key) ? key : nearMiss(key, ['accessToken', 'webhook']);
    if (top === 'accessToken') found.push(value);
    if (top === 'webhook' && isRecord(value)) {
      found.push(...Object.entries(value).flatMap(([k, v]) => (k === 'apiKey' || nearMiss(k, ['apiKey']) === 'apiKey' ? [v] : [])));
    }
  }
  return found;
}

/**
 * The key of the secret `value` holds ("accessToken", "webhook.apiKey"), or undefined. `secrets` as secretsOf gives
 * them: the access token first, then the webhook key.
 */
export function secretHeldBy(value: unknown, secrets: readonly unknown[]): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  // The cleaning's own rule, not a looser one: a short test token ("tok") must not refuse a door named "Dock".
  const found = redact(value, secrets).found[0];
  return found === undefined ? undefined : SECRET_KEYS[Math.min(found, SECRET_KEYS.length - 1)];
}

/** Which secret's key a value of the block holds (see secretHeldBy), made once per block: what the readers ask. */
export type HeldSecret = (value: unknown) => string | undefined;

/** The rule for one platform block, its secrets read once: the readers ask it of a name or an id, never see a secret. */
export function heldSecretIn(block: Record<string, unknown>): HeldSecret {
  const secrets = secretsOf(block);
  return (value) => secretHeldBy(value, secrets);
}

/** The sentence for a value refused because it holds a secret: `what` is the value's place ("doors.0.name"). */
export function secretRefusal(what: string, heldKey: string, consequence: string): string {
  return `${what} holds the secret of ${heldKey} (or a part of it), so it is never shown, stored or sent to HomeKit: ${consequence}`;
}

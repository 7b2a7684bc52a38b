// A secret is never a name or an id: a value of the settings that holds the access token or the webhook key (or a
// SECRET_WINDOW_CHARS run of either, in any spelling the cleaning knows) is refused, with a line naming the key.
import { redact } from '../util/redact.js';

/** Which secret a value holds, for the line: the settings' key that holds it. */
const SECRET_KEYS = ['accessToken', 'webhook.apiKey'];

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

/** The sentence for a value refused because it holds a secret: `what` is the value's place ("doors.0.name"). */
export function secretRefusal(what: string, heldKey: string, consequence: string): string {
  return `${what} holds the secret of ${heldKey} (or a part of it), so it is never shown, stored or sent to HomeKit: ${consequence}`;
}

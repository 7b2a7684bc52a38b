// Text from the network made safe for one log line: no control characters (no forged lines), bounded length, no secret.
import { MIN_SECRET_PART, REDACTED } from './near-miss.js';

/** Longest piece of outside text put into one log line; a 60 KB error message must not flood the log. */
export const MAX_LOG_FIELD_CHARS = 300;
/** Most pieces of outside text listed in one log line; 10,000 broken doors must not make a 3 MB line. */
export const MAX_LOG_LIST_ITEMS = 5;

/** Marks that turn the text's direction around: a name holding one shows the page's own words around it in another order. */
const DIRECTION_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * One line of outside text: control characters and line breaks become a space (no forged lines), direction marks go (a
 * door named "Front \u202Eetag" cannot turn the rest of its log line around in a terminal or the Homebridge UI's log).
 */
export function oneLine(value: string, maxChars = MAX_LOG_FIELD_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const flat = withoutDirectionMarks(value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')).trim();
  return flat.length > maxChars
    ? `${Array.from(flat)
        .slice(0, maxChars - 1)
        .join('')}…`
    : flat;
}

/** Several pieces of outside text for one line, joined by "; ": each cleaned, the first few shown and the rest counted. */
export function listForLog(items: readonly string[], maxItems = MAX_LOG_LIST_ITEMS): string {
  const shown = items.slice(0, maxItems).map((item) => oneLine(item));
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join('; ')}; and ${rest} more` : shown.join('; ');
}

/**
 * Text from outside (the service's answers and messages, a webhook's body) with every secret in it (the access token,
 * the webhook key) written as [redacted], in any case: the service may quote a request back ("Malformed Request for
 * Bearer <token>"), and nothing it says may carry a secret to the log, the settings page or its server's answers. A
 * secret shorter than MIN_SECRET_PART is hidden only when it is the whole text (inside, it is a common word).
 */
export function withoutSecrets(text: string, secrets: readonly unknown[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.trim() === '') continue;
    const key = secret.trim();
    if (key.length < MIN_SECRET_PART) {
      if (clean.trim().toLowerCase() === key.toLowerCase()) clean = REDACTED;
      continue;
    }
    if (!clean.toLowerCase().includes(key.toLowerCase())) continue;
    clean = clean.replace(new RegExp(key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), REDACTED);
  }
  return clean;
}

/**
 * A parsed JSON answer or body with every string in it run through withoutSecrets, in place: where the service's text
 * enters. Walked with a list, not by recursion (nor by JSON.parse's reviver, which recurses), so an answer nested
 * thousands deep cannot overflow the stack.
 */
export function withoutSecretsIn<T>(parsed: T, secrets: readonly unknown[]): T {
  if (typeof parsed === 'string') return withoutSecrets(parsed, secrets) as T;
  const pending: object[] = typeof parsed === 'object' && parsed !== null ? [parsed] : [];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    const fields = node as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const value = fields[key];
      if (typeof value === 'object' && value !== null) {
        pending.push(value);
      } else if (typeof value === 'string') {
        const clean = withoutSecrets(value, secrets);
        // Defined, not assigned: a key "__proto__" that JSON.parse made an own field would otherwise keep its text.
        if (clean !== value) Object.defineProperty(fields, key, { value: clean, writable: true, enumerable: true, configurable: true });
      }
    }
  }
  return parsed;
}

/** A name from outside as the settings page shows it: without direction marks ("Front \u202Eetag" cannot turn its line around). */
export function withoutDirectionMarks(text: string): string {
  return text.replace(DIRECTION_MARKS, '');
}

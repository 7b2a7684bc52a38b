// Text a user typed, quoted for a sentence: escaped so it cannot forge a line or hide a letter, cut when long, and
// [redacted] when it is near a secret. A plain function: the settings page bundles it too.
import { nearSecret, REDACTED } from './redact.js';

/** Longest typed text quoted in a sentence. */
const MAX_QUOTED_CHARS = 40;

/**
 * Typed text quoted for a sentence: in double quotes, anything outside printable ASCII written as \uXXXX (so a Cyrillic
 * letter shows as one), cut when long, and [redacted] when it is near a secret.
 */
export function quoted(value: string, secrets: readonly unknown[]): string {
  if (nearSecret(value, secrets)) return REDACTED;
  const chars = Array.from(value);
  const shown = chars.slice(0, MAX_QUOTED_CHARS).join('');
  const escaped = shown.replace(/[^\x20-\x7e]|["\\]/g, (char) =>
    char === '"' || char === '\\' ? `\\${char}` : `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}${chars.length > MAX_QUOTED_CHARS ? '…' : ''}"`;
}

// Text a user typed, quoted for a sentence: escaped so it cannot forge a line or hide a letter, and cut when long. A
// secret in it is taken out where the sentence leaves (src/config/redacted.ts, the log). A plain function: the settings
// page bundles it too.

/** Longest typed text quoted in a sentence. */
const MAX_QUOTED_CHARS = 40;

/** Where a long value may be cut so the reader sees the cut: before a separator (punctuation, a space, a symbol like |). */
const SEPARATOR = /[\p{P}\p{Z}\p{Sm}]/u;

/**
 * The first characters of a long value, ending with a whole group: cut before the last separator within MAX_QUOTED_CHARS
 * ("door-1234-abcd…"), never inside a group ("51;34f8…" reads as an id of its own). A value with no separator there
 * is one group: cut at MAX_QUOTED_CHARS, the … then inside the only group there is.
 */
function wholeGroups(chars: readonly string[]): string {
  const head = chars.slice(0, MAX_QUOTED_CHARS + 1);
  for (let end = head.length - 1; end > 0; end -= 1) {
    if (SEPARATOR.test(head[end] ?? '') && !SEPARATOR.test(head[end - 1] ?? '')) return head.slice(0, end).join('');
  }
  return chars.slice(0, MAX_QUOTED_CHARS).join('');
}

/**
 * Typed text quoted for a sentence: in double quotes, anything outside printable ASCII written as \uXXXX (so a Cyrillic
 * letter shows as one), and cut when long at a boundary the reader sees (wholeGroups).
 */
export function quoted(value: string): string {
  const chars = Array.from(value);
  const shown = chars.length > MAX_QUOTED_CHARS ? wholeGroups(chars) : value;
  const escaped = shown.replace(/[^\x20-\x7e]|["\\]/g, (char) =>
    char === '"' || char === '\\' ? `\\${char}` : `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
  return `"${escaped}${chars.length > MAX_QUOTED_CHARS ? '…' : ''}"`;
}

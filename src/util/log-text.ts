// Text from the network made safe for one log line: no control characters (no forged lines), bounded length.

/** Longest piece of outside text put into one log line; a 60 KB error message must not flood the log. */
export const MAX_LOG_FIELD_CHARS = 300;
/** Most pieces of outside text listed in one log line; 10,000 broken doors must not make a 3 MB line. */
export const MAX_LOG_LIST_ITEMS = 5;

export function oneLine(value: string, maxChars = MAX_LOG_FIELD_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const flat = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
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

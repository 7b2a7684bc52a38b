// Text from the network made safe for one log line: no control characters (no forged lines), bounded length.

/** Longest piece of outside text put into one log line; a 60 KB error message must not flood the log. */
export const MAX_LOG_FIELD_CHARS = 300;

export function oneLine(value: string, maxChars = MAX_LOG_FIELD_CHARS): string {
  // eslint-disable-next-line no-control-regex
  const flat = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > maxChars ? `${[...flat].slice(0, maxChars - 1).join('')}…` : flat;
}

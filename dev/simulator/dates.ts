// Date formats of the contract: sync/history `YYYY-MM-DD HH:MM:SS` (UTC, no zone) and webhook ISO UTC.

/** `YYYY-MM-DD HH:MM:SS` in UTC without a zone designator, as sync and history show dates. */
export function formatServiceDateTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** `YYYY-MM-DDTHH:MM:SSZ`: the webhook's `eventOccurredUTC` form (no milliseconds). */
export function formatIsoUtcSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** The UTC calendar day `YYYY-MM-DD` of a date, which history's start/end filters compare against. */
export function formatUtcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** True for a real calendar day written `YYYY-MM-DD` (rejects e.g. 2025-02-30). */
export function isValidDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    return false;
  }
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && formatUtcDay(parsed) === text;
}

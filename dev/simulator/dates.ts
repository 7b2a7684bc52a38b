// Date formats of the contract: sync/history `YYYY-MM-DD HH:MM:SS` (UTC, no zone) and webhook ISO UTC.

/** `YYYY-MM-DD HH:MM:SS` without a zone designator, as sync and history show dates: UTC, or the wall clock `offsetMin` east of it. */
export function formatServiceDateTime(date: Date, offsetMin = 0): string {
  return wallClock(date, offsetMin).toISOString().slice(0, 19).replace('T', ' ');
}

/** ISO 8601 with the zone: `YYYY-MM-DDTHH:MM:SSZ` in UTC, or the wall clock `offsetMin` east of it with its offset (`+01:00`). */
export function formatIsoWithZone(date: Date, offsetMin = 0): string {
  if (offsetMin === 0) return formatIsoUtcSeconds(date);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${wallClock(date, offsetMin).toISOString().slice(0, 19)}${zone}`;
}

/** The day `YYYY-MM-DD` on the wall clock `offsetMin` east of UTC. */
export function formatServiceDay(date: Date, offsetMin = 0): string {
  return wallClock(date, offsetMin).toISOString().slice(0, 10);
}

/** A date whose UTC digits are the wall clock `offsetMin` east of UTC. */
function wallClock(date: Date, offsetMin: number): Date {
  return new Date(date.getTime() + offsetMin * 60_000);
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

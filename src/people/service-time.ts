// The service's times as the plugin reads them, exactly or not at all: one reader for the toggle history's
// `toggle_date_time` and the door's `last_toggled`, for the person sensors, the log line and the settings page alike.

/** A history time read as written: its day, and its time of day when it has one (wall clock, and the instant when zoned). */
export interface ServiceTime {
  day: string;
  /** The digits as written, read as if UTC: the service writes `last_toggled` this way, so the two compare. */
  wallMs?: number;
  /** The instant, when the text names a zone; otherwise the wall clock. */
  instantMs?: number;
}

/** ISO 8601's extended form, and the contract's (a space for the T): date, then hh:mm[:ss[.fraction]] and a zone. */
const EXTENDED = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/iu;
/** ISO 8601's basic form: 20261121, 20261121T1005, 20261121T100554.5+0100. */
const BASIC = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(?:(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?:\d{2})?)?)?$/iu;
/** The farthest a zone is from UTC (UTC+14). */
const MAX_ZONE_MINUTES = 14 * 60;

/**
 * Reads a history or `last_toggled` time exactly: the contract's `YYYY-MM-DD` with or without `HH:MM[:SS]`, and ISO 8601's
 * calendar date with a time of day (extended or basic, a fraction of a second, `Z` or an offset). Undefined for anything
 * else, and for a day, hour, minute, second or zone that does not exist (2026-02-30, 24:00, 23:59:60): the plugin never
 * reads a date it is not sure of.
 */
export function readServiceTime(text: string | undefined): ServiceTime | undefined {
  const trimmed = text?.trim() ?? '';
  const match = EXTENDED.exec(trimmed) ?? BASIC.exec(trimmed);
  if (!match) return undefined;
  const [, year, month, date, hour, minute, second, fraction, zone] = match;
  const day = `${year}-${month}-${date}`;
  const midnight = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(midnight) || new Date(midnight).toISOString().slice(0, 10) !== day) return undefined;
  if (hour === undefined || minute === undefined) return { day };
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return undefined;
  const ms = fraction === undefined ? 0 : Math.floor(Number(`0.${fraction}`) * 1000);
  const wallMs = midnight + ((Number(hour) * 60 + Number(minute)) * 60 + Number(second ?? 0)) * 1000 + ms;
  const offset = zoneMinutes(zone);
  if (offset === undefined) return undefined;
  return { day, wallMs, instantMs: wallMs - offset * 60_000 };
}

/** A zone's minutes east of UTC (none or Z: 0); undefined for one that does not exist (+25:00, +01:75). */
function zoneMinutes(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  if (Number(digits.slice(2) || '0') > 59 || minutes > MAX_ZONE_MINUTES) return undefined;
  return zone.startsWith('-') ? -minutes : minutes;
}

/** Whether two times are one moment written in some zone (whole quarter hours apart, within 14 h), give or take a second. */
export function sameMomentInSomeZone(aMs: number, bMs: number, slackMs = 2000): boolean {
  const QUARTER_HOUR_MS = 15 * 60_000;
  const diff = Math.abs(aMs - bMs);
  if (diff > 14 * 60 * 60_000 + slackMs) return false;
  const rest = diff % QUARTER_HOUR_MS;
  return rest <= slackMs || QUARTER_HOUR_MS - rest <= slackMs;
}

/** A time of day (in UTC ms: the instant when zoned, else the digits as UTC); undefined for a day alone or an unreadable time. */
export function serviceTimeMs(text: string | undefined): number | undefined {
  const time = readServiceTime(text);
  return time?.wallMs === undefined ? undefined : time.instantMs;
}

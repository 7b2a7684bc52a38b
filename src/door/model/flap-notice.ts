// A condition that may come and go at every sync (a controller's active flag, a state the plugin cannot read) said once
// per incident: its start, its first end, and, once it has stayed away a while, how often it came back and since when.

/** What the caller logs now: the start, the first end, the summary of an incident that flapped, or nothing. */
export type FlapLine = { kind: 'start' } | { kind: 'end' } | { kind: 'settled'; returns: number; sinceMs: number } | undefined;

export class FlapNotice {
  /** When the incident began; undefined: none. */
  private sinceMs: number | undefined;
  /** When the condition last ended; undefined while it holds. */
  private endedMs: number | undefined;
  /** How often it came back after its first end, in this incident. */
  private returns = 0;

  /** `quietMs`: how long the condition must stay away before the incident ends (and its summary is said). */
  constructor(private readonly quietMs: number) {}

  /** The condition holds at `nowMs` (checked at each sync). */
  holds(nowMs: number): FlapLine {
    if (this.sinceMs === undefined) {
      this.sinceMs = nowMs;
      this.returns = 0;
      this.endedMs = undefined;
      return { kind: 'start' };
    }
    if (this.endedMs !== undefined) {
      this.endedMs = undefined;
      this.returns += 1;
    }
    return undefined;
  }

  /** The condition does not hold at `nowMs` (checked at each sync). */
  absent(nowMs: number): FlapLine {
    if (this.sinceMs === undefined) return undefined;
    if (this.endedMs === undefined) {
      this.endedMs = nowMs;
      return this.returns === 0 ? { kind: 'end' } : undefined;
    }
    if (nowMs - this.endedMs < this.quietMs) return undefined;
    const { sinceMs, returns } = this;
    this.sinceMs = undefined;
    this.endedMs = undefined;
    return returns > 0 ? { kind: 'settled', returns, sinceMs } : undefined;
  }
}

/** A time of day as the log reads it (local, HH:MM). */
export function timeOfDay(ms: number): string {
  const at = new Date(ms);
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}

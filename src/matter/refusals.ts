// Homebridge refusing one kind of Matter call (registration, removal) at sync after sync: said once when it starts,
// and with how often and since when once a call is taken; an incident that keeps coming back at most a few times an hour.
import type { Logging } from 'homebridge';

import { MATTER_REFUSAL_LOG_INTERVAL_MS } from '../settings.js';
import { LogRateLimit } from '../util/log-rate-limit.js';
import { NoticeOnce } from '../util/notice-once.js';

/** A moment as the log says it: minutes, in UTC (the plugin cannot know the zone Homebridge's own timestamps use). */
export function logTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export class MatterRefusals {
  private readonly incident = new NoticeOnce();
  private readonly starts: LogRateLimit;
  private beganMs = 0;
  private refusals = 0;

  constructor(
    private readonly log: Logging,
    private readonly now: () => number,
  ) {
    this.starts = new LogRateLimit(MATTER_REFUSAL_LOG_INTERVAL_MS, now);
  }

  /** Homebridge refused: `line` is a warning at the incident's start (unless the incident comes back too often), else debug. */
  refused(line: string): void {
    this.refusals += 1;
    this.incident.holds(() => {
      this.beganMs = this.now();
      this.refusals = 1;
      const held = this.starts.take();
      if (held === undefined) {
        this.log.debug(line);
        return;
      }
      this.log.warn(held > 0 ? `${line} Refused and then taken ${held} more times since the last such warning.` : line);
    });
    if (this.refusals > 1) {
      this.log.debug(`Still refused (${this.refusals} times since ${logTime(this.beganMs)}): ${line}`);
    }
  }

  /** Homebridge took the call: what to add to the line that says so, when calls were refused before (else ''). */
  taken(): string {
    let words = '';
    this.incident.ended(() => {
      words = ` (Homebridge refused ${this.refusals} times since ${logTime(this.beganMs)})`;
    });
    return words;
  }
}

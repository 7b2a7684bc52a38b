// Logs a failure once when it starts and once when it ends, instead of once per poll.
import type { Logging } from 'homebridge';

export class IncidentLog {
  private current: string | undefined;
  private repeats = 0;

  constructor(private readonly log: Logging) {}

  /** Logs `message` only when the kind of failure (`key`) differs from the one already reported. */
  report(key: string, message: string): void {
    if (this.current === key) {
      this.repeats += 1;
      this.log.debug(`Still failing (${this.repeats + 1} attempts): ${message}`);
      return;
    }
    this.current = key;
    this.repeats = 0;
    this.log.error(message);
  }

  /** Logs `message` when a failure was being reported, then forgets it. */
  resolve(message: string): void {
    if (this.current !== undefined) {
      this.current = undefined;
      this.log.info(message);
    }
  }
}

// Lets one log message through per interval and counts the ones held back, so a noisy source cannot flood the log.

/** Lets one message through per interval and counts the ones held back, so a misconfigured sender cannot flood the log. */
export class LogRateLimit {
  private lastAtMs = -Infinity;
  private held = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The number of messages held back since the last one let through, or undefined when this one must be held back. */
  take(): number | undefined {
    const now = this.now();
    if (now - this.lastAtMs < this.intervalMs) {
      this.held += 1;
      return undefined;
    }
    const held = this.held;
    this.lastAtMs = now;
    this.held = 0;
    return held;
  }
}

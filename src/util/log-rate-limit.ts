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

  /** Milliseconds until the next message would be let through (0 when now). */
  msUntilOpen(): number {
    return Math.max(0, this.lastAtMs + this.intervalMs - this.now());
  }

  /**
   * For a count logged on its own at the end of the interval: the number held back, which counts as a message let
   * through now when there were any, so a flood that goes on is counted again an interval later.
   */
  release(): number {
    const held = this.held;
    if (held > 0) {
      this.lastAtMs = this.now();
      this.held = 0;
    }
    return held;
  }
}

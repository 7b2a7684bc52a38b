// Checks a received webhook API key in constant time, and keeps refused-key warnings to one a minute.
import { createHash, timingSafeEqual } from 'node:crypto';

/** Holds only a digest of the key, so the key itself never sits in this object (or a heap dump of it). */
export class ApiKeyCheck {
  private readonly expected: Buffer;

  constructor(apiKey: string) {
    this.expected = digest(apiKey.trim());
  }

  /**
   * Comparing SHA-256 digests gives timingSafeEqual two equal-length buffers, so neither the key's
   * characters nor its length leak through the time a refusal takes.
   */
  matches(received: string | string[] | undefined): boolean {
    const value = Array.isArray(received) ? received.join(', ') : received;
    if (value === undefined || value.trim() === '') {
      return false;
    }
    return timingSafeEqual(digest(value.trim()), this.expected);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

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

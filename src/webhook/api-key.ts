// Checks a received webhook API key in constant time.
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

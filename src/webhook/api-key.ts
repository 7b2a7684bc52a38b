// Checks a received webhook API key in constant time, and proves to the settings page that the listener holds the key.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** A one-time value the settings page sends: hexadecimal, of a length no accident produces. */
const NONCE = /^[0-9a-f]{32,64}$/;
/** Keeps the proof apart from any other use of the key's digest. */
const PROOF_CONTEXT = 'homebridge-access-control listener proof v1 ';

/**
 * What a listener holding `keyDigest` answers to `nonce`: an HMAC of the nonce, which says nothing of the key yet can
 * only be made with it. Undefined for a value that is no nonce.
 */
export function listenerProof(keyDigest: Buffer, nonce: unknown): string | undefined {
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) return undefined;
  return createHmac('sha256', keyDigest)
    .update(PROOF_CONTEXT + nonce)
    .digest('hex');
}

/** The digest a listener keeps of its key, and the settings page computes from the key it was given. */
export function keyDigest(apiKey: string): Buffer {
  return digest(sameCase(apiKey));
}

/**
 * The key as compared: trimmed, its ASCII letters in lower case. The key is hexadecimal, which the settings accept in
 * either case, so one sent in upper case is the same key; only ASCII is folded, so no other letter turns into a digit.
 */
function sameCase(key: string): string {
  return key.trim().replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** Holds only a digest of the key, so the key itself never sits in this object (or a heap dump of it). */
export class ApiKeyCheck {
  private readonly expected: Buffer;

  constructor(apiKey: string) {
    this.expected = keyDigest(apiKey);
  }

  /** The listener's proof for a nonce (see listenerProof). */
  proof(nonce: unknown): string | undefined {
    return listenerProof(this.expected, nonce);
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
    return timingSafeEqual(digest(sameCase(value)), this.expected);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

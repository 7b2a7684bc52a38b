// The webhook ordering rule of one door: a late event must not roll its state back, nor a sync sent before the newest event.
import { WEBHOOK_OUT_OF_ORDER_WINDOW_MS } from '../../settings.js';

export class EventOrder {
  /** Service time of the newest event applied. */
  private lastOccurredMs = Number.NEGATIVE_INFINITY;
  /** Local time the newest event arrived. */
  private lastReceivedMs = Number.NEGATIVE_INFINITY;

  /**
   * Whether an event that occurred at `occurredAtMs` (service time, if given), arriving at `nowMs`, is to be applied;
   * an admitted event becomes the newest. Refused: one older than the newest applied, within the out-of-order window.
   */
  admit(occurredAtMs: number | undefined, nowMs: number): boolean {
    if (occurredAtMs !== undefined) {
      // Out-of-order deliveries come within moments of each other; past that window a newer-stamped event
      // (a service clock running ahead) must not keep blocking the real ones.
      if (occurredAtMs < this.lastOccurredMs && nowMs - this.lastReceivedMs < WEBHOOK_OUT_OF_ORDER_WINDOW_MS) {
        return false;
      }
      this.lastOccurredMs = occurredAtMs;
    }
    this.lastReceivedMs = nowMs;
    return true;
  }

  /** Whether a sync sent at `syncSentMs` (local time) may carry a state older than an event that arrived meanwhile. */
  outdates(syncSentMs: number): boolean {
    return this.lastReceivedMs >= syncSentMs;
  }
}

// The webhook ordering rule of one door: late events are refused within the out-of-order window, and syncs sent before an event are outdated.
import { describe, expect, it } from 'vitest';

import { WEBHOOK_OUT_OF_ORDER_WINDOW_MS } from '../../../../src/settings.js';
import { EventOrder } from '../../../../src/door/model/event-order.js';

describe('EventOrder', () => {
  it('refuses an event older than the newest applied when it arrives within the window', () => {
    const order = new EventOrder();
    expect(order.admit(2_000, 10_000)).toBe(true);
    expect(order.admit(1_000, 10_000 + WEBHOOK_OUT_OF_ORDER_WINDOW_MS - 1)).toBe(false);
    expect(order.admit(2_000, 10_001)).toBe(true);
    expect(order.admit(undefined, 10_002)).toBe(true);
  });

  it('admits an older-stamped event past the window, so a service clock that ran ahead does not block the real ones', () => {
    const order = new EventOrder();
    expect(order.admit(9_999_999, 10_000)).toBe(true);
    expect(order.admit(1_000, 10_000 + WEBHOOK_OUT_OF_ORDER_WINDOW_MS)).toBe(true);
    expect(order.admit(500, 10_001 + WEBHOOK_OUT_OF_ORDER_WINDOW_MS)).toBe(false);
  });

  it('outdates a sync sent before (or as) the newest event arrived, not one sent after', () => {
    const order = new EventOrder();
    expect(order.outdates(0)).toBe(false);
    order.admit(undefined, 5_000);
    expect(order.outdates(4_999)).toBe(true);
    expect(order.outdates(5_000)).toBe(true);
    expect(order.outdates(5_001)).toBe(false);
  });
});

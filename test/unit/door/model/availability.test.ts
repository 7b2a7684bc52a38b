// A door's availability: No Response while the account cannot be read, the service reports it inactive, or its state has
// grown older than the stale bound (a cached state counting from the start).
import { describe, expect, it } from 'vitest';

import { DoorAvailability } from '../../../../src/door/model/availability.js';

const BOUND_MS = 60_000;

function rig(bound: number | undefined) {
  let now = 1_000_000;
  const availability = new DoorAvailability({ now: () => now, staleAfterMs: () => bound });
  return { availability, advance: (ms: number) => (now += ms), now: () => now };
}

describe('DoorAvailability', () => {
  it('holds a state as long as the bound from when it was told (or from the start), then not', () => {
    const { availability, advance, now } = rig(BOUND_MS);
    advance(BOUND_MS);
    expect(availability.available).toBe(true);
    advance(1);
    expect(availability.available).toBe(false);
    availability.told(now() - 1_000);
    expect(availability.available).toBe(true);
    advance(BOUND_MS - 1_000);
    expect(availability.available).toBe(true);
    advance(1);
    expect(availability.available).toBe(false);
  });

  it('never goes back to an older telling, and has no bound without one', () => {
    const { availability, advance, now } = rig(BOUND_MS);
    advance(BOUND_MS / 2);
    availability.told(now());
    availability.told(now() - BOUND_MS);
    advance(BOUND_MS);
    expect(availability.available).toBe(true);
    const unbound = rig(undefined);
    unbound.advance(365 * 24 * 3_600_000);
    expect(unbound.availability.available).toBe(true);
  });

  it('is unavailable while the account is unreadable or the service reports the door inactive', () => {
    const { availability } = rig(BOUND_MS);
    availability.setAccountReadable(false);
    expect(availability.available).toBe(false);
    availability.setAccountReadable(true);
    availability.setActive(true, false);
    expect(availability.available).toBe(false);
    availability.setActive(true, true);
    expect(availability.available).toBe(true);
  });
});

// The door's state in the accessory cache: an obstruction comes back only when it can still hold, and each change is
// written so a restart shows what Home showed, without marking a state known before the service told one.
import { describe, expect, it } from 'vitest';

import type { DoorState } from '../../../../src/client/types.js';
import { cachedMissedTarget, keepMissedTarget, keepReported } from '../../../../src/door/model/cached-state.js';
import type { DoorContext } from '../../../../src/door/model/context.js';

const record = (fields: Partial<DoorContext> = {}): DoorContext => ({
  doorId: 'door-1',
  deviceId: 'dev-1',
  name: 'Front Gate',
  state: 'CLOSED',
  ...fields,
});

describe('cachedMissedTarget', () => {
  it('brings back an obstruction the door has not reached, and none from an older cache, a bad value or one reached', () => {
    expect(
      [
        record({ missedTarget: 'OPEN' }),
        record(),
        record({ missedTarget: 'JAMMED' as DoorState }),
        record({ state: 'OPEN', missedTarget: 'OPEN' }),
      ].map(cachedMissedTarget),
    ).toEqual(['OPEN', undefined, undefined, undefined]);
  });
});

describe('keepMissedTarget and keepReported', () => {
  it('writes the obstruction as it stands, and removes one that ended', () => {
    const cache = record({ missedTarget: 'JAMMED' as DoorState });
    keepMissedTarget(cache, { reported: 'CLOSED', missedTarget: undefined });
    expect(cache).toEqual(record());
    keepMissedTarget(cache, { reported: 'CLOSED', missedTarget: 'OPEN' });
    expect(cache).toEqual(record({ missedTarget: 'OPEN' }));
  });

  it('leaves a state not yet known as unknown while only the obstruction is written', () => {
    const cache = record({ stateUnknown: true });
    keepMissedTarget(cache, { reported: 'CLOSED', missedTarget: 'OPEN' });
    expect(cache).toEqual(record({ stateUnknown: true, missedTarget: 'OPEN' }));
  });

  it('writes a reported state as known, with its obstruction', () => {
    const cache = record({ stateUnknown: true, missedTarget: 'OPEN' });
    keepReported(cache, { reported: 'OPEN', missedTarget: undefined });
    expect(cache).toEqual(record({ state: 'OPEN' }));
    keepReported(cache, { reported: 'OPEN', missedTarget: 'CLOSED' });
    expect(cache).toEqual(record({ state: 'OPEN', missedTarget: 'CLOSED' }));
  });
});

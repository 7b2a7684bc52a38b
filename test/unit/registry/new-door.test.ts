// What a door first seen caches from the start: its ids, the name it shows (the settings' Name in Home, else the account's,
// cleaned for HomeKit) and its reported state, or none known yet.
import { describe, expect, it } from 'vitest';

import { newDoorContext } from '../../../src/registry/new-door.js';
import { reportedDevice, reportedDoor } from '../../support/door-fixtures.js';

describe('newDoorContext', () => {
  it('caches the ids, the account name cleaned for HomeKit and the reported state', () => {
    expect(newDoorContext(reportedDoor({ id: 'd1', name: 'Back Gate!', state: 'OPEN' }), { id: 'dev-1' }, undefined)).toEqual({
      doorId: 'd1',
      deviceId: 'dev-1',
      name: 'Back Gate',
      accountName: 'Back Gate',
      state: 'OPEN',
    });
  });

  it('shows the Name in Home the settings give, keeping the account name beside it', () => {
    const context = newDoorContext(reportedDoor({ name: 'Gate 7' }), reportedDevice, 'Yard / Gate');
    expect(context).toMatchObject({ name: 'Yard Gate', accountName: 'Gate 7' });
  });

  it('names a door sent without a usable name after its id', () => {
    expect(newDoorContext(reportedDoor({ id: 'abcdef123456', name: '***' }), reportedDevice, undefined).name).toBe('Door abcdef12');
  });

  it('marks a state it cannot read as unknown, CLOSED standing for nothing', () => {
    const context = newDoorContext(reportedDoor({ state: null }), reportedDevice, undefined);
    expect(context).toMatchObject({ state: 'CLOSED', stateUnknown: true });
    expect('stateUnknown' in newDoorContext(reportedDoor({ state: 'CLOSED' }), reportedDevice, undefined)).toBe(false);
  });
});

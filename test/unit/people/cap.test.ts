// The person sensors take their place under a bridge's accessory cap, platform entry by platform entry.
import { describe, expect, it } from 'vitest';

import type { Account, Device } from '../../../src/client/types.js';
import { parseConfig } from '../../../src/config/index.js';
import type { PluginConfig } from '../../../src/config/index.js';
import { shownDoors } from '../../../src/registry/shown-doors.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../../../src/settings.js';
import { reportedDevice, reportedDoor } from '../../support/door-fixtures.js';

function configOf(extra: Record<string, unknown>): PluginConfig {
  const parsed = parseConfig({ accessToken: 'cap-token', baseUrl: 'http://127.0.0.1:9', ...extra });
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.config;
}

function device(id: string, count: number): Device {
  const doors = Array.from({ length: count }, (_, i) => reportedDoor({ id: `${id}-${String(i).padStart(3, '0')}`, name: `Gate ${i}` }));
  return { ...reportedDevice, id, doors };
}

const people = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `P${i}`, user: `p${i}@example.com` }));

describe('people under the cap of one bridge', () => {
  it('leave the doors what the cap does not give them', () => {
    const account: Account = { devices: [device('dev-1', MAX_ACCESSORIES_PER_BRIDGE)], unreadable: [] };
    expect(shownDoors(account, configOf({})).overLimit).toBeUndefined();
    const withPeople = shownDoors(account, configOf({ people: people(3) }));
    expect(withPeople.shown).toHaveLength(MAX_ACCESSORIES_PER_BRIDGE - 3);
    expect(withPeople.overLimit).toBe(MAX_ACCESSORIES_PER_BRIDGE);
  });

  it('count on the child bridge whose platform entry lists them only', () => {
    const account: Account = {
      devices: [device('dev-1', MAX_ACCESSORIES_PER_BRIDGE), device('dev-2', MAX_ACCESSORIES_PER_BRIDGE)],
      unreadable: [],
    };
    const first = shownDoors(account, configOf({ includeDeviceIds: ['dev-1'], people: people(2) }));
    const second = shownDoors(account, configOf({ includeDeviceIds: ['dev-2'] }));
    expect(first.shown).toHaveLength(MAX_ACCESSORIES_PER_BRIDGE - 2);
    expect(second.shown).toHaveLength(MAX_ACCESSORIES_PER_BRIDGE);
  });
});

// The doors' ticks: a movement that took too long ends (its obstruction kept in the cache, so its accessory is written),
// an idle door writes nothing, and a door whose tick throws is one bug in the log while the others still tick.
import * as hap from 'hap-nodejs';
import { describe, expect, it, vi } from 'vitest';

import { tickDoors } from '../../../src/registry/door-ticks.js';
import { BugLog } from '../../../src/util/bug-log.js';
import { doorRig, frontGateAccessory } from '../../support/door-fixtures.js';
import { captureLog } from '../../support/log.js';

const { Characteristic: C, Service: S } = hap;
const TIMEOUT_MS = 30_000;

function setup() {
  const clock = { now: 0 };
  const log = captureLog();
  const door = (doorId: string) =>
    doorRig(
      { transitionTimeoutMs: TIMEOUT_MS, options: undefined, now: () => clock.now, clock: undefined, log },
      frontGateAccessory({ doorId }),
    ).door;
  return { clock, log, bugs: new BugLog(log), door };
}

describe('tickDoors', () => {
  it('ends a movement that took too long and names its accessory for the cache; an idle door is not named', async () => {
    const t = setup();
    const [moving, idle] = [t.door('d1'), t.door('d2')];
    await moving.accessory.getService(S.GarageDoorOpener)?.getCharacteristic(C.TargetDoorState).handleSetRequest(C.TargetDoorState.OPEN);
    expect(tickDoors([moving, idle], t.bugs)).toEqual([]);
    t.clock.now += TIMEOUT_MS;
    expect(tickDoors([moving, idle], t.bugs)).toEqual([moving.accessory]);
    expect(moving.accessory.context.missedTarget).toBe('OPEN');
    expect(tickDoors([moving, idle], t.bugs)).toEqual([]);
  });

  it('ticks every door when one tick throws, and logs that bug', () => {
    const t = setup();
    const doors = [t.door('d1'), t.door('d2')];
    const ticked: string[] = [];
    for (const door of doors) {
      vi.spyOn(door, 'tick').mockImplementation(() => {
        ticked.push(door.accessory.context.doorId);
        if (door === doors[0]) throw new Error('tick broke');
      });
    }
    expect(tickDoors(doors, t.bugs)).toEqual([]);
    expect(ticked).toEqual(['d1', 'd2']);
    expect(t.log.texts('error').filter((text) => text.includes('A bug in the plugin while ending a door movement'))).toHaveLength(1);
  });
});

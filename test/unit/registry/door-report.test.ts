// One shown door's part of a sync: the door trusted again and its report applied, the followers told what it did (a state
// used is seen, a change is a move, an unknown state neither), and the cache written only when the door's cached state changed.
import { describe, expect, it, vi } from 'vitest';

import type { Door } from '../../../src/client/types.js';
import { applyReport } from '../../../src/registry/door-report.js';
import type { DoorReportFollowers } from '../../../src/registry/door-report.js';
import { doorRig, reportedDevice, reportedDoor } from '../../support/door-fixtures.js';

function setup() {
  const rig = doorRig();
  const told: unknown[][] = [];
  const followers: DoorReportFollowers = {
    notePolled: (door, outcome) => told.push(['polled', door.facts.doorId, outcome]),
    doorSeen: (...args) => told.push(['seen', ...args]),
    doorMoved: (...args) => told.push(['moved', ...args]),
  };
  const report = (door: Door) => applyReport(rig.door, door, reportedDevice, rig.clock.now(), followers);
  return { rig, told, followers, report };
}

describe('applyReport', () => {
  it('trusts the door again, applies its report, and tells each follower of a move', () => {
    const t = setup();
    t.rig.door.setAccountReadable(false);
    expect(t.report(reportedDoor({ state: 'OPEN', lastToggled: '2026-01-02T03:04:05Z' }))).toBe(true);
    expect(t.rig.door.facts.available).toBe(true);
    expect(t.rig.door.facts.reported).toBe('OPEN');
    expect(t.told).toEqual([
      ['polled', 'door-1', 'changed'],
      ['seen', 'door-1', 'OPEN', '2026-01-02T03:04:05Z'],
      ['moved', 'door-1', 'Front Gate', 'OPEN', '2026-01-02T03:04:05Z'],
    ]);
  });

  it('writes no cache and tells of no move when the report changes nothing', () => {
    const t = setup();
    // The first report gives the cached door its account name, which the cache keeps.
    expect(t.report(reportedDoor({ state: 'CLOSED' }))).toBe(true);
    t.told.length = 0;
    expect(t.report(reportedDoor({ state: 'CLOSED' }))).toBe(false);
    expect(t.told).toEqual([
      ['polled', 'door-1', 'unchanged'],
      ['seen', 'door-1', 'CLOSED', undefined],
    ]);
  });

  it('tells only that the door was polled when its state cannot be read', () => {
    const t = setup();
    t.report(reportedDoor({ state: null, rawState: 'JAMMED' }));
    expect(t.told).toEqual([['polled', 'door-1', undefined]]);
  });

  it('needs no follower of the states seen', () => {
    const t = setup();
    const doorMoved = vi.fn();
    applyReport(t.rig.door, reportedDoor({ state: 'OPEN' }), reportedDevice, t.rig.clock.now(), { notePolled: () => undefined, doorMoved });
    expect(doorMoved).toHaveBeenCalledTimes(1);
  });
});

// What the registry says of the doors it shows, each line once while it holds: the doors the bridge's cap leaves out (and
// when all fit again), a door under two controllers, two names Siri cannot tell apart; and why a door leaves for the cap.
import { describe, expect, it } from 'vitest';

import type { DoorOfDevice } from '../../../src/door/duplicates.js';
import { RegistryNotices } from '../../../src/registry/registry-notices.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../../../src/settings.js';
import { reportedDevice, reportedDoor } from '../../support/door-fixtures.js';
import { captureLog } from '../../support/log.js';

const leftOut = (...ids: string[]): DoorOfDevice[] =>
  ids.map((id) => ({ door: reportedDoor({ id, name: `Gate ${id}` }), device: reportedDevice }));

function setup() {
  const log = captureLog();
  const bridge = { others: 0 };
  const notices = new RegistryNotices(log, () => bridge.others);
  return { log, bridge, notices };
}

describe('RegistryNotices', () => {
  it('says why a door leaves for the cap, with the person sensors counted now or as given', () => {
    const t = setup();
    const cap = `one bridge holds at most ${MAX_ACCESSORIES_PER_BRIDGE} accessories`;
    expect(t.notices.noRoom()).toBe(`${cap}, and the doors already in Home, then the first by door id, take the room (see docs/limits.md)`);
    t.bridge.others = 3;
    expect(t.notices.noRoom()).toMatch(new RegExp(`^${cap}, 3 of them person sensors, and the doors already in Home`));
    expect(t.notices.noRoom(0)).toMatch(new RegExp(`^${cap}, and the doors already in Home`));
  });

  it('names the doors the cap leaves out when they change, and says once when all fit again', () => {
    const t = setup();
    t.bridge.others = 2;
    t.notices.reportLeftOut(leftOut('d2', 'd1'), 160);
    t.notices.reportLeftOut(leftOut('d2', 'd1'), 161);
    expect(t.log.texts('warn')).toEqual([
      `The account has 160 doors for this bridge, but one bridge holds at most ${MAX_ACCESSORIES_PER_BRIDGE} accessories and 2 of them are person sensors; left out: Gate d2 (door d2); Gate d1 (door d1). To show them, add the platform again on its own child bridge with includeDeviceIds (or includeDoorIds) naming their controllers, and excludeDeviceIds on this one (see docs/limits.md).`,
    ]);
    t.bridge.others = 0;
    t.notices.reportLeftOut(leftOut('d2'), 150);
    expect(t.log.texts('warn')[1]).toMatch(
      /^The account has 150 doors for this bridge, but one bridge holds at most \d+ accessories; left out: Gate d2/,
    );
    t.notices.reportLeftOut([], undefined);
    t.notices.reportLeftOut(leftOut('d2'), undefined);
    expect(t.log.texts('info')).toEqual(['Every door the settings let in fits on the bridge again.']);
    t.notices.reportLeftOut(leftOut('d2'), 150);
    expect(t.log.texts('warn')).toHaveLength(3);
  });

  it('names the doors listed under two controllers once for each set of them, and again after they were gone', () => {
    const t = setup();
    const twice = [{ doorId: 'd1', deviceIds: ['dev-1', 'dev-2'] }];
    const line =
      'The account lists the same door under more than one controller; each is shown once, as the door of the first controller by id: door d1 (controllers dev-1, dev-2).';
    t.notices.reportDuplicates(twice);
    t.notices.reportDuplicates(twice);
    t.notices.reportDuplicates([]);
    t.notices.reportDuplicates(twice);
    expect(t.log.texts('warn')).toEqual([line, line]);
    t.notices.reportDuplicates([...twice, { doorId: 'd2', deviceIds: ['dev-1', 'dev-3'] }]);
    expect(t.log.texts('warn')[2]).toMatch(/: door d1 \(controllers dev-1, dev-2\); door d2 \(controllers dev-1, dev-3\)\.$/);
    expect(t.log.texts('info')).toEqual([]);
  });

  it('warns once per pair of names Siri cannot tell apart, its ids on one line, and again when the pair comes back', () => {
    const t = setup();
    const alike = [
      { id: 'd1', name: 'Back Gate' },
      { id: 'd2\nforged', name: 'back-gate' },
    ];
    t.notices.warnSoundAlike(alike);
    t.notices.warnSoundAlike(alike);
    const line =
      'Siri cannot tell Back Gate (door d1) from back-gate (door d2 forged) apart: their names differ only in case, spaces or punctuation. Give one of them its own "Name in Home" in the plugin settings.';
    expect(t.log.texts('warn')).toEqual([line]);
    t.notices.warnSoundAlike(alike.slice(0, 1));
    t.notices.warnSoundAlike(alike);
    expect(t.log.texts('warn')).toEqual([line, line]);
  });
});

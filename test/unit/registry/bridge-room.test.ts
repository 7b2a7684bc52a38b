// The bridge's room for doors: its cap less the plugin's other accessories; at start the cached doors past it leave, the
// last by door id; after a sync the doors held though unlisted take theirs first, doors in Home keep their place, and the
// doors in Home the cap leaves out are cut.
import { describe, expect, it } from 'vitest';

import { fitOnBridge, pastRoom } from '../../../src/registry/bridge-room.js';
import { doorRoom } from '../../../src/registry/shown-doors.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../../../src/settings.js';

const inHome = (doorId: string) => ({ accessory: { context: { doorId } } });
type InHome = ReturnType<typeof inHome>;
const uuid = (doorId: string): string => `uuid:${doorId}`;
const home = (...ids: string[]): Map<string, InHome> => new Map(ids.map((id) => [uuid(id), inHome(id)]));
const listed = (...ids: string[]) => ids.map((id) => ({ door: { id } }));
const idsOf = (doors: readonly InHome[]): string[] => doors.map((door) => door.accessory.context.doorId);

describe('the bridge’s room', () => {
  it('leaves the doors what the plugin’s other accessories do not take, never less than none', () => {
    expect(doorRoom(0)).toBe(MAX_ACCESSORIES_PER_BRIDGE);
    expect(doorRoom(3)).toBe(MAX_ACCESSORIES_PER_BRIDGE - 3);
    expect(doorRoom(MAX_ACCESSORIES_PER_BRIDGE + 1)).toBe(0);
  });

  it('names the doors in Home past the room, the last by door id in character order', () => {
    const doors = [inHome('d2'), inHome('D9'), inHome('d10'), inHome('d1')];
    expect(pastRoom(doors, 4)).toEqual([]);
    expect(idsOf(pastRoom(doors, 2))).toEqual(['d10', 'd2']);
    expect(idsOf(pastRoom(doors, 0))).toEqual(['D9', 'd1', 'd10', 'd2']);
  });

  it('shows every listed door, in the account’s order, when all fit', () => {
    const fit = fitOnBridge(listed('b', 'a'), home('a'), new Set([uuid('a'), uuid('b')]), 2, uuid);
    expect(fit).toEqual({ shown: listed('b', 'a'), leftOut: [], overLimit: undefined, cut: [] });
  });

  it('gives the doors still in Home though this answer lacks them their room first', () => {
    const fit = fitOnBridge(listed('a', 'b'), home('gone'), new Set([uuid('a'), uuid('b')]), 2, uuid);
    expect(fit.shown).toEqual(listed('a'));
    expect(fit.leftOut).toEqual(listed('b'));
    expect(fit.overLimit).toBe(2);
  });

  it('keeps the doors in Home before new ones, and cuts those in Home the room no longer holds', () => {
    const seen = new Set(['a', 'b', 'c'].map(uuid));
    const kept = fitOnBridge(listed('a', 'b', 'c'), home('c', 'b'), seen, 2, uuid);
    expect(kept.shown).toEqual(listed('b', 'c'));
    expect(kept.cut).toEqual([]);
    const shrunk = fitOnBridge(listed('a', 'b', 'c'), home('c', 'b'), seen, 1, uuid);
    expect(shrunk.shown).toEqual(listed('b'));
    expect(shrunk.leftOut).toEqual(listed('c', 'a'));
    expect(idsOf(shrunk.cut)).toEqual(['c']);
  });
});

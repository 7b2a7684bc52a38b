// Which shown doors a webhook event is about: by door id (exact, else the one door whose id reads the same), by controller
// and number, or every door of a controller for an alert naming no door; none when the event names nothing shown.
import { describe, expect, it } from 'vitest';

import { DoorFinder } from '../../../src/registry/door-finder.js';
import { webhookEvent } from '../../support/realtime-harness.js';
import type { WebhookEvent } from '../../../src/webhook/event.js';

const shown = (doorId: string, deviceId: string, entityNumber?: number) => ({
  accessory: { context: { doorId, deviceId } },
  facts: { entityNumber },
});
type Shown = ReturnType<typeof shown>;

const uuid = (doorId: string): string => `uuid:${doorId}`;

function finderOf(...doors: Shown[]) {
  const map = new Map(doors.map((door) => [uuid(door.accessory.context.doorId), door]));
  return { map, finder: new DoorFinder(map, uuid) };
}

const event = (fields: Partial<WebhookEvent>): WebhookEvent => webhookEvent({ doorState: undefined, ...fields });
const idsOf = (doors: readonly Shown[]): string[] => doors.map((door) => door.accessory.context.doorId);

describe('DoorFinder', () => {
  it('finds a door by its exact id, else by the one door whose id reads the same, else none', () => {
    const { finder } = finderOf(shown('d1', 'dev-1'), shown('Twin', 'dev-1'), shown('twin', 'dev-2'));
    expect(finder.find(event({ doorId: 'd1' }))?.accessory.context.doorId).toBe('d1');
    expect(finder.find(event({ doorId: ' D1\u200b' }))?.accessory.context.doorId).toBe('d1');
    expect(finder.find(event({ doorId: 'twin' }))?.accessory.context.doorId).toBe('twin');
    // Two doors whose ids read the same: an event that names neither exactly is matched to neither.
    expect(finder.find(event({ doorId: 'TWIN' }))).toBeUndefined();
    expect(finder.find(event({ doorId: 'nope' }))).toBeUndefined();
  });

  it('finds a door by its controller and number, the controller compared as ids are', () => {
    const { finder } = finderOf(shown('d1', 'dev-1', 1), shown('d2', 'dev-1', 2), shown('d3', 'dev-2', 1));
    expect(finder.find(event({ deviceId: 'DEV-2', doorNumber: 1 }))?.accessory.context.doorId).toBe('d3');
    expect(finder.find(event({ deviceId: 'dev-1', doorNumber: 3 }))).toBeUndefined();
    expect(finder.find(event({ doorNumber: 1 }))).toBeUndefined();
  });

  it('gives an alert the door it names, else every door of the controller it names, else none', () => {
    const { finder } = finderOf(shown('d1', 'dev-1'), shown('d2', 'dev-2'), shown('d3', 'dev-1'));
    expect(idsOf(finder.alertDoors(event({ doorId: 'd2', deviceId: 'dev-1' })))).toEqual(['d2']);
    expect(idsOf(finder.alertDoors(event({ doorId: 'nope', deviceId: 'dev-1' })))).toEqual([]);
    expect(idsOf(finder.alertDoors(event({ deviceId: 'Dev-1' })))).toEqual(['d1', 'd3']);
    expect(finder.alertDoors(event({}))).toEqual([]);
  });

  it('reads the doors shown at each call', () => {
    const { map, finder } = finderOf();
    expect(finder.find(event({ doorId: 'd1' }))).toBeUndefined();
    map.set(uuid('d1'), shown('d1', 'dev-1'));
    expect(finder.find(event({ doorId: 'd1' }))?.accessory.context.doorId).toBe('d1');
  });
});

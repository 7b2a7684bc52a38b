// The person sensors on the Homebridge double with a manual clock: the time they detect, one detection per move, old
// news, and a rename that keeps a name given in the Home app.
import * as hap from 'hap-nodejs';
import type { API } from 'homebridge';
import { describe, expect, it } from 'vitest';

import { People } from '../../../src/people/sensors.js';
import type { PersonEntry } from '../../../src/people/sensors.js';
import { PERSON_MOVE_MAX_AGE_MS, PERSON_MOVE_MAX_AHEAD_MS } from '../../../src/settings.js';
import { HomebridgeDouble, ManualClock } from '../../support/homebridge-double.js';
import { captureLog } from '../../support/log.js';

const { Characteristic: C, Service: S } = hap;
const DURATION_MS = 30_000;
const grace = { email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' };

function setup(entries: PersonEntry[], cache: ReturnType<HomebridgeDouble['savedCache']> = []) {
  // A copy, as Homebridge reads its cache from disk: the accessories must not share their context with another run.
  cache = structuredClone(cache);
  const api = new HomebridgeDouble(cache);
  const clock = new ManualClock();
  const log = captureLog();
  const people = new People({ api: api as unknown as API, log, entries, durationMs: DURATION_MS, clock });
  for (const json of cache) {
    const accessory = api.platformAccessory.deserialize(json);
    api.registered.set(accessory.UUID, accessory);
    people.fromCache(accessory);
  }
  people.start();
  const sensor = (name: string) =>
    [...api.registered.values()].find((a) => a.displayName === name)?.getServiceById(S.MotionSensor, 'person');
  const detected = (name: string): unknown => sensor(name)?.getCharacteristic(C.MotionDetected).value;
  const move = (atMs = clock.now(), state: 'OPEN' | 'CLOSED' = 'OPEN') =>
    people.moved({ doorId: 'gate', state, atMs, user: grace }, 'Front Gate');
  return { api, clock, log, people, sensor, detected, move };
}

describe('a person sensor', () => {
  it('detects for the set time after a move, and a move meanwhile starts the time again', () => {
    const t = setup([{ name: 'Grace', user: 'grace@example.com' }]);
    t.move();
    expect(t.detected('Grace')).toBe(true);
    expect(t.log.texts('debug')).toContain('Grace detects: Front Gate was opened by Grace Hopper.');
    t.clock.advance(DURATION_MS - 1000);
    t.move(t.clock.now(), 'CLOSED');
    t.clock.advance(DURATION_MS - 1);
    expect(t.detected('Grace')).toBe(true);
    t.clock.advance(1);
    expect(t.detected('Grace')).toBe(false);
  });

  it('tells its listeners when it starts and stops detecting, once each, a move meanwhile telling nothing (Matter follows it)', () => {
    const t = setup([{ name: 'Grace', user: 'grace@example.com' }]);
    const [sensor] = t.people.all();
    const heard: unknown[] = [];
    const stop = sensor?.onChange(() => heard.push(sensor.isDetecting));
    t.move();
    t.clock.advance(DURATION_MS - 1000);
    t.move(t.clock.now(), 'CLOSED');
    t.clock.advance(DURATION_MS);
    expect(heard).toEqual([true, false]);
    stop?.();
    t.move();
    expect(heard).toEqual([true, false]);
  });

  it('detects once per move: the same toggleID, or the same door and state until a sync sees the door in the other state', () => {
    const t = setup([{ name: 'Grace', user: 'grace@example.com' }]);
    const tell = (state: 'OPEN' | 'CLOSED', toggleId?: string): void =>
      t.people.moved({ doorId: 'gate', state, atMs: t.clock.now(), user: grace, toggleId, byWebhook: true }, 'Front Gate');
    t.people.seen('gate', 'CLOSED');
    tell('OPEN', 't-1');
    t.clock.advance(DURATION_MS);
    expect(t.detected('Grace')).toBe(false);
    // door1_open, then door_state_change for the same toggle; then another webhook of the same move, stamped later.
    tell('OPEN', 't-1');
    tell('OPEN', 't-2');
    t.people.seen('gate', 'OPEN');
    tell('OPEN');
    expect(t.detected('Grace')).toBe(false);
    // Seen closed by a sync: a late message of toggle t-1 is still that toggle; a move to open again is another move.
    t.people.seen('gate', 'CLOSED');
    tell('OPEN', 't-1');
    expect(t.detected('Grace')).toBe(false);
    tell('OPEN', 't-3');
    expect(t.detected('Grace')).toBe(true);
    t.clock.advance(DURATION_MS);
    tell('CLOSED', 't-4');
    expect(t.detected('Grace')).toBe(true);
  });

  it('detects nothing for a move to the state a door was first seen in after a start (it was told before the restart)', () => {
    const t = setup([{ name: 'Grace', user: 'grace@example.com' }]);
    t.people.seen('gate', 'OPEN');
    t.move(t.clock.now(), 'OPEN');
    expect(t.detected('Grace')).toBe(false);
    t.move(t.clock.now(), 'CLOSED');
    expect(t.detected('Grace')).toBe(true);
  });

  it('keeps the webhooks’ moves of a door for the history, and learns the names they pair with e-mails', () => {
    const t = setup([{ name: 'Grace', user: 'grace@example.com' }]);
    t.people.moved({ doorId: 'gate', state: 'OPEN', atMs: t.clock.now(), user: grace, byWebhook: true }, 'Front Gate');
    expect(t.people.toldMoves('gate')).toEqual([{ state: 'OPEN', atMs: t.clock.now(), user: grace }]);
    expect(t.people.toldMoves('garage')).toEqual([]);
    t.clock.advance(DURATION_MS);
    // Named by name alone: the pair the webhook gave tells she is Grace.
    t.people.moved(
      { doorId: 'gate', state: 'CLOSED', atMs: t.clock.now(), user: { firstName: 'Grace', lastName: 'Hopper' } },
      'Front Gate',
    );
    expect(t.detected('Grace')).toBe(true);
  });

  it('takes a move older than the limit for old news', () => {
    const t = setup([{ name: 'Grace', user: 'grace@example.com' }]);
    t.move(t.clock.now() - PERSON_MOVE_MAX_AGE_MS - 1);
    expect(t.detected('Grace')).toBe(false);
  });

  it('takes a move dated well ahead of the clock for one it cannot judge (a service writing a zone ahead of UTC): nothing detects', () => {
    const t = setup([{ name: 'Grace', user: 'grace@example.com' }]);
    // Three hours ahead: a move made three hours ago in UTC+3, read as UTC, after a restart.
    t.move(t.clock.now() + 3 * 60 * 60_000);
    expect(t.detected('Grace')).toBe(false);
    t.move(t.clock.now() + PERSON_MOVE_MAX_AHEAD_MS, 'CLOSED');
    expect(t.detected('Grace')).toBe(true);
  });

  it('follows a new name from the settings, but keeps a name given in the Home app', () => {
    const first = setup([{ name: 'Grace', user: 'grace@example.com' }]);
    const cache = first.api.savedCache();
    const renamed = setup([{ name: 'Grace H', user: 'grace@example.com' }], cache);
    expect(renamed.sensor('Grace H')?.getCharacteristic(C.ConfiguredName).value).toBe('Grace H');
    expect(renamed.detected('Grace H')).toBe(false);

    first.sensor('Grace')?.getCharacteristic(C.ConfiguredName).updateValue('Mum');
    const mine = setup([{ name: 'Grace H', user: 'grace@example.com' }], first.api.savedCache());
    expect(mine.sensor('Grace H')?.getCharacteristic(C.ConfiguredName).value).toBe('Mum');
  });
});

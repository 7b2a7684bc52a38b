// The door model on plain objects and a simulated clock, no HomeKit: what it decides, the lines it logs, what it tells the face.
import { describe, expect, it } from 'vitest';

import type { Device, Door } from '../../../../src/client/types.js';
import type { DoorContext } from '../../../../src/door/model/context.js';
import { DoorModel, whatToShow } from '../../../../src/door/model/door.js';
import type { DoorModelOptions } from '../../../../src/door/model/door.js';
import { OPTION_DEFAULTS } from '../../../../src/option-values.js';
import { ACCOUNT_RENAMES_BEFORE_QUIET, FLAP_QUIET_MS, WEBHOOK_OUT_OF_ORDER_WINDOW_MS } from '../../../../src/settings.js';
import { reportedDevice, reportedDoor } from '../../../support/door-fixtures.js';
import { captureLog } from '../../../support/log.js';

const TIMEOUT_MS = 60_000;

const door = (fields: Partial<Door> = {}): Door => reportedDoor(fields);
const device = (fields: Partial<Device> = {}): Device => ({ ...reportedDevice, ...fields });

/** The settings of a door nobody set anything for: the catalog's defaults. */
const NOTHING_SET: DoorModelOptions = { leftOpenAfter: OPTION_DEFAULTS.leftOpenAfter, leftOpenRepeat: OPTION_DEFAULTS.leftOpenRepeat };

/** `options`: what the settings set; 'unreadable': the config could not be read. */
function setup(context: Partial<DoorContext> = {}, options: Partial<DoorModelOptions> | 'unreadable' = {}) {
  const clock = { now: 1_000_000 };
  const log = captureLog();
  const renames: [string, string][] = [];
  const cache: DoorContext = {
    doorId: 'door-1',
    deviceId: 'dev-1',
    name: 'Front Gate',
    accountName: 'Front Gate',
    state: 'CLOSED',
    ...context,
  };
  const model = new DoorModel(cache, {
    log,
    now: () => clock.now,
    transitionTimeoutMs: TIMEOUT_MS,
    options: options === 'unreadable' ? undefined : { ...NOTHING_SET, ...options },
    onRename: (before, name) => renames.push([before, name]),
  });
  model.start();
  return { model, cache, clock, log, renames };
}

describe('DoorModel: state and event order', () => {
  it('applies a webhook, refuses an older one that arrives late, and keeps the cache current', () => {
    const t = setup();
    expect(t.model.applyEvent('OPEN', 2_000, 'Ada Lovelace, Keypad')).toBe('changed');
    expect(t.log.texts('info')).toEqual(['Front Gate is now open (Ada Lovelace, Keypad).']);
    t.clock.now += WEBHOOK_OUT_OF_ORDER_WINDOW_MS - 1;
    expect(t.model.applyEvent('CLOSED', 1_000, 'Keypad')).toBe('stale');
    expect({ shown: t.model.shown, cached: t.cache.state }).toEqual({ shown: 'OPEN', cached: 'OPEN' });
  });

  it('does not use a sync sent before the newest webhook arrived, and logs an unknown state once', () => {
    const t = setup();
    const sentMs = t.clock.now;
    t.model.applyEvent('OPEN', undefined, 'Keypad');
    expect(t.model.reportPolled(door({ state: 'CLOSED' }), sentMs)).toBeUndefined();
    expect(t.model.reported).toBe('OPEN');
    t.clock.now += 1;
    t.model.reportPolled(door({ state: null, rawState: 'JAMMED' }), t.clock.now);
    t.model.reportPolled(door({ state: null, rawState: 'JAMMED' }), t.clock.now);
    expect(t.log.texts('warn')).toEqual([
      'Front Gate: the service reported an unknown state "JAMMED"; keeping the last known state (OPEN).',
    ]);
    expect(t.model.reportPolled(door({ state: 'CLOSED' }), t.clock.now)).toBe('changed');
  });

  it('holds a toggle with no answer: no second command until the door reports where it is or the movement times out', () => {
    const t = setup();
    t.model.startMovement('OPEN', true);
    expect({ shown: t.model.shown, held: t.model.unconfirmedMovement() }).toEqual({
      shown: 'OPENING',
      held: { target: 'OPEN', endsInMs: TIMEOUT_MS },
    });
    t.clock.now += TIMEOUT_MS;
    expect(t.model.tick()).toBe(true);
    expect(t.model.unconfirmedMovement()).toBeUndefined();
    expect({ shown: t.model.shown, missed: t.model.missedTarget, cached: t.cache.missedTarget }).toEqual({
      shown: 'CLOSED',
      missed: 'OPEN',
      cached: 'OPEN',
    });
    expect(t.log.texts('warn')).toEqual([
      'Front Gate did not report open within 60 s; showing its last reported state (closed) and an obstruction until it reports open or gets a new command.',
    ]);
    t.model.commandArrived();
    expect({ missed: t.model.missedTarget, cached: t.cache.missedTarget }).toEqual({ missed: undefined, cached: undefined });
  });

  it('brings a cached obstruction back after a restart, and drops one the door has reached', () => {
    expect(setup({ state: 'CLOSED', missedTarget: 'OPEN' }).model.missedTarget).toBe('OPEN');
    const reached = setup({ state: 'OPEN', missedTarget: 'OPEN' });
    expect({ missed: reached.model.missedTarget, cached: reached.cache.missedTarget }).toEqual({ missed: undefined, cached: undefined });
  });

  it("tells the face to show everything when Home's state changed, only the sensors otherwise", () => {
    expect(
      ['changed', 'arrived', 'timed-out', 'moving', 'unchanged'].map((o) => whatToShow(o as Parameters<typeof whatToShow>[0])),
    ).toEqual(['all', 'all', 'all', 'sensors', 'sensors']);
  });
});

describe('DoorModel: availability', () => {
  it('says which part the service reports inactive, and when it is back; an unreadable account says nothing per door', () => {
    const t = setup();
    t.model.learn(door(), device({ active: false }));
    expect(t.model.available).toBe(false);
    t.model.learn(door({ active: false }), device());
    t.model.learn(door(), device());
    expect(t.model.available).toBe(true);
    // Deliberate change (issue 30.9): inactive again soon after is the same incident, counted rather than said again.
    t.model.learn(door({ active: false }), device());
    t.model.learn(door(), device());
    expect(t.log.texts('warn')).toEqual(['Front Gate shows No Response: the service reports its controller as inactive.']);
    expect(t.log.texts('info')).toEqual(['Front Gate is active again.']);
    t.clock.now += FLAP_QUIET_MS;
    t.model.learn(door(), device());
    expect(t.log.texts('info')[1]).toMatch(
      /^Front Gate went inactive once more after \d\d:\d\d \(No Response each time\); it has been active for 30 minutes now\.$/,
    );
    // Settled: a new incident is said again.
    t.model.learn(door({ active: false }), device());
    expect(t.log.texts('warn')).toEqual([
      'Front Gate shows No Response: the service reports its controller as inactive.',
      'Front Gate shows No Response: the service reports the door as inactive.',
    ]);
    const u = setup();
    u.model.setAccountReadable(false);
    expect({ available: u.model.available, lines: u.log.lines }).toEqual({ available: false, lines: [] });
  });
});

describe('DoorModel: timings', () => {
  it("counts the left-open time from the opening, with the settings' time before the controller's", () => {
    const t = setup();
    t.model.learn(door({ autoCloseEnabled: true, autoCloseDelay: 30 }), device({ timeBeforeDoorOpenAlert: 120 }));
    expect(t.model.leftOpenDueInMs()).toBeUndefined();
    const openedMs = t.clock.now;
    t.model.applyEvent('OPEN', undefined, 'Keypad');
    t.clock.now += 20_000;
    expect({ due: t.model.leftOpenDueInMs(), autoClose: t.model.expectedAutoCloseAtMs }).toEqual({
      due: 100_000,
      autoClose: openedMs + 30_000,
    });
    t.clock.now += 200_000;
    expect(t.model.leftOpenDueInMs()).toBe(0);
    const withSettings = setup({ state: 'OPEN' }, { leftOpenAfter: 10 });
    withSettings.model.learn(door({ state: 'OPEN' }), device({ timeBeforeDoorOpenAlert: 120 }));
    expect(withSettings.model.leftOpenDueInMs()).toBe(10_000);
  });
});

describe('DoorModel: names', () => {
  it('follows a rename in the account, and keeps a name given in the settings', () => {
    const t = setup();
    t.model.learn(door({ name: 'Back Gate' }), device());
    expect({ name: t.model.name, renames: t.renames, lines: t.log.texts('info') }).toEqual({
      name: 'Back Gate',
      renames: [['Front Gate', 'Back Gate']],
      lines: ['Front Gate was renamed Back Gate in the account; renamed in Home.'],
    });
    const kept = setup({ name: 'Gate' }, { name: 'Gate' });
    kept.model.learn(door({ name: 'Back Gate' }), device());
    expect({ name: kept.model.name, renames: kept.renames, lines: kept.log.texts('info') }).toEqual({
      name: 'Gate',
      renames: [],
      lines: ['Gate was renamed Back Gate in the account; it keeps the name given in the plugin settings.'],
    });
  });

  it('follows a name that keeps changing quietly, and leaves it out of the cache text meanwhile', () => {
    const t = setup();
    for (let i = 1; i <= ACCOUNT_RENAMES_BEFORE_QUIET + 2; i += 1) {
      t.clock.now += 1_000;
      t.model.learn(door({ name: `Gate ${i}` }), device());
    }
    expect(t.model.name).toBe(`Gate ${ACCOUNT_RENAMES_BEFORE_QUIET + 2}`);
    expect(t.log.texts('info')).toHaveLength(ACCOUNT_RENAMES_BEFORE_QUIET + 1);
    expect(t.log.texts('info').at(-1)).toBe(
      `Gate ${ACCOUNT_RENAMES_BEFORE_QUIET + 1}'s name keeps changing in the account; further renames are logged at debug level.`,
    );
    expect(t.log.texts('debug')).toHaveLength(2);
    expect(JSON.parse(t.model.cacheSnapshot())).toEqual({ doorId: 'door-1', deviceId: 'dev-1', state: 'CLOSED' });
  });

  it('keeps a name given in the Home app, and follows the account again when renamed back to its name there', () => {
    const t = setup();
    expect(t.model.renamedInHome('Front Gate')).toBe(false);
    expect(t.model.renamedInHome('Garage')).toBe(true);
    t.model.learn(door({ name: 'Main Gate' }), device());
    expect(t.model.name).toBe('Garage');
    expect(t.model.renamedInHome('Main Gate')).toBe(true);
    expect({ name: t.model.name, homeName: t.cache.homeName, renames: t.renames }).toEqual({
      name: 'Main Gate',
      homeName: undefined,
      renames: [
        ['Front Gate', 'Garage'],
        ['Garage', 'Main Gate'],
      ],
    });
    expect(t.log.texts('info')).toEqual([
      'Front Gate was renamed Garage in the Home app; the plugin keeps that name.',
      'Garage was renamed Main Gate in the account; it keeps the name given in the Home app.',
      "Garage was renamed Main Gate in the Home app, its name in the account: it follows the account's name again.",
    ]);
  });

  it('cleans cached names at start and tells the face; without a readable config the names stay', () => {
    const t = setup({ name: '★ Front Gate ★', accountName: undefined, doorId: 'abcdefghijkl' });
    expect({ name: t.model.name, renames: t.renames }).toEqual({ name: 'Front Gate', renames: [['★ Front Gate ★', 'Front Gate']] });
    const blank = setup({ name: '★', accountName: undefined, doorId: 'abcdefghijkl' });
    expect(blank.model.name).toBe('Door abcdefgh');
    const unreadable = setup({ name: 'Front Gate' }, 'unreadable');
    unreadable.model.learn(door({ name: 'Back Gate' }), device());
    expect({ name: unreadable.model.name, renames: unreadable.renames }).toEqual({ name: 'Front Gate', renames: [] });
  });
});

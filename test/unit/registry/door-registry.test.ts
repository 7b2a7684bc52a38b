// The door registry on the Homebridge double: cached doors taken over, the account's doors added, updated and removed
// (never on a partial answer, never on one missed sync), the bridge's cap, each warning said once, webhooks' doors found.
import type { API, PlatformAccessory } from 'homebridge';
import { describe, expect, it, vi } from 'vitest';

import type { Account, Device, Door } from '../../../src/client/types.js';
import { parseConfig } from '../../../src/config/index.js';
import type { DoorContext } from '../../../src/door/model/context.js';
import { doorOptions } from '../../../src/config/door-options.js';
import { DoorRegistry } from '../../../src/registry/door-registry.js';
import { MAX_ACCESSORIES_PER_BRIDGE, PLUGIN_NAME, SYNCS_MISSING_BEFORE_REMOVAL } from '../../../src/settings.js';
import { BugLog } from '../../../src/util/bug-log.js';
import type { WebhookEvent } from '../../../src/webhook/event.js';
import { HomebridgeDouble, ManualClock } from '../../support/homebridge-double.js';
import { doorRig, reportedDevice, reportedDoor } from '../../support/door-fixtures.js';
import { captureLog } from '../../support/log.js';
import { webhookEvent } from '../../support/realtime-harness.js';

function door(id: string, overrides: Partial<Door> = {}): Door {
  return reportedDoor({ id, name: `Gate ${id}`, ...overrides });
}

function device(id: string, doors: Door[]): Device {
  return { ...reportedDevice, id, doors };
}

function account(devices: Device[], unreadable: string[] = []): Account {
  return { devices, unreadable };
}

function setup(
  extra: Record<string, unknown> = {},
  cache: ReturnType<HomebridgeDouble['savedCache']> = [],
  otherAccessories?: () => number,
) {
  const parsed = parseConfig({ platform: 'AccessControl', accessToken: 'registry-token', baseUrl: 'http://127.0.0.1:9', ...extra });
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const config = parsed.config;
  const api = new HomebridgeDouble(cache);
  const log = captureLog();
  const clock = new ManualClock();
  const notePolled = vi.fn();
  const doorMoved = vi.fn();
  const registry = new DoorRegistry({
    api: api as unknown as API,
    log,
    bugs: new BugLog(log),
    config,
    createDoor: (accessory: PlatformAccessory<DoorContext>) =>
      doorRig(
        {
          api: api as unknown as API,
          log,
          transitionTimeoutMs: config.transitionTimeout * 1000,
          lowBatteryThresholdPct: config.lowBatteryThreshold,
          now: () => clock.now(),
          clock,
          options: doorOptions(config, accessory.context.doorId, accessory.context.deviceId),
        },
        accessory,
      ).door,
    notePolled,
    doorMoved,
    otherAccessories,
  });
  // As Homebridge does: the cached accessories, then didFinishLaunching.
  for (const json of cache) {
    const accessory = api.platformAccessory.deserialize(json);
    api.registered.set(accessory.UUID, accessory);
    registry.fromCache(accessory);
  }
  registry.adoptCached(true);
  const sync = (answer: Account) => registry.reconcile(answer, clock.now());
  const shownIds = () => [...api.registered.values()].map((a) => (a.context as DoorContext).doorId).sort();
  return { api, log, clock, registry, sync, shownIds, notePolled, doorMoved };
}

const event = (fields: Partial<WebhookEvent>): WebhookEvent =>
  webhookEvent({ doorState: undefined, summary: 'door_state_change', ...fields });

describe('DoorRegistry', () => {
  it('adds each new door once, with one line, and keeps a known door under the same accessory', () => {
    const t = setup();
    t.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    t.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    expect(t.shownIds()).toEqual(['d1', 'd2']);
    expect(t.log.texts('info')).toEqual([
      'Added Gate d1 to HomeKit (door d1, controller dev-1).',
      'Added Gate d2 to HomeKit (door d2, controller dev-1).',
    ]);
  });

  it('takes over a cached door under its UUID from the door id, so a restart keeps its automations', () => {
    const first = setup();
    first.sync(account([device('dev-1', [door('d1', { state: 'OPEN' })])]));
    const uuid = [...first.api.registered.keys()][0];
    expect(uuid).toBe(first.api.hap.uuid.generate(`${PLUGIN_NAME}:d1`));

    const again = setup({}, first.api.savedCache());
    again.sync(account([device('dev-1', [door('d1', { state: 'OPEN' })])]));
    expect([...again.api.registered.keys()]).toEqual([uuid]);
    expect(again.log.texts('info')).toEqual([]);
  });

  it('marks each door, new or cached, with the name of the entry that shows it, for the settings page to list it under', () => {
    const first = setup({ name: 'Yard' });
    first.sync(account([device('dev-1', [door('d1')])]));
    expect(first.api.savedCache().map((json) => (json.context as DoorContext).entry)).toEqual(['Yard']);

    // A cache of an older version (no entry) or of an entry renamed since is marked with the entry now at once.
    const older = first.api.savedCache().map((json) => ({ ...json, context: { ...(json.context as DoorContext), entry: undefined } }));
    const again = setup({ name: 'Back yard' }, older);
    expect(again.api.savedCache().map((json) => (json.context as DoorContext).entry)).toEqual(['Back yard']);
    expect(again.api.cacheWrites).toEqual([1]);
  });

  it('removes a cached accessory that holds no door, with a line', () => {
    const t = setup();
    const stray = new t.api.platformAccessory('Old Thing', t.api.hap.uuid.generate('stray'));
    t.api.registered.set(stray.UUID, stray);
    t.registry.fromCache(stray);
    expect(t.api.registered.size).toBe(0);
    expect(t.log.texts('warn')).toEqual(['Removing cached accessory "Old Thing": it does not hold a door.']);
  });

  it(`removes a door only after ${SYNCS_MISSING_BEFORE_REMOVAL} complete syncs without it, and never on a partial answer`, () => {
    const t = setup();
    t.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    for (let i = 0; i < SYNCS_MISSING_BEFORE_REMOVAL + 2; i += 1) {
      t.sync(account([device('dev-1', [door('d1')])], ['devices.1: unreadable']));
    }
    expect(t.shownIds()).toEqual(['d1', 'd2']);
    for (let i = 1; i < SYNCS_MISSING_BEFORE_REMOVAL; i += 1) {
      t.sync(account([device('dev-1', [door('d1')])]));
    }
    expect(t.shownIds()).toEqual(['d1', 'd2']);
    t.sync(account([device('dev-1', [door('d1')])]));
    expect(t.shownIds()).toEqual(['d1']);
    expect(t.log.texts('info')).toContain('Removed Gate d2 from HomeKit: the account no longer has it.');
  });

  it('removes a door the options hide at once, saying why', () => {
    const t = setup();
    t.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    const hidden = setup({ doors: [{ id: 'd2', hide: true }] }, t.api.savedCache());
    hidden.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    expect(hidden.shownIds()).toEqual(['d1']);
    expect(hidden.log.texts('info')).toEqual(['Removed Gate d2 from HomeKit: it is hidden in the plugin settings.']);
  });

  it('writes the cache only for doors whose cached state changed', () => {
    const t = setup();
    t.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    const writes = t.api.cacheWrites.length;
    t.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    expect(t.api.cacheWrites.length).toBe(writes);
    t.sync(account([device('dev-1', [door('d1', { state: 'OPEN' }), door('d2')])]));
    expect(t.api.cacheWrites.slice(writes)).toEqual([1]);
  });

  it('tells who moved a door that a sync found moved, and reports every polled door', () => {
    const t = setup();
    t.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    t.sync(account([device('dev-1', [door('d1', { state: 'OPEN' }), door('d2')])]));
    expect(t.doorMoved.mock.calls).toEqual([['d1', 'Gate d1', 'OPEN', undefined]]);
    expect(t.notePolled).toHaveBeenCalledTimes(4);
  });

  it(`shows the first ${MAX_ACCESSORIES_PER_BRIDGE} doors by id and warns once`, () => {
    const t = setup();
    const ids = Array.from({ length: MAX_ACCESSORIES_PER_BRIDGE + 3 }, (_, i) => `d${String(i).padStart(3, '0')}`);
    const big = account([
      device(
        'dev-1',
        [...ids].reverse().map((id) => door(id)),
      ),
    ]);
    t.sync(big);
    t.sync(big);
    expect(t.shownIds()).toEqual(ids.slice(0, MAX_ACCESSORIES_PER_BRIDGE));
    expect(t.log.texts('warn')).toEqual([
      `The account has ${ids.length} doors for this bridge, but one bridge holds at most ${MAX_ACCESSORIES_PER_BRIDGE} accessories; left out: Gate d149 (door d149); Gate d150 (door d150); Gate d151 (door d151). To show them, add the platform again on its own child bridge with includeDeviceIds (or includeDoorIds) naming their controllers, and excludeDeviceIds on this one (see docs/limits.md).`,
    ]);
  });

  it('keeps the doors already in Home when a new door sorts before them, and says when all fit again', () => {
    const t = setup();
    const ids = Array.from({ length: MAX_ACCESSORIES_PER_BRIDGE }, (_, i) => `d${String(i + 1).padStart(3, '0')}`);
    t.sync(
      account([
        device(
          'dev-1',
          ids.map((id) => door(id)),
        ),
      ]),
    );
    const grown = account([device('dev-1', [door('d000'), ...ids.map((id) => door(id))])]);
    t.sync(grown);
    t.sync(grown);
    expect(t.shownIds()).toEqual(ids);
    expect(t.log.texts('warn')).toEqual([expect.stringContaining('left out: Gate d000 (door d000).')]);
    t.sync(account([device('dev-1', [door('d000'), ...ids.slice(1).map((id) => door(id))])]));
    t.sync(account([device('dev-1', [door('d000'), ...ids.slice(1).map((id) => door(id))])]));
    expect(t.shownIds()).toEqual(['d000', ...ids.slice(1)]);
    expect(t.log.texts('info')).toContain('Every door the settings let in fits on the bridge again.');
    expect(t.log.texts('info').filter((line) => line.includes('the account no longer has it'))).toEqual([
      `Removed Gate d001 from HomeKit: the account no longer has it.`,
    ]);
  });

  it('makes room for more accessories of its own by removing the last doors by id, never as gone from the account', () => {
    let others = 0;
    const t = setup({}, [], () => others);
    const ids = Array.from({ length: MAX_ACCESSORIES_PER_BRIDGE }, (_, i) => `d${String(i).padStart(3, '0')}`);
    const all = account([
      device(
        'dev-1',
        ids.map((id) => door(id)),
      ),
    ]);
    t.sync(all);
    others = 2;
    t.sync(all);
    t.sync(all);
    expect(t.shownIds()).toEqual(ids.slice(0, MAX_ACCESSORIES_PER_BRIDGE - 2));
    expect(t.log.texts('info').filter((line) => line.startsWith('Removed'))).toEqual(
      ids
        .slice(-2)
        .map(
          (id) =>
            expect.stringMatching(
              new RegExp(`^Removed Gate ${id} from HomeKit: one bridge holds at most 149 accessories, 2 of them person sensors`),
            ) as unknown,
        ),
    );
  });

  it('shows a door listed under two controllers once, and names the duplicates once for as long as they last', () => {
    const t = setup();
    const twice = account([device('dev-2', [door('d1')]), device('dev-1', [door('d1')])]);
    const line =
      'The account lists the same door under more than one controller; each is shown once, as the door of the first controller by id: door d1 (controllers dev-1, dev-2).';
    t.sync(twice);
    t.sync(twice);
    expect(t.shownIds()).toEqual(['d1']);
    expect(t.log.texts('warn')).toEqual([line]);
    t.sync(account([device('dev-1', [door('d1')])]));
    t.sync(twice);
    expect(t.log.texts('warn')).toEqual([line, line]);
  });

  it('warns once about two doors Siri cannot tell apart, and again if the pair comes back', () => {
    const t = setup();
    const alike = account([device('dev-1', [door('d1', { name: 'Back Gate' }), door('d2', { name: 'back-gate' })])]);
    t.sync(alike);
    t.sync(alike);
    const warnings = () => t.log.texts('warn').filter((text) => text.startsWith('Siri cannot tell'));
    expect(warnings()).toHaveLength(1);
    for (let i = 0; i < SYNCS_MISSING_BEFORE_REMOVAL; i += 1) {
      t.sync(account([device('dev-1', [door('d1', { name: 'Back Gate' })])]));
    }
    t.sync(alike);
    expect(warnings()).toHaveLength(2);
  });

  it('finds the door a webhook names by id, or by controller and number, and the doors of a controller', () => {
    const t = setup();
    t.sync(
      account([
        device('dev-1', [door('d1', { entityNumber: 1 }), door('d2', { entityNumber: 2 })]),
        device('dev-2', [door('d3', { entityNumber: 1 })]),
      ]),
    );
    expect(t.registry.find(event({ doorId: 'd2' }))?.facts.doorId).toBe('d2');
    expect(t.registry.find(event({ deviceId: 'dev-2', doorNumber: 1 }))?.facts.doorId).toBe('d3');
    expect(t.registry.find(event({ doorId: 'nope' }))).toBeUndefined();
    expect(t.registry.alertDoors(event({ deviceId: 'dev-1' })).map((d) => d.facts.doorId)).toEqual(['d1', 'd2']);
    expect(t.registry.alertDoors(event({ doorId: 'd3' })).map((d) => d.facts.doorId)).toEqual(['d3']);
    expect(t.registry.alertDoors(event({}))).toEqual([]);
  });

  it('ticks every door even when one tick throws, logging the bug once', () => {
    const t = setup();
    t.sync(account([device('dev-1', [door('d1'), door('d2')])]));
    const ticks: string[] = [];
    for (const d of [t.registry.find(event({ doorId: 'd1' })), t.registry.find(event({ doorId: 'd2' }))]) {
      if (!d) throw new Error('door missing');
      vi.spyOn(d, 'tick').mockImplementation(() => {
        ticks.push(d.facts.doorId);
        throw new Error('tick broke');
      });
    }
    t.registry.tick();
    expect(ticks).toEqual(['d1', 'd2']);
    expect(t.log.texts('error').filter((text) => text.includes('A bug in the plugin while ending a door movement'))).toHaveLength(1);
  });
});

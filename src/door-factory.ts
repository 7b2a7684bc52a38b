// Makes one door's HomeKit side from its accessory, wired to what the platform holds: the account sync (its client and
// its pace), the gate, the clock, the door's settings and its Eve history.
import type { API, Logging, PlatformAccessory } from 'homebridge';

import type { DoorState } from './client/types.js';
import type { PluginConfig } from './config/index.js';
import { doorOptions } from './config/door-options.js';
import type { ProtectionCache } from './config/protection-cache.js';
import { DoorAccessory } from './door/door-accessory.js';
import type { DoorContext } from './door/model/context.js';
import type { EveDoor } from './eve/eve-door.js';
import { OPTION_DEFAULTS } from './option-values.js';
import { ACTIVE_POLL_INTERVAL_MS } from './settings.js';
import type { AccountSync } from './sync/account-sync.js';
import { staleAfterMs } from './sync/schedule.js';
import type { Clock } from './util/clock.js';

export interface DoorFactoryDeps {
  api: API;
  log: Logging;
  /** Undefined when the config cannot be read: the door then keeps the services it has and the catalog's timings. */
  config: PluginConfig | undefined;
  clock: Clock;
  /** The account sync, once launched with a readable config (a cached door is made before it). */
  sync: () => AccountSync | undefined;
  /** The one gate asked at each command (src/config/gate.ts through the protection cache). */
  protection: ProtectionCache;
  eve: (doorId: string) => EveDoor;
  /** A test's shorter read time-out, which bounds how old a state may grow (sync/schedule.ts). */
  readTimeoutMs?: number | undefined;
}

/** The way the registry makes each door: one door's HomeKit side per accessory. */
export function doorFactory(deps: DoorFactoryDeps): (accessory: PlatformAccessory<DoorContext>) => DoorAccessory {
  const { config, clock } = deps;
  // The catalog's defaults while the config cannot be read; transitionTimeout is in seconds.
  const settings = config ?? OPTION_DEFAULTS;
  const toggle = (doorId: string, state: DoorState): Promise<void> => {
    const sync = deps.sync();
    return sync ? sync.client.toggle(doorId, state) : Promise.reject(new Error('the configuration is not valid'));
  };
  return (accessory) =>
    new DoorAccessory(
      {
        api: deps.api,
        log: deps.log,
        toggle,
        transitionTimeoutMs: settings.transitionTimeout * 1000,
        lowBatteryThresholdPct: settings.lowBatteryThreshold,
        onCommandAccepted: () => deps.sync()?.hurry(ACTIVE_POLL_INTERVAL_MS),
        staleAfterMs: () => config && staleAfterMs(config, deps.sync()?.realtime?.flowing === true, deps.readTimeoutMs),
        now: () => clock.now(),
        clock,
        // Without a readable config, a cached door keeps the services it has: a typo must not break automations.
        options: config ? doorOptions(config, accessory.context.doorId, accessory.context.deviceId) : undefined,
        gate: () => deps.protection.refusalFor(accessory.context.doorId),
        eve: deps.eve,
      },
      accessory,
    );
}

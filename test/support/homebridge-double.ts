// A small stand-in for Homebridge's API around the real HAP-NodeJS and PlatformAccessory, plus a simulated clock, for fast platform tests.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import * as hap from 'hap-nodejs';
import type { API, Logging, PlatformConfig } from 'homebridge';
import { PlatformAccessory } from 'homebridge/lib/platformAccessory.js';

import { timerDelayMs } from '../../src/util/clock.js';
import type { Clock } from '../../src/util/clock.js';
import { AccessControlPlatform } from '../../src/platform.js';
import type { PlatformRuntime } from '../../src/platform.js';

/** What one HAP-NodeJS bridge holds (its own limit, written here as HAP has it, not read from the plugin). */
const HAP_BRIDGE_MAX_ACCESSORIES = 149;

/** A clock that moves only when told to, running due timers in order; delays are clamped as the real clock's are. */
export class ManualClock implements Clock {
  private nowMs = Date.parse('2026-11-21T12:00:00Z');
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();

  now(): number {
    return this.nowMs;
  }

  setTimeout(callback: () => void, delayMs: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.nowMs + timerDelayMs(delayMs), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Milliseconds until the next timer is due, if any. */
  get nextDueInMs(): number | undefined {
    const due = [...this.timers.values()].map((t) => t.at);
    return due.length > 0 ? Math.min(...due) - this.nowMs : undefined;
  }

  /** Moves time forward, running every timer that falls due on the way. */
  advance(ms: number): void {
    const end = this.nowMs + ms;
    for (;;) {
      const next = [...this.timers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (!next || next[1].at > end) break;
      this.timers.delete(next[0]);
      this.nowMs = next[1].at;
      next[1].callback();
    }
    this.nowMs = end;
  }
}

/** The parts of Homebridge's API the platform uses, over the real HAP-NodeJS, with the accessory cache kept as JSON like on disk. */
export class HomebridgeDouble extends EventEmitter {
  readonly hap = hap;
  readonly platformAccessory = PlatformAccessory;
  readonly version = 2.7;
  readonly serverVersion = '1.11.4';
  readonly registered = new Map<string, PlatformAccessory>();
  /** config.json as Homebridge would have it, for a test of what the plugin reads there; unset, configPath() throws. */
  configFile: string | undefined;
  /** Homebridge's paths: config.json (unset, configPath() throws) and the storage folder (the Eve history file's). */
  readonly user = {
    configPath: (): string => {
      if (this.configFile === undefined) throw new Error('no config.json in this test');
      return this.configFile;
    },
    storagePath: (): string => this.storage,
  };

  constructor(
    private readonly cache: ReturnType<typeof PlatformAccessory.serialize>[] = [],
    /** Homebridge's storage folder (the Eve history file's): made only when the plugin writes there; a restart passes it on. */
    readonly storage = join(tmpdir(), `homebridge-double-${randomUUID()}`),
  ) {
    super();
  }

  registerPlatformAccessories(_plugin: string, _platform: string, accessories: PlatformAccessory[]): void {
    for (const accessory of accessories) {
      if (this.registered.has(accessory.UUID)) {
        throw new Error(`accessory ${accessory.UUID} registered twice`);
      }
      // HAP-NodeJS's Bridge refuses the 150th accessory with this error, and Homebridge then stops.
      if (this.registered.size >= HAP_BRIDGE_MAX_ACCESSORIES) {
        throw new Error(`Cannot Bridge more than ${HAP_BRIDGE_MAX_ACCESSORIES} Accessories`);
      }
      this.registered.set(accessory.UUID, accessory);
    }
  }

  unregisterPlatformAccessories(_plugin: string, _platform: string, accessories: PlatformAccessory[]): void {
    for (const accessory of accessories) {
      this.registered.delete(accessory.UUID);
    }
  }

  /** How many times the platform asked Homebridge to write the cache to disk, and for how many accessories. */
  readonly cacheWrites: number[] = [];

  updatePlatformAccessories(accessories: PlatformAccessory[]): void {
    this.cacheWrites.push(accessories.length);
  }

  /** The accessory cache as Homebridge would write it at shutdown. */
  savedCache(): ReturnType<typeof PlatformAccessory.serialize>[] {
    return [...this.registered.values()].map((accessory) => PlatformAccessory.serialize(accessory));
  }

  /** Boots the platform as Homebridge does: constructor, cached accessories, then didFinishLaunching. `runtime` overrides the short test time-outs. */
  boot(config: PlatformConfig, log: Logging, clock: Clock, runtime: PlatformRuntime = {}): AccessControlPlatform {
    const platform = new AccessControlPlatform(log, config, this as unknown as API, {
      clock,
      clientTimeouts: { connectMs: 300, headersMs: 300, bodyMs: 300 },
      toggleTimeoutMs: 300,
      ...runtime,
    });
    for (const json of this.cache) {
      const accessory = PlatformAccessory.deserialize(json);
      this.registered.set(accessory.UUID, accessory);
      platform.configureAccessory(accessory);
    }
    this.beforeLaunch(platform);
    this.emit('didFinishLaunching');
    return platform;
  }

  /** Between the cached accessories and didFinishLaunching: a Homebridge 2 double restores its Matter cache here. */
  protected beforeLaunch(_platform: AccessControlPlatform): void {
    // Homebridge 1.11 has no Matter cache.
  }

  async shutdown(): Promise<void> {
    const listeners = this.listeners('shutdown') as (() => unknown)[];
    await Promise.all(listeners.map((listener) => listener()));
  }

  /** A door's registered accessory, by door id (its serial number, as Home shows it). */
  accessory(doorId: string): PlatformAccessory | undefined {
    return [...this.registered.values()].find(
      (a) => a.getService(hap.Service.AccessoryInformation)?.getCharacteristic(hap.Characteristic.SerialNumber).value === doorId,
    );
  }

  /** A door's GarageDoorOpener characteristic, by door id (the serial number). */
  characteristic(
    doorId: string,
    type:
      | typeof hap.Characteristic.CurrentDoorState
      | typeof hap.Characteristic.TargetDoorState
      | typeof hap.Characteristic.ObstructionDetected,
  ): hap.Characteristic {
    const service = this.accessory(doorId)?.getService(hap.Service.GarageDoorOpener);
    if (!service) {
      throw new Error(`no door ${doorId}`);
    }
    return service.getCharacteristic(type);
  }
}

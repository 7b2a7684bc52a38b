// The doors and person sensors on Matter (Homebridge 2.x): loaded at launch only where the settings want Matter or
// Homebridge kept Matter devices, then following each sync's doors.
import type { API, Logging } from 'homebridge';

import { exclusionReason } from '../config/door-options.js';
import type { PluginConfig } from '../config/index.js';
import type { Protection } from '../config/protection.js';
import type { BugLog } from '../util/bug-log.js';
import type { MatterDoors, ShownDoor, ShownPerson } from './matter-doors.js';

export interface MatterFollowerDeps {
  api: API;
  log: Logging;
  bugs: BugLog;
  /** Undefined: the settings could not be read, and the Matter side is not loaded. */
  config: PluginConfig | undefined;
  now: () => number;
  /** What settings that name no door exactly could mean, in the doors known now (src/config/protection-cache.ts). */
  protection: () => Protection;
  /** The doors HomeKit shows, as the Matter side follows them. */
  shownDoors: () => (ShownDoor & { deviceId: string })[];
  /** The person sensors HomeKit shows, each an occupancy sensor on Matter under its accessory's UUID. */
  shownPeople: () => ShownPerson[];
  /** Whether Homebridge began shutting down: nothing loaded after it is started. */
  stopped: () => boolean;
}

export class MatterFollower {
  /** The doors on Matter (Homebridge 2.x): loaded at launch, only where the settings want Matter or Homebridge kept Matter devices. */
  private matterDoors: MatterDoors | undefined;
  /** Settles when the Matter side has loaded (or was not wanted): a sync's news for Matter waits for it. */
  private matterLoaded: Promise<void> = Promise.resolve();
  /** The Matter devices Homebridge restored before launch, kept for the Matter side until it loads. */
  private readonly cachedMatter: unknown[] = [];

  constructor(private readonly deps: MatterFollowerDeps) {}

  /** Settles when the Matter side has loaded (or was not wanted). */
  get loaded(): Promise<void> {
    return this.matterLoaded;
  }

  /** A Matter device Homebridge restored before launch; it comes back without handlers. */
  fromCache(accessory: unknown): void {
    this.cachedMatter.push(accessory);
  }

  /** At launch: loads the Matter side where the settings want Matter or Homebridge kept Matter devices. */
  start(config: PluginConfig): void {
    if (config.matter !== 'off' || this.cachedMatter.length > 0) {
      this.matterLoaded = this.startMatter(config);
    }
  }

  /**
   * The Matter side, loaded only where it is wanted, so every other bridge is spared its code at start-up (BENCHMARKS.md,
   * section 9). The cached doors reach Matter as soon as it has loaded (milliseconds after launch), with their handlers,
   * but for those the settings now keep out (by their ids; the first sync decides the rest, as for HomeKit). Homebridge
   * registers again every door it is given at each start, so a cached device never stays without handlers.
   */
  private async startMatter(config: PluginConfig): Promise<void> {
    let Doors: typeof MatterDoors;
    try {
      ({ MatterDoors: Doors } = await import('./matter-doors.js'));
    } catch (error) {
      this.deps.bugs.report('loading the Matter side', error);
      return;
    }
    if (this.deps.stopped()) {
      return;
    }
    // A Matter setting that cannot be read keeps the doors on Matter as they are: a typo must not drop Google Home routines.
    const mode = config.keptAsCached.matter ? 'as-cached' : config.matter;
    // MatterDoors contains Homebridge's own throws; what is left would be the plugin's bug, and must not reject matterLoaded.
    try {
      const matterDoors = new Doors({ api: this.deps.api, log: this.deps.log, mode, now: this.deps.now });
      for (const accessory of this.cachedMatter.splice(0)) {
        matterDoors.fromCache(accessory);
      }
      this.matterDoors = matterDoors;
      matterDoors.follow(
        this.deps
          .shownDoors()
          .filter(
            ({ door, deviceId }) =>
              exclusionReason(config, { id: door.facts.doorId, relationship: undefined }, deviceId, this.deps.protection()) === undefined,
          ),
        false,
      );
      matterDoors.followPeople(this.deps.shownPeople(), config.keptAsCached.people === true);
    } catch (error) {
      this.deps.bugs.report('starting the doors on Matter', error);
    }
  }

  /** A sync's doors for Matter; a sync that ends before the Matter side has loaded hands them over once it has. */
  follow(complete: boolean): void {
    const follow = (): void => {
      try {
        this.matterDoors?.follow(this.deps.shownDoors(), complete);
        // People change only at a start: this asks again what Homebridge refused.
        this.matterDoors?.followPeople(this.deps.shownPeople(), this.deps.config?.keptAsCached.people === true);
      } catch (error) {
        this.deps.bugs.report('following the doors on Matter', error);
      }
    };
    if (this.matterDoors) {
      follow();
      return;
    }
    void this.matterLoaded.then(() => {
      if (!this.deps.stopped()) follow();
    });
  }

  /** Stops following the doors and the people (Homebridge is shutting down). */
  dispose(): void {
    this.matterDoors?.dispose();
  }
}

// What the settings protect in the doors known now (protection.ts), read again only when those doors change, and the
// doors the gate knows (gate.ts): the cache's before the first sync, the last sync's after.
import type { Logging } from 'homebridge';

import type { Account } from '../client/types.js';
import type { BugLog } from '../util/bug-log.js';
import type { Skeleton } from '../util/skeleton.js';
import { knownDoorMap, refusalFor } from './gate.js';
import type { KnownDoor } from './gate.js';
import type { PluginConfig } from './index.js';
import { needsLookAlikes, NO_PROTECTION, protectionFor, readingKey, UNTIL_TOLD } from './protection.js';
import type { AccountIds, Protection } from './protection.js';

/** A door HomeKit shows, as a reading of protection counts it among the doors known. */
export interface ShownDoorIds {
  id: string;
  deviceId: string;
}

export interface ProtectionCacheDeps {
  log: Logging;
  bugs: BugLog;
  /** Undefined: the settings could not be read, and nothing is protected by a reading (the gate refuses every command). */
  config: PluginConfig | undefined;
  /** The doors HomeKit shows now. */
  shown: () => readonly ShownDoorIds[];
  /** Whether Homebridge began shutting down: a reading that ends after it is not applied. */
  stopped: () => boolean;
}

export class ProtectionCache {
  /** The sentences already said about a door entry's or a filter's id that names nothing in the account: each once. */
  private readonly unmatchedSaid = new Set<string>();
  /** What settings that name no door exactly could mean, in the doors known now (src/config/protection.ts). */
  private protection: Protection = NO_PROTECTION;
  /** Unicode's look-alike letters, loaded the first time an id of the settings names no door exactly. */
  private skeleton: Skeleton | undefined;
  /** Counts the readings of protection: only the latest one is applied (a sync's and the start's may overlap). */
  private protectionRuns = 0;
  /** The doors (and whether the look-alike letters were known) the protection was last read for. */
  private protectedFor = '';
  /** The doors known now, by canonical id, as the gate reads them: the cache before the first sync, the last sync after. */
  private known: ReadonlyMap<string, KnownDoor> = new Map();

  constructor(private readonly deps: ProtectionCacheDeps) {}

  /** What settings that name no door exactly could mean, in the doors known now. */
  get current(): Protection {
    return this.protection;
  }

  /** The doors known now become these: the gate reads them from here on. */
  remember(doors: readonly KnownDoor[]): void {
    this.known = knownDoorMap(doors);
  }

  /**
   * At launch: the cached doors are the doors known until the first sync, so a door a misspelt setting could mean is not
   * openable meanwhile. `apply` takes the protection now, and again once it is read for the cached doors (after the
   * look-alike letters have loaded, if they must).
   */
  startWithCached(apply: (protection: Protection) => void): void {
    const cached = this.knownDoors(undefined);
    this.remember(cached.doors);
    void this.protect(cached).then(() => {
      if (!this.deps.stopped()) apply(this.protection);
    });
    apply(this.protection);
  }

  /** Why a command to this door is refused now (gate.ts), or undefined when the settings let it through. */
  refusalFor(doorId: string): string | undefined {
    return refusalFor({ config: this.deps.config, protection: this.protection, known: this.known }, doorId);
  }

  /** Each finding of the protection read now that was not said yet, said once: after a sync that read the whole account. */
  sayFindings(): void {
    for (const { sentence } of this.protection.findings) {
      if (this.unmatchedSaid.has(sentence)) continue;
      this.unmatchedSaid.add(sentence);
      this.deps.log.warn(`In the configuration, ${sentence}.`);
    }
  }

  /**
   * The doors a reading of protection and the gate look at: the account's, and (when it is partial or not read yet) those
   * HomeKit shows and those known before.
   */
  knownDoors(account: Account | undefined): AccountIds & { doors: readonly KnownDoor[] } {
    const listed = (account?.devices ?? []).flatMap((device) =>
      device.doors.map((door) => ({ id: door.id, deviceId: device.id, relationship: door.relationship })),
    );
    if (account?.unreadable.length === 0) return { doors: listed, unsafeDoorNumbers: account.unsafeDoorNumbers };
    const shown = this.deps.shown();
    // And those known before (the cache's, those left out at start included): an id of the settings that names one of
    // them exactly names it still, not its neighbours by could-mean, while part of the account cannot be read.
    return { doors: [...listed, ...shown, ...this.known.values()], unsafeDoorNumbers: account?.unsafeDoorNumbers };
  }

  /**
   * Reads what the settings protect in the doors known now. Where an id of the settings names none of them exactly, the
   * look-alike letters are loaded first (once; milliseconds) and every door is read-only meanwhile; if they cannot be
   * loaded, every door stays read-only. After a complete sync, each finding is said once (sayFindings).
   */
  async protect(known: AccountIds): Promise<void> {
    const config = this.deps.config;
    if (!config) return;
    const run = ++this.protectionRuns;
    if (this.skeleton === undefined && needsLookAlikes(config, known)) {
      this.protection = UNTIL_TOLD;
      try {
        ({ skeleton: this.skeleton } = await import('../util/skeleton.js'));
      } catch (error) {
        this.deps.bugs.report('loading the look-alike letters (every door stays read-only)', error);
        return;
      }
    }
    if (run !== this.protectionRuns || this.deps.stopped()) return;
    // The same doors as last time (most syncs), in whatever order the service lists them: the same protection, not read again.
    const key = readingKey(known, this.skeleton !== undefined);
    if (key === this.protectedFor) return;
    this.protection = protectionFor(config, known, this.skeleton);
    this.protectedFor = key;
  }
}

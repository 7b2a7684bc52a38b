// The bridge's Eve histories as the platform holds them: in the bridge's file when a door wants its history at launch,
// else in memory, made at the first door that asks (a door whose history is turned on later, or a file that cannot open).
import type { Logging } from 'homebridge';

import type { PluginConfig } from '../config/index.js';
import type { BugLog } from '../util/bug-log.js';
import type { Clock } from '../util/clock.js';
import type { EveDoor } from './eve-door.js';
import { EveHistories } from './eve-histories.js';
import { historyFilePath } from './history-file.js';

export interface BridgeEveDeps {
  log: Logging;
  bugs: BugLog;
  clock: Clock;
}

/** Whether any door of the settings keeps an Eve history (the bridge's, or one door's own eveHistory). */
export function eveWanted(config: PluginConfig): boolean {
  return config.eveHistory || config.doors.some((door) => door.eveHistory === true);
}

export class BridgeEve {
  private histories: EveHistories | undefined;

  constructor(private readonly deps: BridgeEveDeps) {}

  /**
   * Opens the bridge's history file in Homebridge's storage: a child bridge's (its `_bridge.username` in the platform
   * block) has its own, the main bridge's is "main". A file that cannot open is a logged bug: the histories are then
   * kept in memory.
   */
  open(storagePath: string, block: unknown): void {
    try {
      const bridge = (block as { _bridge?: { username?: unknown } } | undefined)?._bridge?.username;
      const path = historyFilePath(storagePath, typeof bridge === 'string' ? bridge : 'main');
      this.histories = new EveHistories({ path, log: this.deps.log, clock: this.deps.clock });
    } catch (error) {
      this.deps.bugs.report('opening the Eve history file', error);
    }
  }

  /** The histories the sync feeds (history reads, repeats, doors that left): none until a door wants one. */
  get current(): EveHistories | undefined {
    return this.histories;
  }

  /** A door's Eve history: in the bridge's file, or in memory when the file is not kept (no door wanted it at launch). */
  door(doorId: string): EveDoor {
    this.histories ??= new EveHistories({ path: undefined, log: this.deps.log, clock: this.deps.clock });
    return this.histories.door(doorId);
  }

  /** Writes what is due and stops (at Homebridge's shutdown). */
  stop(): void {
    this.histories?.stop();
  }
}

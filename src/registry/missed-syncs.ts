// How many complete syncs in a row did not list each door in Home, so a door leaves only after SYNCS_MISSING_BEFORE_REMOVAL.
import { SYNCS_MISSING_BEFORE_REMOVAL } from '../settings.js';

export class MissedSyncs {
  /** Syncs in a row that did not list a door, by UUID. */
  private readonly counts = new Map<string, number>();

  /**
   * Counts a complete sync that listed the UUIDs in `seen`: the doors of `inHome` it lacked for the
   * SYNCS_MISSING_BEFORE_REMOVAL-th time in a row are gone (the caller removes them and forgets their count).
   */
  gone<D>(inHome: ReadonlyMap<string, D>, seen: ReadonlySet<string>): D[] {
    const gone: D[] = [];
    for (const [uuid, door] of inHome) {
      if (seen.has(uuid)) {
        continue;
      }
      const misses = (this.counts.get(uuid) ?? 0) + 1;
      if (misses < SYNCS_MISSING_BEFORE_REMOVAL) {
        this.counts.set(uuid, misses);
        continue;
      }
      gone.push(door);
    }
    return gone;
  }

  /** A door listed again, or out of Home: its next miss counts from one. */
  forget(uuid: string): void {
    this.counts.delete(uuid);
  }
}

// How often a door's name changes in the account: past a few renames within a window, they are followed quietly.
/** What to do with one rename: log it, log it and say the door goes quiet, or follow it quietly. */
export type RenameVerdict = 'say' | 'goes-quiet' | 'quiet';

/**
 * An account whose door name flips at every sync would write a log line and the accessory cache (an SD card) at every
 * poll. After `maxRenames` within `windowMs` a door goes quiet: renames are still followed, logged at debug level, and
 * kept out of the cache until the name has held for a whole window.
 */
export class RenameRate {
  /** When the renames of the last window came, oldest first; never more than maxRenames + 1. */
  private readonly times: number[] = [];
  private isQuiet = false;

  constructor(
    private readonly maxRenames: number,
    private readonly windowMs: number,
  ) {}

  get quiet(): boolean {
    return this.isQuiet;
  }

  /** A sync at `nowMs`: a quiet door whose name has held for a whole window speaks again. True when it just did. */
  settle(nowMs: number): boolean {
    const last = this.times.at(-1);
    if (!this.isQuiet || (last !== undefined && nowMs - last < this.windowMs)) {
      return false;
    }
    this.isQuiet = false;
    this.times.length = 0;
    return true;
  }

  /** The door was renamed in the account at `nowMs`. */
  record(nowMs: number): RenameVerdict {
    this.times.push(nowMs);
    while (this.times.length > this.maxRenames + 1 || (this.times[0] !== undefined && nowMs - this.times[0] >= this.windowMs)) {
      this.times.shift();
    }
    if (this.isQuiet) {
      return 'quiet';
    }
    if (this.times.length <= this.maxRenames) {
      return 'say';
    }
    this.isQuiet = true;
    return 'goes-quiet';
  }
}

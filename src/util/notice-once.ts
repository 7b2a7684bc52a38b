// Says a line once when a condition starts (and, if asked, once when it ends), not at every sync that still finds it.

/**
 * One condition, optionally about something (which parts, which doors): said when it starts, said again when what it is
 * about changes, and, once it has ended, said again at its next start.
 */
export class NoticeOnce {
  /** What the condition was last said to be about; undefined while it does not hold. */
  private about: string | undefined;

  /** The condition holds, about `about`: `say` runs unless the line was already said about the same thing. */
  holds(say: () => void, about = ''): void {
    if (this.about === about) {
      return;
    }
    this.about = about;
    say();
  }

  /** The condition no longer holds: `say`, if given, runs when it did hold; the next start is said again. */
  ended(say?: () => void): void {
    if (this.about === undefined) {
      return;
    }
    this.about = undefined;
    say?.();
  }
}

/** Many conditions of one kind (pairs of doors, say), each said once while it lasts and again if it comes back. */
export class NoticeOnceEach {
  /** The keys of the conditions that held at the last call. */
  private held = new Set<string>();

  /** The conditions that hold now: `say` runs for each whose key did not hold at the last call; the others are forgotten. */
  update<T>(conditions: Iterable<T>, keyOf: (condition: T) => string, say: (condition: T) => void): void {
    const now = new Set<string>();
    for (const condition of conditions) {
      const key = keyOf(condition);
      now.add(key);
      if (!this.held.has(key)) {
        say(condition);
      }
    }
    this.held = now;
  }
}

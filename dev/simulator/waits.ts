// Waits of a slow simulated service ('delay' faults) that stop() can end, so nothing is acted on after the simulator stopped.

export class PendingWaits {
  private readonly pending = new Set<{ timer: NodeJS.Timeout; resolve: (go: boolean) => void }>();

  /**
   * Resolves true after `ms`, whether or not the client still waits for the answer: a request the client gave up on
   * is still acted on, as a slow service does. Resolves false when the simulator stops first.
   */
  wait(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.pending.delete(entry);
          resolve(true);
        }, ms),
        resolve,
      };
      this.pending.add(entry);
    });
  }

  /** Ends every wait without acting. */
  stop(): void {
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.resolve(false);
    }
    this.pending.clear();
  }
}

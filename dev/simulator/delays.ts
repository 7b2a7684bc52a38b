// Programmable slowness: the simulator answers an endpoint only after a delay, and acts only then, as a slow service does.
import type { SimEndpoint } from './faults.js';

export class DelayTable {
  private readonly delays = new Map<SimEndpoint, number>();
  private readonly pending = new Set<{ timer: NodeJS.Timeout; resolve: (go: boolean) => void }>();

  /** `null` or 0 answers at once again. */
  set(endpoint: SimEndpoint, delayMs: number | null): void {
    if (delayMs === null || delayMs === 0) {
      this.delays.delete(endpoint);
      return;
    }
    if (!(delayMs > 0) || !Number.isFinite(delayMs)) {
      throw new RangeError('a delay must be a positive number of milliseconds');
    }
    this.delays.set(endpoint, delayMs);
  }

  /**
   * Waits out the endpoint's delay, whether or not the client still waits for the answer: a request the client gave
   * up on is still acted on. Resolves false when the simulator stops meanwhile (then nothing is acted on).
   */
  wait(endpoint: SimEndpoint): Promise<boolean> {
    const delayMs = this.delays.get(endpoint);
    if (delayMs === undefined) {
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.pending.delete(entry);
          resolve(true);
        }, delayMs),
        resolve,
      };
      this.pending.add(entry);
    });
  }

  /** Ends every wait without acting, and forgets the delays. */
  stop(): void {
    for (const entry of this.pending) {
      clearTimeout(entry.timer);
      entry.resolve(false);
    }
    this.pending.clear();
    this.delays.clear();
  }
}

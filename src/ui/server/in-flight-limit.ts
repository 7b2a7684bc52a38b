// At most a set number of tasks running at once, the rest waiting their turn in order: the settings server's bound on history reads.

export class InFlightLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be a whole number of at least 1');
  }

  /** Tasks started and not yet settled. */
  get inFlight(): number {
    return this.running;
  }

  /** Runs `task` once fewer than `max` others run; settles as it does (a task that throws frees its place too). */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      // The place passes straight to the next waiting task, so none can slip in between and exceed the bound.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

// Runs the account sync again and again, never two at once, at a delay the platform chooses after each run.
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';

export class SyncLoop {
  private timer: unknown;
  private current: Promise<void> = Promise.resolve();
  private running = false;
  private rerun = false;
  private stopped = true;
  private dueAtMs = Infinity;

  constructor(
    /** One sync; must not throw (the platform handles its own failures). */
    private readonly task: () => Promise<void>,
    /** Milliseconds until the next run, asked after each run. */
    private readonly nextDelayMs: () => number,
    private readonly clock: Clock = SYSTEM_CLOCK,
    /** No run before this time (the service's Retry-After), however soon one is asked for; undefined: no wait. */
    private readonly notBeforeMs: () => number | undefined = () => undefined,
  ) {}

  /** Resolves once no sync is running (tests wait on it after moving the simulated clock). */
  settled(): Promise<void> {
    return this.current;
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Makes the next run happen within `withinMs` (after a command, a door should be followed closely). */
  hurry(withinMs: number): void {
    if (this.stopped) {
      return;
    }
    if (this.running) {
      // The running sync may have started before the change; run once more when it ends.
      this.rerun = true;
      return;
    }
    if (this.dueAtMs - this.clock.now() > withinMs) {
      this.schedule(withinMs);
    }
  }

  private schedule(asked: number): void {
    this.clock.clearTimeout(this.timer);
    // A command's hurry, or a rerun, never brings a sync before the wait the service asked for.
    const delayMs = Math.max(asked, (this.notBeforeMs() ?? 0) - this.clock.now());
    this.dueAtMs = this.clock.now() + delayMs;
    this.timer = this.clock.setTimeout(() => {
      this.current = this.run();
    }, delayMs);
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    this.running = true;
    try {
      await this.task();
    } catch {
      // The task reports its own failures; the loop must survive anything.
    } finally {
      this.running = false;
    }
    if (this.stopped) {
      return;
    }
    const delay = this.nextDelayMs();
    this.schedule(this.rerun ? 0 : delay);
    this.rerun = false;
  }
}

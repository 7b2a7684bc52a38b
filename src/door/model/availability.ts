// Whether a door's state can be trusted: Home shows "No Response" while the account cannot be read, the service reports it
// inactive, or no answer of the service has told its state for longer than the stale bound.

export interface AvailabilityDeps {
  now: () => number;
  /** How old a state may grow before it is not shown (docs/limits.md); undefined: no bound (the config cannot be read). */
  staleAfterMs?: () => number | undefined;
}

export class DoorAvailability {
  private accountReadable = true;
  private deviceActive = true;
  private doorActive = true;
  /** When the service last told the door's state; a cached state counts from the start, as the restart's news. */
  private toldAtMs: number;

  constructor(private readonly deps: AvailabilityDeps) {
    this.toldAtMs = deps.now();
  }

  /** Home shows "No Response" while this is false, rather than a state that may be stale. */
  get available(): boolean {
    return this.accountReadable && this.deviceActive && this.doorActive && !this.stale;
  }

  /** Read at each question, not on a timer: a door turns stale the moment its bound passes, and no timer runs for it. */
  get stale(): boolean {
    const boundMs = this.deps.staleAfterMs?.();
    return boundMs !== undefined && this.deps.now() - this.toldAtMs > boundMs;
  }

  /** The service told the door's state as of `atMs` (a sync's sending, a webhook's arrival). */
  told(atMs: number): void {
    this.toldAtMs = Math.max(this.toldAtMs, atMs);
  }

  /** The account could (not) be read: an outage makes every door unavailable, without a line per door. */
  setAccountReadable(readable: boolean): void {
    this.accountReadable = readable;
  }

  /** The active flags of a sync, for the door's controller and the door itself (ReportNotices says what changed, once per incident). */
  setActive(deviceActive: boolean, doorActive: boolean): void {
    this.deviceActive = deviceActive;
    this.doorActive = doorActive;
  }
}

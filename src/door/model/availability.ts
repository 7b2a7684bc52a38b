// Whether a door's state can be trusted: Home shows "No Response" while the account cannot be read or the service reports it inactive.
export class DoorAvailability {
  private accountReadable = true;
  private deviceActive = true;
  private doorActive = true;

  /** Home shows "No Response" while this is false, rather than a state that may be stale. */
  get available(): boolean {
    return this.accountReadable && this.deviceActive && this.doorActive;
  }

  /** The account could (not) be read: an outage makes every door unavailable, without a line per door. */
  setAccountReadable(readable: boolean): void {
    this.accountReadable = readable;
  }

  /** The active flags of a sync, for the door's controller and the door itself (DoorModel says what changed, once per incident). */
  setActive(deviceActive: boolean, doorActive: boolean): void {
    this.deviceActive = deviceActive;
    this.doorActive = doorActive;
  }
}

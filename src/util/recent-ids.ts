// A bounded memory of ids seen lately, so a repeated message is applied once without the memory growing forever.

export class RecentIds {
  private readonly order: string[] = [];
  private readonly seen = new Set<string>();

  constructor(readonly capacity: number) {}

  /** Whether `id` is remembered. */
  has(id: string): boolean {
    return this.seen.has(id);
  }

  /** Remembers `id`; returns false when it was already remembered. */
  add(id: string): boolean {
    if (this.seen.has(id)) {
      return false;
    }
    this.seen.add(id);
    this.order.push(id);
    if (this.order.length > this.capacity) {
      const oldest = this.order.shift();
      if (oldest !== undefined) {
        this.seen.delete(oldest);
      }
    }
    return true;
  }
}

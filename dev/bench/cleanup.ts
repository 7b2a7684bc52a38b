// A stack of clean-up steps (processes, servers, temp dirs) run newest first, each once, even when an earlier one fails.

export type CleanupStep = () => unknown;

interface Entry {
  what: string;
  run: CleanupStep;
}

export class Cleanup {
  private readonly entries: Entry[] = [];
  private readonly failures: string[] = [];

  /** Registers a step; the returned function runs it now (once) and drops it from the stack. */
  add(what: string, run: CleanupStep): () => Promise<void> {
    const entry: Entry = { what, run };
    this.entries.push(entry);
    return async () => {
      const index = this.entries.indexOf(entry);
      if (index >= 0) {
        this.entries.splice(index, 1);
        await this.runOne(entry);
      }
    };
  }

  /** Runs every remaining step, newest first; returns what failed ("what: why"), never throws. */
  async runAll(): Promise<string[]> {
    for (let entry = this.entries.pop(); entry !== undefined; entry = this.entries.pop()) {
      await this.runOne(entry);
    }
    return [...this.failures];
  }

  private async runOne(entry: Entry): Promise<void> {
    try {
      await entry.run();
    } catch (error) {
      this.failures.push(`${entry.what}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

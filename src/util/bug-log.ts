// Our own exceptions, logged as bugs: one error line with the stack per distinct bug. The log it is given takes the token
// and the webhook key out of each line as it leaves (src/util/redacting-log.ts).
import type { Logging } from 'homebridge';

/** Distinct bugs remembered so each is logged once; past this many, new ones are still logged (a long run cannot grow it). */
const REMEMBERED_BUGS = 20;

export class BugLog {
  private readonly seen = new Set<string>();

  constructor(private readonly log: Logging) {}

  /** Logs `error`, thrown by the plugin's own code while `doing` something, unless the same bug was logged already. */
  report(doing: string, error: unknown): void {
    const text = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
    if (this.seen.has(text)) {
      return;
    }
    if (this.seen.size < REMEMBERED_BUGS) {
      this.seen.add(text);
    }
    this.log.error(`A bug in the plugin while ${doing} (not a problem of the service; please report it with this line): ${text}`);
  }
}

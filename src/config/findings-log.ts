// What the platform block's reading says in Homebridge's log at start: the problems of a block that cannot run, the
// settings ignored, and the near misses and notes of one that runs.
import type { Logging } from 'homebridge';

import type { ConfigResult } from './index.js';
import { listForLog } from '../util/log-text.js';

/**
 * A block that cannot run lists every problem in one line; one that runs says each setting it ignores (a mistake in an
 * optional setting costs only that setting). Said before the same-account check, so a refused second block says them too.
 */
export function logConfigProblems(log: Logging, parsed: ConfigResult): void {
  if (!parsed.ok) {
    // Cached doors stay (automations survive a typo) and answer "No Response" until the config is fixed.
    log.error(`The configuration is not valid, so no door is synced until it is fixed: ${parsed.problems.join('; ')}.`);
    return;
  }
  for (const sentence of parsed.ignored) {
    log.error(`In the configuration, ${sentence}.`);
  }
}

/** A near miss read as what it nearly is, or a key the plugin does not know: said once, the doors still sync. Notes only in debug. */
export function logConfigAdvice(log: Logging, parsed: Extract<ConfigResult, { ok: true }>): void {
  for (const sentence of parsed.warnings) {
    log.warn(`In the configuration, ${sentence}.`);
  }
  const notes = parsed.notes;
  if (notes !== undefined) {
    log.debug(
      `In the configuration, ${listForLog(notes)} ${notes.length > 1 ? 'are notes: they name no door and change nothing' : 'is a note: it names no door and changes nothing'}.`,
    );
  }
}

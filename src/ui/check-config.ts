// What the plugin will make of the block the settings page is about to save: the plugin's own parser, and which doors it shows.
// It runs in the page itself (bundled with zod), so an edit asks the server nothing.
import { parseConfig } from '../config.js';
import { exclusionReason } from '../door/options.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../settings.js';
import { inPageWords } from './labels.js';
import type { AccountView, ConfigCheck } from './page/views.js';

/**
 * The parser's findings, each naming its fields by the page's labels ("Access token is required"). The doors "Sign in"
 * read (their ids, controllers and relationships are all the filters look at) give the count the entry would show.
 */
export function checkBlock(block: unknown, account: AccountView | undefined): ConfigCheck {
  const parsed = parseConfig(block);
  if (!parsed.ok) {
    return { problems: parsed.problems.map(inPageWords), ignored: [], shown: undefined, excluded: {} };
  }
  const ignored = parsed.ignored.map(inPageWords);
  const excluded: Record<string, string> = {};
  if (!account) {
    return { problems: [], ignored, shown: undefined, excluded };
  }
  for (const door of account.doors) {
    const reason = exclusionReason(parsed.config, door, door.controllerId);
    if (reason !== undefined) {
      excluded[door.id] = reason;
    }
  }
  const total = account.doors.length;
  const count = total - Object.keys(excluded).length;
  return { problems: [], ignored, shown: { count, total, limit: MAX_ACCESSORIES_PER_BRIDGE }, excluded };
}

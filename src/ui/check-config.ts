// What the plugin will make of the block the settings page is about to save: the plugin's own parser, and which doors it shows.
import type { Account } from '../client/types.js';
import { parseConfig } from '../config.js';
import { exclusionReason } from '../door/options.js';
import { MAX_ACCESSORIES_PER_BRIDGE } from '../settings.js';
import { inPageWords } from './labels.js';
import type { ConfigCheck } from './page/views.js';

/** The parser's findings, each naming its fields by the page's labels ("Access token is required"). */
export function checkBlock(block: unknown, account: Account | undefined): ConfigCheck {
  const parsed = parseConfig(block);
  if (!parsed.ok) {
    return { problems: parsed.problems.map(inPageWords), ignored: [], shown: undefined, excluded: {} };
  }
  const ignored = parsed.ignored.map(inPageWords);
  const excluded: Record<string, string> = {};
  if (!account) {
    return { problems: [], ignored, shown: undefined, excluded };
  }
  let total = 0;
  for (const device of account.devices) {
    for (const door of device.doors) {
      total += 1;
      const reason = exclusionReason(parsed.config, door, device.id);
      if (reason !== undefined) {
        excluded[door.id] = reason;
      }
    }
  }
  const count = total - Object.keys(excluded).length;
  return { problems: [], ignored, shown: { count, total, limit: MAX_ACCESSORIES_PER_BRIDGE }, excluded };
}

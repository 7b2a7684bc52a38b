// What the plugin will make of the block the settings page is about to save: the plugin's own parser, and which doors it shows.
// It runs in the page itself (bundled with zod), so an edit asks the server nothing.
import { parseConfig } from '../../config/index.js';
import { protectionFor } from '../../config/protection.js';
import { skeleton } from '../../util/skeleton.js';
import { canonicalId } from '../../util/canonical-id.js';
import { doorCap, shownDoors } from '../../registry/shown-doors.js';
import { inPageWords } from './labels.js';
import type { Finding } from '../../config/index.js';
import { isRecord } from '../../config/values.js';
import { doorsEditable, filterOnPage, keyFixes, readingOf, webhookEditable } from './block.js';
import type { IdList } from './block.js';
import type { AccountSummary, ConfigCheck, DoorSummary, KeptPart } from './messages.js';

const ID_LISTS: readonly IdList[] = ['includeDeviceIds', 'excludeDeviceIds', 'includeDoorIds', 'excludeDoorIds'];

/** Said when the parser has no sentence of its own for a part kept as written (a block it refused as a whole). */
const KEPT_AS_WRITTEN = 'This part of the settings is kept as written: the page cannot edit it here.';

/** Whether a finding is about the top-level `key`: by the path the parser gave it, not by its words. */
const isAbout =
  (key: string) =>
  (finding: Finding): boolean =>
    finding.path === key || finding.path.startsWith(`${key}.`);

/**
 * The parts of the block the page keeps exactly as written and offers no edit of (a webhook that is not a block, a
 * `doors` that is not a list, a filter that is not a list of ids), each with the parser's own sentences about it in the page's words.
 */
function keptParts(block: unknown, findings: readonly Finding[]): Map<KeptPart, string> {
  const kept = new Map<KeptPart, string>();
  if (!isRecord(block)) return kept;
  const about = (key: string): string =>
    findings
      .filter(isAbout(key))
      .map((finding) => inPageWords(finding.sentence))
      .join(' ') || KEPT_AS_WRITTEN;
  if (!webhookEditable(block)) kept.set('webhook', about('webhook'));
  if (!doorsEditable(block)) kept.set('doors', about('doors'));
  for (const key of ID_LISTS) {
    if (!filterOnPage(block, key).editable) kept.set(key, about(key));
  }
  return kept;
}

/** The doors under their controllers, as the service listed them: a door under two controllers is listed twice. */
function listings(doors: readonly DoorSummary[]): { id: string; doors: DoorSummary[] }[] {
  const byController = new Map<string, DoorSummary[]>();
  for (const door of doors) {
    const listed = byController.get(door.controllerId);
    if (listed) listed.push(door);
    else byController.set(door.controllerId, [door]);
  }
  return [...byController].map(([id, listed]) => ({ id, doors: listed }));
}

/**
 * The parser's findings on the block exactly as it will be saved, each naming its fields by the page's labels ("Access
 * token is required"). The doors "Sign in" read (their ids, controllers and relationships are all the filters look at)
 * give the count the entry would show.
 */
export function checkBlock(block: unknown, account: AccountSummary | undefined): ConfigCheck {
  // The page's own reading of a block it edits, shared with its controls; anything else is read here.
  const parsed = isRecord(block) ? readingOf(block) : parseConfig(block);
  const excluded = new Map<string, string>();
  if (!parsed.ok) {
    return {
      problems: parsed.problems.map(inPageWords),
      ignored: [],
      warnings: [],
      shown: undefined,
      excluded,
      kept: keptParts(block, []),
      ignoredKept: 0,
      fixes: isRecord(block) ? keyFixes(block) : [],
    };
  }
  const ignored = parsed.ignored.map(inPageWords);
  const warnings = parsed.warnings.map(inPageWords);
  const kept = keptParts(block, parsed.findings);
  const ignoredKept = parsed.findings.filter(
    (finding) => parsed.ignored.includes(finding.sentence) && [...kept.keys()].some((key) => isAbout(key)(finding)),
  ).length;
  const fixes = isRecord(block) ? keyFixes(block) : [];
  if (!account) {
    return { problems: [], ignored, warnings, shown: undefined, excluded, kept, ignoredKept, fixes };
  }
  // An id of a door entry or a filter that names no door exactly protects each door it could mean, and one that names
  // nothing protects nothing: said as the log says it (src/config/protection.ts).
  const protection = protectionFor(
    parsed.config,
    { doors: account.doors.map((door) => ({ id: door.id, deviceId: door.controllerId })) },
    skeleton,
  );
  warnings.push(...protection.findings.map((finding) => inPageWords(`${finding.sentence}.`)));
  // The plugin's own rule (src/registry/shown-doors.ts): a door listed under two controllers is shown once, and out
  // only when no listing lets it in; the count is before the bridge's cap, which the page states beside it.
  const rule = shownDoors({ devices: listings(account.doors) }, parsed.config, protection);
  for (const { door, reason } of rule.excluded) {
    excluded.set(door.id, reason);
  }
  // What the plugin applies to a door a setting could mean, or that another door's id reads as: shown on its row.
  const guarded = new Map<string, string>();
  for (const door of account.doors) {
    const why = protection.readOnly.get(canonicalId(door.id));
    if (why !== undefined) guarded.set(door.id, why);
  }
  // Each door once: the account lists a door under each of its controllers.
  const total = new Set(account.doors.map((door) => door.id)).size;
  const count = rule.overLimit ?? rule.shown.length;
  // The person sensors take their places first, as at runtime: the doors get what they leave.
  const shown = { count, total, limit: doorCap(parsed.config), people: parsed.config.people.length };
  // What Home would show, the cap's cut included: the page reads the activity of these doors only.
  const inHome = new Set(rule.shown.map(({ door }) => door.id));
  return { problems: [], ignored, warnings, shown, excluded, guarded, inHome, kept, ignoredKept, fixes };
}

// The ids of protective settings that name no door or controller of the account: a door entry, a filter, read when the
// whole account was read. Each is said (with the account's closest id when one is near), since an id that matches
// nothing protects nothing, and a door the user meant to keep closed would open without a word.
import type { Finding } from './findings.js';
import type { PluginConfig } from './index.js';
import { editDistance } from '../util/near-miss.js';
import { quotableId } from './values.js';
import { canonicalId } from '../util/canonical-id.js';

/** The account as the check needs it: the ids of its doors and of its controllers, as the service sends them. */
export interface AccountIds {
  doorIds: readonly string[];
  deviceIds: readonly string[];
}

/** Within this many edits an account id is offered as the one meant (a UUID with a character or two mistyped). */
const MAX_NEAR_EDITS = 3;

/** The account's id nearest `id`, when one is near enough to be the one meant. */
export function nearest(id: string, ids: readonly string[]): string | undefined {
  let best: { id: string; edits: number } | undefined;
  for (const candidate of ids) {
    const edits = editDistance(id, canonicalId(candidate), MAX_NEAR_EDITS);
    if (edits <= MAX_NEAR_EDITS && (best === undefined || edits < best.edits)) best = { id: candidate, edits };
  }
  return best?.id;
}

type Checked = Pick<
  PluginConfig,
  'doors' | 'includeDoorIds' | 'excludeDoorIds' | 'includeDeviceIds' | 'excludeDeviceIds' | 'accessToken' | 'webhook'
>;

/** One finding for each id of a door entry or a filter that names nothing in the account (in the order config.json has them). */
export function unmatchedIds(config: Checked, account: AccountIds): Finding[] {
  const doors = new Set(account.doorIds.map(canonicalId));
  const devices = new Set(account.deviceIds.map(canonicalId));
  const findings: Finding[] = [];
  // An id pasted from the wrong field may be the token: never quoted.
  const secrets = [config.accessToken, config.webhook?.apiKey];
  const say = (path: string, id: string, what: 'door' | 'controller', protects: string): void => {
    const shown = quotableId(id, secrets);
    if (shown === undefined) return;
    const near = nearest(id, what === 'door' ? account.doorIds : account.deviceIds);
    const hint = near === undefined ? '' : `; the account's closest ${what} id is ${quotableId(near) ?? 'not shown here'}`;
    findings.push({ path, sentence: `${path} names ${what} ${shown}, which the account does not have, so ${protects}${hint}` });
  };
  for (const entry of config.doors) {
    if (!doors.has(entry.id)) say('doors', entry.id, 'door', "that entry's settings apply to no door");
  }
  for (const id of config.excludeDoorIds) if (!doors.has(id)) say('excludeDoorIds', id, 'door', 'it keeps no door out');
  for (const id of config.includeDoorIds) if (!doors.has(id)) say('includeDoorIds', id, 'door', 'it lets no door in');
  for (const id of config.excludeDeviceIds) if (!devices.has(id)) say('excludeDeviceIds', id, 'controller', 'it keeps no door out');
  for (const id of config.includeDeviceIds) if (!devices.has(id)) say('includeDeviceIds', id, 'controller', 'it lets no door in');
  return findings;
}

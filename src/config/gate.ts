// The one gate every command to a door asks at the moment of the command (its target state, its automation switch,
// Matter): whether the settings let Home move it, read from the settings and the doors known now (the cache before the
// first sync, the last sync after), so protection holds from the first second, whatever the syncs answer.
import { canonicalId } from '../util/canonical-id.js';
import { doorOptions, exclusionReason, guardReason } from './door-options.js';
import type { PluginConfig } from './index.js';
import type { Protection } from './protection.js';

/** A door the plugin knows now: its id and controller as the service (or the cache) gave them. */
export interface KnownDoor {
  id: string;
  deviceId: string;
  /** Undefined where the cache holds it (it keeps no relationship): the owned-only filter then keeps it, never guesses. */
  relationship?: string;
}

/** What the gate reads: the settings, what their ids could mean, and the doors known now by canonical id. */
export interface GateView {
  /** Undefined: the settings could not be read, and no command is sent. */
  config: PluginConfig | undefined;
  protection: Protection;
  known: ReadonlyMap<string, KnownDoor>;
}

/** The reason a read-only door gives: its line is the one users know ("… is read-only in the plugin settings"). */
export const READ_ONLY_REFUSAL = 'it is read-only in the plugin settings';

/** The doors known now, keyed as the gate looks them up. */
export function knownDoorMap(doors: Iterable<KnownDoor>): Map<string, KnownDoor> {
  const known = new Map<string, KnownDoor>();
  // The first listing of a door wins, as the registry shows each door once under its first controller.
  for (const door of doors) {
    const key = canonicalId(door.id);
    if (!known.has(key)) known.set(key, door);
  }
  return known;
}

/**
 * Why a command to this door is refused, or undefined when the settings let it through: not known now, left out of Home
 * (hidden, excluded, filtered, or what an exclusion could mean), or read-only (written, or what a setting could mean).
 */
export function refusalFor(view: GateView, doorId: string): string | undefined {
  const { config, protection } = view;
  if (config === undefined) return 'the plugin settings cannot be read';
  const door = view.known.get(canonicalId(doorId));
  if (door === undefined) return 'the account, as last read, does not list it';
  const leftOut = exclusionReason(config, { id: door.id, relationship: door.relationship }, door.deviceId, protection);
  if (leftOut !== undefined) return `it is kept out of Home: ${leftOut}`;
  if (doorOptions(config, door.id, door.deviceId).readOnly) return READ_ONLY_REFUSAL;
  // Read-only though no setting of its own says so: the line names the setting that could mean it (guardReason).
  return guardReason(protection, door.id);
}

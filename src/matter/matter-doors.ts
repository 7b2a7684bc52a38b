// The doors on Matter (Homebridge 2.x, for Google Home and Alexa): the doors HomeKit shows, each registered as one
// bridged Matter device on every start (cached ones come back without handlers), removed when HomeKit removes it, and
// its state pushed to Matter whenever the door changes. Homebridge may refuse or throw at any call: each is tried again
// at the next sync, said once per incident, and a door no longer shown refuses every command meanwhile. What differs by
// mode (the face, the device type, the words) is one row of MATTER_FACES.
import { createHash } from 'node:crypto';

import type { API, Logging } from 'homebridge';

import { cut } from '../door/homekit-name.js';
import type { MatterMode } from '../option-catalog.js';
import {
  ACCESSORY_MANUFACTURER,
  ACCESSORY_MODEL,
  MATTER_MAX_STRING_LENGTH,
  MATTER_UPDATE_DEBUG_LOG_INTERVAL_MS,
  PLATFORM_NAME,
  PLUGIN_NAME,
} from '../settings.js';
import { LogRateLimit } from '../util/log-rate-limit.js';
import { oneLine } from '../util/log-text.js';
import { matterOnBridge } from './matter-api.js';
import type { MatterAccessory, MatterApi } from './matter-api.js';
import { MatterLockFace } from './lock-face.js';
import type { ClusterState, MatterDoor, MatterFace, MatterFaceDeps } from './matter-face.js';
import { MatterRefusals } from './refusals.js';
import { MatterSensorFace } from './sensor-face.js';

/** A door HomeKit shows, with the UUID its accessory has (the Matter device uses the same). */
export interface ShownDoor {
  uuid: string;
  door: MatterDoor;
}

export interface MatterDoorsDeps {
  api: API;
  log: Logging;
  /** `as-cached`: the setting could not be read, so the doors stay on Matter as the cache has them (none, if none is). */
  mode: MatterMode | 'as-cached';
  /** The plugin's clock (the time an incident began, in its log line); Date.now when not given. */
  now?: () => number;
}

/** One door on Matter. */
interface OnMatter {
  accessory: MatterAccessory;
  face: MatterFace;
  door: MatterDoor;
  stopFollowing: () => void;
  /** What was last pushed, by cluster, so a sync that changed nothing sends nothing. */
  pushed: Map<string, string>;
  /**
   * Where registration stands: asked, refused (asked again at the next sync), resolved (Homebridge may still be
   * registering), or pushed again after it.
   */
  registration: 'asked' | 'refused' | 'resolved' | 'settled';
  /** Homebridge restored the device from its cache: it is on the bridge whatever becomes of this run's registration. */
  restored: boolean;
  /**
   * The node label the plugin last gave the device (a controller may have given it another since, which stands): the
   * door's name is written again only when the plugin's own name for it changes.
   */
  label: string;
}

/** A device on its way off Matter, asked again at each sync until Homebridge takes it. */
interface Leaving {
  accessory: MatterAccessory;
  name: string;
  /** What the line that says it was removed adds (`: why`), or ''. */
  reason: string;
  /** The door's entry, whose registration may still be under way: its removal waits for Homebridge's answer. */
  entry: OnMatter | undefined;
  /** An unregistration is under way. */
  asked: boolean;
}

/** A mode of "Google Home and Alexa (Matter)" other than off. */
export type MatterShownAs = Exclude<MatterMode, 'off'>;

/** Everything about one Matter mode. */
export interface MatterModeSpec {
  /** The face: the door's state as the device type's clusters, and its command handlers. */
  Face: new (deps: MatterFaceDeps) => MatterFace;
  /** What the doors are called in the log: "Added 3 doors to Matter (Google Home, Alexa) as contact sensors." */
  words: string;
  /** The device type: its key in api.matter.deviceTypes, and the name a cached device of the mode carries. */
  deviceType: keyof MatterApi['deviceTypes'];
  /** The cluster a cached device of the mode holds its state in (a device cached without its device type's name). */
  cachedCluster: string;
}

/** One row per Matter mode: a mode without a row, or a row of no mode, does not compile. */
export type MatterModeTable = Readonly<Record<MatterShownAs, MatterModeSpec>>;

/** The Matter modes, in the order a cached device is recognised (one that could be read as both is a lock). */
export const MATTER_FACES: MatterModeTable = {
  locks: { Face: MatterLockFace, words: 'locks', deviceType: 'DoorLock', cachedCluster: 'doorLock' },
  sensors: { Face: MatterSensorFace, words: 'contact sensors', deviceType: 'ContactSensor', cachedCluster: 'booleanState' },
};

/** Hex digits of the digest that keeps a cut serial number apart from another id's. */
const SERIAL_DIGEST_CHARS = 8;

/** Where a device's context keeps the node label the plugin last gave it, across restarts (Homebridge caches the context). */
const LABEL_KEY = 'label';
/** Where a device's context keeps the mode it was registered in, for a start whose Matter setting cannot be read. */
const MODE_KEY = 'mode';

/**
 * The mode the cached devices were registered in: as their context says, else as their device type or clusters show
 * (a device cached before the context kept it). Undefined: no cached device, or none that tells.
 */
export function modeOfCached(devices: readonly MatterAccessory[]): MatterShownAs | undefined {
  const all = Object.keys(MATTER_FACES) as MatterShownAs[];
  const modes = devices.map((device): MatterShownAs | undefined => {
    const context: unknown = device.context;
    const kept = typeof context === 'object' && context !== null ? (context as Record<string, unknown>)[MODE_KEY] : undefined;
    const named = all.find((mode) => mode === kept);
    if (named !== undefined) return named;
    const type = (device.deviceType as { name?: unknown } | undefined)?.name;
    const clusters = Object.keys((device as { clusters?: object }).clusters ?? {});
    return all.find((mode) => type === MATTER_FACES[mode].deviceType || clusters.includes(MATTER_FACES[mode].cachedCluster));
  });
  return modes.find((mode) => mode !== undefined);
}

/** A Matter name (node label) holds 32 characters: cut between two characters as the user sees them, never in one. */
export function matterName(name: string): string {
  return cut(oneLine(name), MATTER_MAX_STRING_LENGTH).trimEnd() || '-';
}

/**
 * The door's id as the device's serial number, which Matter caps at 32 characters too: the id itself when it fits, else
 * without its dashes (a UUID then fits exactly), else cut with a digest of the whole, so two ids never share one.
 */
export function matterSerial(doorId: string): string {
  const id = oneLine(doorId);
  if (id.length <= MATTER_MAX_STRING_LENGTH) return id || '-';
  const compact = id.replace(/-/g, '');
  if (compact.length <= MATTER_MAX_STRING_LENGTH) return compact;
  const digest = createHash('sha256').update(id).digest('hex').slice(0, SERIAL_DIGEST_CHARS);
  return `${cut(compact, MATTER_MAX_STRING_LENGTH - SERIAL_DIGEST_CHARS - 1)}~${digest}`;
}

/**
 * The node label the plugin last gave a device Homebridge restored: kept in its context; a device cached before the
 * plugin kept it there was registered with it as its name. undefined for a device not in the cache.
 */
function labelGiven(cached: MatterAccessory | undefined): string | undefined {
  const context: unknown = cached?.context;
  const kept: unknown = typeof context === 'object' && context !== null ? (context as Record<string, unknown>)[LABEL_KEY] : undefined;
  if (typeof kept === 'string') return kept;
  return typeof cached?.displayName === 'string' ? cached.displayName : undefined;
}

/** One door by its name, or several by their count (a batch of a whole account would not fit one line). */
function doorsForLog(names: readonly string[]): string {
  return names.length === 1 ? oneLine(names[0] ?? '') : `${names.length} doors`;
}

/** A call into Homebridge as a promise, also when it throws at once: nothing of Matter may break the HomeKit side. */
function settle(call: () => Promise<void>): Promise<void> {
  try {
    return call();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

export class MatterDoors {
  private readonly matter: MatterApi | undefined;
  private mode: MatterShownAs | undefined;
  /** The mode is to be read from the cached devices, at the first follow (they are handed over after the constructor). */
  private modeAsCached: boolean;
  /** Matter devices Homebridge restored from its cache (configureMatterAccessory), by UUID, until a complete sync decides. */
  private readonly cached = new Map<string, MatterAccessory>();
  private readonly onMatter = new Map<string, OnMatter>();
  /** Devices of doors no longer shown that Homebridge has not removed yet, by UUID (a door in it is not added again). */
  private readonly leaving = new Map<string, Leaving>();
  /** Set when the bridge turns out not to run Matter after all: nothing more is tried. */
  private stopped = false;
  private readonly registerRefusals: MatterRefusals;
  private readonly unregisterRefusals: MatterRefusals;
  /** Refused state updates, at debug level: at most one line per interval, with the count held back. */
  private readonly updateRefusals: LogRateLimit;

  constructor(private readonly deps: MatterDoorsDeps) {
    const now = deps.now ?? Date.now;
    this.registerRefusals = new MatterRefusals(deps.log, now);
    this.unregisterRefusals = new MatterRefusals(deps.log, now);
    this.updateRefusals = new LogRateLimit(MATTER_UPDATE_DEBUG_LOG_INTERVAL_MS, now);
    const onBridge = matterOnBridge(deps.api);
    this.mode = deps.mode === 'off' || deps.mode === 'as-cached' ? undefined : deps.mode;
    this.modeAsCached = deps.mode === 'as-cached';
    this.matter = onBridge.kind === 'on' ? onBridge.matter : undefined;
    if (this.mode !== undefined && onBridge.kind === 'off') {
      this.sayMatterOff();
    } else if (onBridge.kind === 'no-answer' && (this.mode !== undefined || this.modeAsCached)) {
      const why = `Homebridge could not say whether this bridge runs Matter (${oneLine(onBridge.message)})`;
      deps.log.warn(
        this.mode !== undefined
          ? `"Google Home and Alexa (Matter)" is set to ${this.mode}, but ${why}, so the doors are on HomeKit only. Restart Homebridge; if it stays, report it to Homebridge.`
          : `${why}, so the doors on Matter are left as they are. Restart Homebridge; if it stays, report it to Homebridge.`,
      );
    } else if (this.mode !== undefined && onBridge.kind === 'unknown-shape') {
      deps.log.error(
        `"Google Home and Alexa (Matter)" is set to ${this.mode}, but this Homebridge's Matter API is not the one the plugin knows (Homebridge 2.4), so the doors are on HomeKit only. Update the plugin.`,
      );
    }
  }

  /** Homebridge hands over each Matter device of its cache before didFinishLaunching (configureMatterAccessory). */
  fromCache(accessory: unknown): void {
    const uuid = (accessory as { UUID?: unknown } | undefined)?.UUID;
    if (typeof uuid === 'string') {
      this.cached.set(uuid, accessory as MatterAccessory);
    }
  }

  /**
   * The doors HomeKit shows now (after the cache is taken over, and after each sync). New ones are registered, gone ones
   * removed. `complete`: a complete sync decided them, so cached Matter devices of doors no longer shown leave too.
   */
  follow(doors: ShownDoor[], complete: boolean): void {
    const matter = this.matter;
    if (!matter || this.stopped) {
      return;
    }
    if (this.modeAsCached) {
      this.modeAsCached = false;
      this.mode = modeOfCached([...this.cached.values()]);
      if (this.mode === undefined && this.cached.size > 0) {
        // Devices whose mode cannot be told: left as they are rather than removed on a guess.
        this.deps.log.warn(
          `The Matter setting cannot be read and the ${this.cached.size} doors on Matter do not say how they were added, so they are left as they are until it is fixed.`,
        );
        this.stopped = true;
        return;
      }
    }
    if (this.mode === undefined) {
      // Matter runs on the bridge but the plugin's Matter is off: its devices left there would answer nothing.
      if (complete) this.removeCached('Google Home and Alexa (Matter) is off in the plugin settings');
      this.removeLeaving(matter);
      return;
    }
    const wanted = new Map(doors.map((shown) => [shown.uuid, shown.door]));
    for (const [uuid, entry] of this.onMatter) {
      if (!wanted.has(uuid)) this.leave(entry);
    }
    // A door shown again before Homebridge removed its device waits for the removal: one registration per UUID at a time.
    for (const [uuid, door] of wanted) {
      if (!this.onMatter.has(uuid) && !this.leaving.has(uuid)) this.add(matter, this.mode, uuid, door);
    }
    // New doors, and those whose registration Homebridge refused: each keeps the label its device carries meanwhile.
    const toRegister = [...this.onMatter.values()].filter((entry) => entry.registration === 'refused');
    if (toRegister.length > 0) {
      this.register(matter, toRegister);
    }
    if (complete) {
      this.removeCached('the door is no longer shown');
    }
    this.removeLeaving(matter);
    // Homebridge registers after its promise resolves and drops a push to a device it has not registered yet: the
    // state is pushed once more at the next sync after registration.
    for (const entry of this.onMatter.values()) {
      if (entry.registration === 'resolved') {
        entry.registration = 'settled';
        this.push(entry, true);
      }
    }
  }

  /** Stops following the doors (Homebridge is shutting down). */
  dispose(): void {
    for (const entry of this.onMatter.values()) {
      entry.stopFollowing();
    }
  }

  private add(matter: MatterApi, mode: MatterShownAs, uuid: string, door: MatterDoor): OnMatter {
    const label = matterName(door.name);
    // A device Homebridge restored keeps the node label it had (the door may have been renamed since); a new one takes `label`.
    const cached = this.cached.get(uuid);
    const given = labelGiven(cached) ?? label;
    const spec = MATTER_FACES[mode];
    const face: MatterFace = new spec.Face({
      matter,
      hap: this.deps.api.hap,
      door,
      settled: () => setImmediate(() => this.push(entry, true)),
      // Whatever Homebridge did with the device, a door no longer shown takes no command.
      shown: () => this.onMatter.get(uuid) === entry,
    });
    const state = face.state();
    const accessory: MatterAccessory = {
      UUID: uuid,
      displayName: label,
      deviceType: matter.deviceTypes[spec.deviceType],
      serialNumber: matterSerial(door.doorId),
      manufacturer: ACCESSORY_MANUFACTURER,
      model: ACCESSORY_MODEL,
      // The label the device carries, until it carries the new one (`labelled`): a restart before then sends it again.
      context: { doorId: door.doorId, [LABEL_KEY]: given, [MODE_KEY]: mode },
      // Registration resolves before Homebridge registers: the state a controller first reads must be the true one.
      clusters: { [state.cluster]: { ...face.fixed(), ...state.attributes } },
      ...(face.handlers ? { handlers: face.handlers } : {}),
    };
    const entry: OnMatter = {
      accessory,
      face,
      door,
      stopFollowing: () => undefined,
      pushed: new Map(),
      // Not asked yet: follow() asks for it with the others.
      registration: 'refused',
      restored: cached !== undefined,
      label: given,
    };
    entry.stopFollowing = door.onChange(() => this.push(entry, false));
    this.onMatter.set(uuid, entry);
    this.cached.delete(uuid);
    return entry;
  }

  /** Every door in one batch, every start: Homebridge attaches the handlers to the devices it restored from its cache. */
  private register(matter: MatterApi, entries: OnMatter[]): void {
    const accessories = entries.map((entry) => entry.accessory);
    for (const entry of entries) {
      entry.registration = 'asked';
    }
    settle(() => matter.registerPlatformAccessories(PLUGIN_NAME, PLATFORM_NAME, accessories)).then(
      () => {
        this.deps.log.info(
          `Added ${doorsForLog(entries.map((entry) => entry.door.name))} to Matter (Google Home, Alexa) as ${MATTER_FACES[this.mode ?? 'locks'].words}${this.registerRefusals.taken()}.`,
        );
        // A restored device keeps its cached values over `clusters`: the true state now (and at the next sync, see follow).
        for (const entry of entries) {
          entry.registration = 'resolved';
          this.push(entry, true);
        }
      },
      (error: unknown) => this.registrationFailed(entries, error),
    );
  }

  /** The entries stay, with the label their devices carry, and are asked for again at the next sync. */
  private registrationFailed(entries: OnMatter[], error: unknown): void {
    for (const entry of entries) {
      entry.registration = 'refused';
      // A door that left meanwhile: a device never registered and not restored is not on the bridge, nothing to remove.
      const leaving = this.leaving.get(entry.accessory.UUID);
      if (leaving?.entry === entry && !entry.restored) this.leaving.delete(entry.accessory.UUID);
    }
    const message = error instanceof Error ? error.message : String(error);
    // Homebridge 2 offers api.matter on the main bridge when only a child bridge runs Matter.
    if (message.includes('not enabled for this bridge')) {
      this.stopped = true;
      this.sayMatterOff();
      return;
    }
    this.registerRefusals.refused(
      `Could not add ${doorsForLog(entries.map((entry) => entry.door.name))} to Matter: ${oneLine(message)}. Trying again at each sync; said again once it works.`,
    );
  }

  /** The door is no longer shown: its device leaves Matter, and refuses every command until Homebridge has removed it. */
  private leave(entry: OnMatter): void {
    entry.stopFollowing();
    this.onMatter.delete(entry.accessory.UUID);
    if (entry.registration === 'refused' && !entry.restored) {
      return;
    }
    this.leaving.set(entry.accessory.UUID, { accessory: entry.accessory, name: entry.door.name, reason: '', entry, asked: false });
  }

  /** Cached Matter devices no door took over: without handlers they answer nothing, so they leave. */
  private removeCached(reason: string): void {
    for (const accessory of this.cached.values()) {
      this.leaving.set(accessory.UUID, { accessory, name: accessory.displayName, reason: `: ${reason}`, entry: undefined, asked: false });
    }
    this.cached.clear();
  }

  /** Asks Homebridge to remove every leaving device not being removed already; said removed only once it is. */
  private removeLeaving(matter: MatterApi): void {
    const ready = [...this.leaving.values()].filter((leaving) => !leaving.asked && leaving.entry?.registration !== 'asked');
    for (const reason of new Set(ready.map((leaving) => leaving.reason))) {
      const batch = ready.filter((leaving) => leaving.reason === reason);
      for (const leaving of batch) leaving.asked = true;
      const names = batch.map((leaving) => oneLine(leaving.name)).join(', ');
      settle(() =>
        matter.unregisterPlatformAccessories(
          PLUGIN_NAME,
          PLATFORM_NAME,
          batch.map((leaving) => leaving.accessory),
        ),
      ).then(
        () => {
          for (const leaving of batch) {
            if (this.leaving.get(leaving.accessory.UUID) === leaving) this.leaving.delete(leaving.accessory.UUID);
          }
          this.deps.log.info(`Removed ${names} from Matter${reason}${this.unregisterRefusals.taken()}.`);
        },
        (error: unknown) => {
          for (const leaving of batch) leaving.asked = false;
          const [it, refuses] = batch.length === 1 ? ['it is', 'it refuses'] : ['they are', 'they refuse'];
          this.unregisterRefusals.refused(
            `Could not remove ${names} from Matter: ${oneLine(error instanceof Error ? error.message : String(error))}. Until ${it} removed ${refuses} every command; trying again at each sync.`,
          );
        },
      );
    }
  }

  /** The door's state and reachability to Matter; `force` also sends what seems sent already (Homebridge may differ). */
  private push(entry: OnMatter, force: boolean): void {
    const matter = this.matter;
    // Homebridge sets lockState itself when a command's handler resolves, and the command holds the device meanwhile:
    // the state follows once it has ended (the face's `settled`).
    if (!matter || this.stopped || this.onMatter.get(entry.accessory.UUID) !== entry || entry.face.busy) {
      return;
    }
    const state = entry.face.state();
    // A door whose state may be stale, or was never known (a contact sensor cannot say "unknown"), shows unreachable,
    // as HomeKit shows No Response.
    const info: Record<string, unknown> = { reachable: entry.door.available && entry.door.stateKnown };
    // Renamed (in the account, the settings or the Home app) since the device got its label: the new name, once
    // Homebridge has the device (it drops updates before), as a controller reads it in the Matter device's information.
    const label = matterName(entry.door.name);
    const relabel = label !== entry.label && (entry.registration === 'resolved' || entry.registration === 'settled');
    if (relabel) info.nodeLabel = label;
    const parts: (ClusterState & { taken?: () => void })[] = [
      state,
      {
        cluster: matter.clusterNames.BridgedDeviceBasicInformation,
        attributes: info,
        taken: relabel ? () => this.labelled(entry, label) : undefined,
      },
    ];
    for (const { cluster, attributes, taken } of parts) {
      const text = JSON.stringify(attributes);
      if (!force && entry.pushed.get(cluster) === text) {
        continue;
      }
      entry.pushed.set(cluster, text);
      settle(() => matter.updateAccessoryState(entry.accessory.UUID, cluster, attributes)).then(
        () => taken?.(),
        (error: unknown) => {
          // Not sent after all: the next push sends it again, even if nothing changed by then.
          if (entry.pushed.get(cluster) === text) entry.pushed.delete(cluster);
          const held = this.updateRefusals.take();
          if (held !== undefined) {
            const more = held > 0 ? ` (${held} more refused since the last such line)` : '';
            const reason = oneLine(error instanceof Error ? error.message : String(error)).replace(/\.$/, '');
            this.deps.log.debug(`Matter did not take the state of ${entry.door.name}: ${reason}${more}.`);
          }
        },
      );
    }
  }

  /** The device carries `label` now; its context (which Homebridge caches) keeps it for the next start. */
  private labelled(entry: OnMatter, label: string): void {
    entry.label = label;
    entry.accessory.context[LABEL_KEY] = label;
    // The rename itself is logged by the door (quietly once the account keeps renaming it).
    this.deps.log.debug(`${entry.door.name}: the Matter device carries the new name.`);
  }

  /**
   * The one line when the plugin's Matter is on but the bridge it runs on does not run Matter. It names both places:
   * Homebridge (1.11 and 2.4 alike) deletes `_bridge` from a child bridge's copy of the platform's config, so the
   * plugin cannot tell a child bridge from the main one.
   */
  private sayMatterOff(): void {
    this.deps.log.warn(
      `"Google Home and Alexa (Matter)" is set to ${this.mode ?? 'off'}, but the bridge this plugin runs on does not run Matter, so the doors are on HomeKit only. It needs Homebridge 2 with Matter turned on for that bridge, then a restart: on a child bridge, in the Homebridge UI the plugin's bridge settings (config.json: "matter": { "port": 5541 } in this platform's "_bridge" block); on the main bridge, "matter": { "port": 5540 } in the "bridge" block.`,
    );
  }
}

// The bridged Matter devices of one kind (the doors, or the people): each registered on every start (cached ones come back
// without handlers), removed once it is no longer wanted, its state pushed whenever it changes, and its name when it is
// renamed. Homebridge may refuse or throw at any call: each is tried again at the next follow, said once per incident
// (the refusals are shared by the kinds on one bridge), and a device no longer wanted refuses every command meanwhile.
import type { Logging } from 'homebridge';

import { cut } from '../util/homekit-name.js';
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
import type { MatterAccessory, MatterApi } from './matter-api.js';
import type { ClusterState, MatterFace } from './matter-face.js';
import { MatterRefusals } from './refusals.js';

/** What one device shows: a door, or a person. `name` and `reachable` are read at each push, the rest once. */
export interface MatterSubject {
  /** The name the plugin gives the device now: its node label follows it. */
  readonly name: string;
  /** false: a controller shows the device unreachable. */
  readonly reachable: boolean;
  readonly face: MatterFace;
  /** The device type, as api.matter.deviceTypes holds it. */
  readonly deviceType: unknown;
  /** At most 32 characters (matterSerial). */
  readonly serialNumber: string;
  /** What the device's context keeps besides its label: whose device it is. */
  readonly context: Record<string, unknown>;
  /** Calls `listener` whenever what the device shows may have changed; returns the way to stop. */
  onChange(listener: () => void): () => void;
}

/** What a subject's face may call back. */
export interface MatterSubjectHooks {
  /** A controller's command ended, however: the truth is pushed after what Homebridge set by itself. */
  settled: () => void;
  /** false once the device is no longer wanted: it may stay on the bridge a while, but takes no command. */
  shown: () => boolean;
}

/** The subject of a device wanted now, made once when its device is added. */
export type MakeSubject = (hooks: MatterSubjectHooks) => MatterSubject;

/** One device on Matter. */
interface OnMatter {
  accessory: MatterAccessory;
  subject: MatterSubject;
  stopFollowing: () => void;
  /** What was last pushed, by cluster, so a follow that changed nothing sends nothing. */
  pushed: Map<string, string>;
  /**
   * Where registration stands: asked, refused (asked again at the next follow), resolved (Homebridge may still be
   * registering), or pushed again after it.
   */
  registration: 'asked' | 'refused' | 'resolved' | 'settled';
  /** Homebridge restored the device from its cache: it is on the bridge whatever becomes of this run's registration. */
  restored: boolean;
  /**
   * The node label the plugin last gave the device (a controller may have given it another since, which stands): the
   * name is written again only when the plugin's own name for it changes.
   */
  label: string;
}

/** A device on its way off Matter, asked again at each follow until Homebridge takes it. */
interface Leaving {
  accessory: MatterAccessory;
  name: string;
  /** What the line that says it was removed adds (`: why`), or ''. */
  reason: string;
  /** The device's entry, whose registration may still be under way: its removal waits for Homebridge's answer. */
  entry: OnMatter | undefined;
  /** An unregistration is under way. */
  asked: boolean;
}

/** Where a device's context keeps the node label the plugin last gave it, across restarts (Homebridge caches the context). */
const LABEL_KEY = 'label';

/** A Matter name (node label) holds 32 characters: cut between two characters as the user sees them, never in one. */
export function matterName(name: string): string {
  return cut(oneLine(name), MATTER_MAX_STRING_LENGTH).trimEnd() || '-';
}

/** The context of a device Homebridge handed over, as a record (empty when it has none). */
export function contextOf(device: unknown): Record<string, unknown> {
  const context: unknown = (device as { context?: unknown } | undefined)?.context;
  return typeof context === 'object' && context !== null ? (context as Record<string, unknown>) : {};
}

/**
 * The node label the plugin last gave a device Homebridge restored: kept in its context; a device cached before the
 * plugin kept it there was registered with it as its name. undefined for a device not in the cache.
 */
function labelGiven(cached: MatterAccessory | undefined): string | undefined {
  const kept = contextOf(cached)[LABEL_KEY];
  if (typeof kept === 'string') return kept;
  return typeof cached?.displayName === 'string' ? cached.displayName : undefined;
}

/** A call into Homebridge as a promise, also when it throws at once: nothing of Matter may break the HomeKit side. */
function settle(call: () => Promise<void>): Promise<void> {
  try {
    return call();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

const messageOf = (error: unknown): string => oneLine(error instanceof Error ? error.message : String(error));

/**
 * What the kinds of device on one bridge share: Homebridge's refusals, said once per incident whichever kind met them,
 * and the stop once the bridge turns out not to run Matter after all.
 */
export class MatterBridgeCalls {
  readonly registerRefusals: MatterRefusals;
  readonly unregisterRefusals: MatterRefusals;
  /** Refused state updates, at debug level: at most one line per interval, with the count held back. */
  readonly updateRefusals: LogRateLimit;
  private stoppedNow = false;

  constructor(
    readonly matter: MatterApi,
    readonly log: Logging,
    now: () => number,
    /** Says that the bridge does not run Matter (once). */
    private readonly sayOff: () => void,
  ) {
    this.registerRefusals = new MatterRefusals(log, now);
    this.unregisterRefusals = new MatterRefusals(log, now);
    this.updateRefusals = new LogRateLimit(MATTER_UPDATE_DEBUG_LOG_INTERVAL_MS, now);
  }

  get stopped(): boolean {
    return this.stoppedNow;
  }

  /** Nothing more is tried on this bridge; `say`: the line that says why (once). */
  stop(say: boolean): void {
    if (this.stoppedNow) return;
    this.stoppedNow = true;
    if (say) this.sayOff();
  }
}

/** How the log names a kind: "3 doors" and "as locks", or "2 people" and "as occupancy sensors". */
export interface MatterKind {
  plural: string;
  /** Read at each line: the doors' mode may be read from the cache after the constructor. */
  words: () => string;
}

export class MatterDevices {
  /** Devices of this kind Homebridge restored from its cache (configureMatterAccessory), by UUID, until a follow decides. */
  private readonly cached = new Map<string, MatterAccessory>();
  private readonly onMatter = new Map<string, OnMatter>();
  /** Devices no longer wanted that Homebridge has not removed yet, by UUID (one in it is not added again). */
  private readonly leaving = new Map<string, Leaving>();

  constructor(
    private readonly calls: MatterBridgeCalls,
    private readonly kind: MatterKind,
  ) {}

  fromCache(accessory: MatterAccessory): void {
    this.cached.set(accessory.UUID, accessory);
  }

  /** The cached devices no follow has decided yet. */
  get cachedDevices(): MatterAccessory[] {
    return [...this.cached.values()];
  }

  /**
   * The devices wanted now, by UUID: new ones are registered (with those refused before), gone ones removed.
   * `cachedReason`: cached devices none of them took over leave too, the line saying why; undefined: they stay as they are.
   */
  follow(wanted: ReadonlyMap<string, MakeSubject>, cachedReason: string | undefined): void {
    const { matter } = this.calls;
    if (this.calls.stopped) return;
    for (const [uuid, entry] of this.onMatter) {
      if (!wanted.has(uuid)) this.leave(entry);
    }
    // One shown again before Homebridge removed its device waits for the removal: one registration per UUID at a time.
    for (const [uuid, make] of wanted) {
      if (!this.onMatter.has(uuid) && !this.leaving.has(uuid)) this.add(matter, uuid, make);
    }
    // New devices, and those whose registration Homebridge refused: each keeps the label it carries meanwhile.
    const toRegister = [...this.onMatter.values()].filter((entry) => entry.registration === 'refused');
    if (toRegister.length > 0) {
      this.register(matter, toRegister);
    }
    if (cachedReason !== undefined) {
      this.removeCached(cachedReason);
    }
    this.removeLeaving(matter);
    // Homebridge registers after its promise resolves and drops a push to a device it has not registered yet: the
    // state is pushed once more at the next follow after registration.
    for (const entry of this.onMatter.values()) {
      if (entry.registration === 'resolved') {
        entry.registration = 'settled';
        this.push(entry, true);
      }
    }
  }

  /** Stops following the subjects (Homebridge is shutting down). */
  dispose(): void {
    for (const entry of this.onMatter.values()) {
      entry.stopFollowing();
    }
  }

  private add(matter: MatterApi, uuid: string, make: MakeSubject): void {
    // A device Homebridge restored keeps the node label it had (renamed since or not); a new one takes the name.
    const cached = this.cached.get(uuid);
    const hooks: MatterSubjectHooks = {
      settled: () => setImmediate(() => this.push(entry, true)),
      shown: () => this.onMatter.get(uuid) === entry,
    };
    const subject = make(hooks);
    const label = matterName(subject.name);
    const given = labelGiven(cached) ?? label;
    const state = subject.face.state();
    const accessory: MatterAccessory = {
      UUID: uuid,
      displayName: label,
      deviceType: subject.deviceType,
      serialNumber: subject.serialNumber,
      manufacturer: ACCESSORY_MANUFACTURER,
      model: ACCESSORY_MODEL,
      // The label the device carries, until it carries the new one (`labelled`): a restart before then sends it again.
      context: { ...subject.context, [LABEL_KEY]: given },
      // Registration resolves before Homebridge registers: the state a controller first reads must be the true one.
      clusters: { [state.cluster]: { ...subject.face.fixed(), ...state.attributes } },
      ...(subject.face.handlers ? { handlers: subject.face.handlers } : {}),
    };
    const entry: OnMatter = {
      accessory,
      subject,
      stopFollowing: () => undefined,
      pushed: new Map(),
      // Not asked yet: follow() asks for it with the others.
      registration: 'refused',
      restored: cached !== undefined,
      label: given,
    };
    entry.stopFollowing = subject.onChange(() => this.push(entry, false));
    this.onMatter.set(uuid, entry);
    this.cached.delete(uuid);
  }

  /** One name, or the count (a batch of a whole account would not fit one line). */
  private forLog(names: readonly string[]): string {
    return names.length === 1 ? oneLine(names[0] ?? '') : `${names.length} ${this.kind.plural}`;
  }

  /** Every device in one batch, every start: Homebridge attaches the handlers to the devices it restored from its cache. */
  private register(matter: MatterApi, entries: OnMatter[]): void {
    const accessories = entries.map((entry) => entry.accessory);
    for (const entry of entries) {
      entry.registration = 'asked';
    }
    settle(() => matter.registerPlatformAccessories(PLUGIN_NAME, PLATFORM_NAME, accessories)).then(
      () => {
        this.calls.log.info(
          `Added ${this.forLog(entries.map((entry) => entry.subject.name))} to Matter (Google Home, Alexa) as ${this.kind.words()}${this.calls.registerRefusals.taken()}.`,
        );
        // A restored device keeps its cached values over `clusters`: the true state now (and at the next follow).
        for (const entry of entries) {
          entry.registration = 'resolved';
          this.push(entry, true);
        }
      },
      (error: unknown) => this.registrationFailed(entries, error),
    );
  }

  /** The entries stay, with the label their devices carry, and are asked for again at the next follow. */
  private registrationFailed(entries: OnMatter[], error: unknown): void {
    for (const entry of entries) {
      entry.registration = 'refused';
      // One that left meanwhile: a device never registered and not restored is not on the bridge, nothing to remove.
      const leaving = this.leaving.get(entry.accessory.UUID);
      if (leaving?.entry === entry && !entry.restored) this.leaving.delete(entry.accessory.UUID);
    }
    const message = messageOf(error);
    // Homebridge 2 offers api.matter on the main bridge when only a child bridge runs Matter.
    if (message.includes('not enabled for this bridge')) {
      this.calls.stop(true);
      return;
    }
    this.calls.registerRefusals.refused(
      `Could not add ${this.forLog(entries.map((entry) => entry.subject.name))} to Matter: ${message}. Trying again at each sync; said again once it works.`,
    );
  }

  /** No longer wanted: the device leaves Matter, and refuses every command until Homebridge has removed it. */
  private leave(entry: OnMatter): void {
    entry.stopFollowing();
    this.onMatter.delete(entry.accessory.UUID);
    if (entry.registration === 'refused' && !entry.restored) {
      return;
    }
    this.leaving.set(entry.accessory.UUID, { accessory: entry.accessory, name: entry.subject.name, reason: '', entry, asked: false });
  }

  /** Cached devices no subject took over: without handlers they answer nothing, so they leave. */
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
          this.calls.log.info(`Removed ${names} from Matter${reason}${this.calls.unregisterRefusals.taken()}.`);
        },
        (error: unknown) => {
          for (const leaving of batch) leaving.asked = false;
          const [it, refuses] = batch.length === 1 ? ['it is', 'it refuses'] : ['they are', 'they refuse'];
          this.calls.unregisterRefusals.refused(
            `Could not remove ${names} from Matter: ${messageOf(error)}. Until ${it} removed ${refuses} every command; trying again at each sync.`,
          );
        },
      );
    }
  }

  /** The subject's state and reachability to Matter; `force` also sends what seems sent already (Homebridge may differ). */
  private push(entry: OnMatter, force: boolean): void {
    const { matter } = this.calls;
    // Homebridge sets a state itself when a command's handler resolves, and the command holds the device meanwhile:
    // the state follows once it has ended (the hooks' `settled`).
    if (this.calls.stopped || this.onMatter.get(entry.accessory.UUID) !== entry || entry.subject.face.busy) {
      return;
    }
    const { subject } = entry;
    const info: Record<string, unknown> = { reachable: subject.reachable };
    // Renamed since the device got its label: the new name, once Homebridge has the device (it drops updates before),
    // as a controller reads it in the Matter device's information.
    const label = matterName(subject.name);
    const relabel = label !== entry.label && (entry.registration === 'resolved' || entry.registration === 'settled');
    if (relabel) info.nodeLabel = label;
    const parts: (ClusterState & { taken?: () => void })[] = [
      subject.face.state(),
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
          const held = this.calls.updateRefusals.take();
          if (held !== undefined) {
            const more = held > 0 ? ` (${held} more refused since the last such line)` : '';
            this.calls.log.debug(`Matter did not take the state of ${subject.name}: ${messageOf(error).replace(/\.$/, '')}${more}.`);
          }
        },
      );
    }
  }

  /** The device carries `label` now; its context (which Homebridge caches) keeps it for the next start. */
  private labelled(entry: OnMatter, label: string): void {
    entry.label = label;
    entry.accessory.context[LABEL_KEY] = label;
    // The rename itself is logged by the door or the person (quietly once the account keeps renaming a door).
    this.calls.log.debug(`${entry.subject.name}: the Matter device carries the new name.`);
  }
}

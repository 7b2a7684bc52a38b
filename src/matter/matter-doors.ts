// The doors on Matter (Homebridge 2.x, for Google Home and Alexa): the doors HomeKit shows, each one bridged Matter
// device (matter-devices.ts registers, removes and updates them), and the people as occupancy sensors beside them. What
// differs by mode (the face, the device type, the words) is one row of MATTER_FACES; the people's devices are the same in
// every mode, and never taken for doors (isPersonDevice).
import { createHash } from 'node:crypto';

import type { API, Logging } from 'homebridge';

import { cut } from '../util/homekit-name.js';
import type { MatterMode } from '../option-catalog.js';
import { MATTER_MAX_STRING_LENGTH } from '../settings.js';
import { KEEP_DENSE_RUNS, MAX_LOG_FIELD_CHARS, oneLine } from '../util/log-text.js';
import { matterOnBridge } from './matter-api.js';
import type { MatterAccessory, MatterApi } from './matter-api.js';
import { MatterBridgeCalls, MatterDevices, contextOf } from './matter-devices.js';
import type { MakeSubject } from './matter-devices.js';
import { MatterLockFace } from './lock-face.js';
import type { MatterDoor, MatterFace, MatterFaceDeps } from './matter-face.js';
import { MatterOccupancyFace } from './occupancy-face.js';
import { MatterSensorFace } from './sensor-face.js';

export { matterName } from './matter-devices.js';

/** A door HomeKit shows, with the UUID its accessory has (the Matter device uses the same). */
export interface ShownDoor {
  uuid: string;
  door: MatterDoor;
}

/** What a person's Matter device reads of their HomeKit sensor (PersonSensor): its name, and whether it detects. */
export interface MatterPerson {
  readonly name: string;
  readonly isDetecting: boolean;
  /** false while the account cannot be read: the device shows unreachable. */
  readonly isAvailable: boolean;
  /** Calls `listener` whenever the sensor starts or stops detecting, or becomes (un)available; returns the way to stop. */
  onChange(listener: () => void): () => void;
}

/** A person HomeKit shows, with the UUID of their accessory (tied to their user; the Matter device uses the same). */
export interface ShownPerson {
  uuid: string;
  person: MatterPerson;
}

export interface MatterDoorsDeps {
  api: API;
  log: Logging;
  /** `as-cached`: the setting could not be read, so the doors stay on Matter as the cache has them (none, if none is). */
  mode: MatterMode | 'as-cached';
  /** The plugin's clock (the time an incident began, in its log line); Date.now when not given. */
  now?: () => number;
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

/** The people's devices in every mode: what the log calls them, and how a cached one shows it is a person's. */
const PERSON_DEVICE = { words: 'occupancy sensors', deviceTypeName: 'OccupancySensor', cachedCluster: 'occupancySensing' } as const;

/** Hex digits of the digest that keeps a cut serial number apart from another id's. */
const SERIAL_DIGEST_CHARS = 8;

/** Where a device's context keeps the mode it was registered in, for a start whose Matter setting cannot be read. */
const MODE_KEY = 'mode';
/** Where a person's device's context says it is one (a person's device has no mode: it is the same in every mode). */
const PERSON_KEY = 'person';

const OFF_REASON = 'Google Home and Alexa (Matter) is off in the plugin settings';

/** A cached device that is a person's occupancy sensor, not a door: by its context, else its device type or cluster. */
export function isPersonDevice(device: unknown): boolean {
  if (contextOf(device)[PERSON_KEY] === true) return true;
  const type = (device as { deviceType?: { name?: unknown } } | undefined)?.deviceType?.name;
  const clusters = Object.keys((device as { clusters?: object } | undefined)?.clusters ?? {});
  return type === PERSON_DEVICE.deviceTypeName || clusters.includes(PERSON_DEVICE.cachedCluster);
}

/**
 * The mode the cached doors were registered in: as their context says, else as their device type or clusters show
 * (a device cached before the context kept it); a person's device never tells. Undefined: no cached door, or none that tells.
 */
export function modeOfCached(devices: readonly MatterAccessory[]): MatterShownAs | undefined {
  const all = Object.keys(MATTER_FACES) as MatterShownAs[];
  const modes = devices
    .filter((device) => !isPersonDevice(device))
    .map((device): MatterShownAs | undefined => {
      const named = all.find((mode) => mode === contextOf(device)[MODE_KEY]);
      if (named !== undefined) return named;
      const type = (device.deviceType as { name?: unknown } | undefined)?.name;
      const clusters = Object.keys((device as { clusters?: object }).clusters ?? {});
      return all.find((mode) => type === MATTER_FACES[mode].deviceType || clusters.includes(MATTER_FACES[mode].cachedCluster));
    });
  return modes.find((mode) => mode !== undefined);
}

/**
 * The door's id as the device's serial number, which Matter caps at 32 characters too: the id itself when it fits, else
 * without its dashes (a UUID then fits exactly), else cut with a digest of the whole, so two ids never share one.
 */
export function matterSerial(doorId: string): string {
  // An id, whole: a serial must tell two doors apart, so no run of it is elided.
  const id = oneLine(doorId, MAX_LOG_FIELD_CHARS, KEEP_DENSE_RUNS);
  if (id.length <= MATTER_MAX_STRING_LENGTH) return id || '-';
  const compact = id.replace(/-/g, '');
  if (compact.length <= MATTER_MAX_STRING_LENGTH) return compact;
  const digest = createHash('sha256').update(id).digest('hex').slice(0, SERIAL_DIGEST_CHARS);
  return `${cut(compact, MATTER_MAX_STRING_LENGTH - SERIAL_DIGEST_CHARS - 1)}~${digest}`;
}

export class MatterDoors {
  private readonly matter: MatterApi | undefined;
  private mode: MatterShownAs | undefined;
  /** The mode is to be read from the cached devices, at the first follow (they are handed over after the constructor). */
  private modeAsCached: boolean;
  /** The setting could not be read and Homebridge restored people's devices: the people stay on Matter. */
  private peopleAsCached = false;
  /** Shared by the doors and the people: Homebridge's refusals, and the stop once the bridge turns out not to run Matter. */
  private readonly calls: MatterBridgeCalls | undefined;
  private readonly doors: MatterDevices | undefined;
  private readonly people: MatterDevices | undefined;
  /** Said once: this Homebridge's Matter has no occupancy sensor, so the people are on HomeKit only. */
  private saidNoOccupancy = false;

  constructor(private readonly deps: MatterDoorsDeps) {
    const onBridge = matterOnBridge(deps.api);
    this.mode = deps.mode === 'off' || deps.mode === 'as-cached' ? undefined : deps.mode;
    this.modeAsCached = deps.mode === 'as-cached';
    this.matter = onBridge.kind === 'on' ? onBridge.matter : undefined;
    if (this.matter) {
      this.calls = new MatterBridgeCalls(this.matter, deps.log, deps.now ?? Date.now, () => this.sayMatterOff());
      this.doors = new MatterDevices(this.calls, { plural: 'doors', words: () => MATTER_FACES[this.mode ?? 'locks'].words });
      this.people = new MatterDevices(this.calls, { plural: 'people', words: () => PERSON_DEVICE.words });
    }
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
      (isPersonDevice(accessory) ? this.people : this.doors)?.fromCache(accessory as MatterAccessory);
    }
  }

  /**
   * The doors HomeKit shows now (after the cache is taken over, and after each sync). New ones are registered, gone ones
   * removed. `complete`: a complete sync decided them, so cached Matter devices of doors no longer shown leave too.
   */
  follow(doors: ShownDoor[], complete: boolean): void {
    const matter = this.matter;
    if (!matter || !this.doors || !this.ready()) {
      return;
    }
    const mode = this.mode;
    if (mode === undefined) {
      // Matter runs on the bridge but the plugin's Matter is off: its devices left there would answer nothing.
      this.doors.follow(new Map(), complete ? OFF_REASON : undefined);
      return;
    }
    const spec = MATTER_FACES[mode];
    const wanted = new Map(
      doors.map(({ uuid, door }): [string, MakeSubject] => [
        uuid,
        (hooks) => ({
          get name() {
            return door.facts.name;
          },
          // A door whose state may be stale, or was never known (a contact sensor cannot say "unknown"), shows
          // unreachable, as HomeKit shows No Response.
          get reachable() {
            return door.facts.available && door.facts.stateKnown;
          },
          face: new spec.Face({ matter, hap: this.deps.api.hap, door, ...hooks }),
          deviceType: matter.deviceTypes[spec.deviceType],
          serialNumber: matterSerial(door.facts.doorId),
          context: { doorId: door.facts.doorId, [MODE_KEY]: mode },
          onChange: (listener) => door.onChange(listener),
        }),
      ]),
    );
    this.doors.follow(wanted, complete ? 'the door is no longer shown' : undefined);
  }

  /**
   * The people HomeKit shows (at launch and after each sync, which asks again what Homebridge refused): each an
   * occupancy sensor, occupied while their HomeKit sensor detects. `keepOthers`: an entry of people could not be read,
   * so cached devices of no person shown stay as they are; else they leave at once (people change only at a start).
   */
  followPeople(people: readonly ShownPerson[], keepOthers: boolean): void {
    const matter = this.matter;
    const devices = this.people;
    if (!matter || !devices || !this.ready()) {
      return;
    }
    if (this.mode === undefined && !this.peopleAsCached) {
      // A setting that cannot be read never removes a cached person's device for being off.
      devices.follow(new Map(), this.deps.mode === 'as-cached' ? undefined : OFF_REASON);
      return;
    }
    const deviceType = matter.deviceTypes.MotionSensor;
    const cluster = matter.clusterNames.OccupancySensing;
    if (deviceType === undefined || cluster === undefined) {
      if (people.length > 0 && !this.saidNoOccupancy) {
        this.saidNoOccupancy = true;
        this.deps.log.warn(
          "This Homebridge's Matter has no occupancy sensor, so the people are on HomeKit only (the doors are on Matter). Update Homebridge.",
        );
      }
      return;
    }
    const wanted = new Map(
      people.map(({ uuid, person }): [string, MakeSubject] => [
        uuid,
        () => ({
          get name() {
            return person.name;
          },
          // Unreachable while the account cannot be read, as HomeKit shows the person's sensor No Response.
          get reachable() {
            return person.isAvailable;
          },
          face: new MatterOccupancyFace(cluster, person),
          deviceType,
          // Not the user (an e-mail address): the UUID, which says nothing of the person.
          serialNumber: matterSerial(uuid),
          context: { [PERSON_KEY]: true },
          onChange: (listener) => person.onChange(listener),
        }),
      ]),
    );
    devices.follow(wanted, keepOthers ? undefined : 'the person is no longer in the people settings');
  }

  /** Stops following the doors and the people (Homebridge is shutting down). */
  dispose(): void {
    this.doors?.dispose();
    this.people?.dispose();
  }

  /**
   * Whether anything is to be tried: not once the bridge turned out not to run Matter, nor when the setting cannot be read
   * and the cached doors do not say their mode. The mode is read from the cache at the first call.
   */
  private ready(): boolean {
    const { calls, doors, people } = this;
    if (!calls || !doors || !people || calls.stopped) {
      return false;
    }
    if (this.modeAsCached) {
      this.modeAsCached = false;
      const cachedDoors = doors.cachedDevices;
      this.mode = modeOfCached(cachedDoors);
      this.peopleAsCached = people.cachedDevices.length > 0;
      if (this.mode === undefined && cachedDoors.length > 0) {
        // Devices whose mode cannot be told: left as they are rather than removed on a guess.
        this.deps.log.warn(
          `The Matter setting cannot be read and the ${cachedDoors.length} doors on Matter do not say how they were added, so they are left as they are until it is fixed.`,
        );
        calls.stop(false);
        return false;
      }
    }
    return true;
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

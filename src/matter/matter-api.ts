// The narrow, typed view of the part of Homebridge 2.x's Matter API (api.matter) the plugin uses, read through a guard:
// the plugin compiles against Homebridge 1.11's types, which have no Matter at all.
import type { API } from 'homebridge';
import * as z from '../util/zod.js';

/** A Matter status error class (api.matter.status.*): thrown from a handler, it answers the controller with that status. */
export type MatterStatusError = new (message?: string) => Error;

/** The DoorLock cluster's enums as Homebridge exports them (api.matter.types.DoorLock): named, never bare numbers. */
export interface DoorLockTypes {
  LockState: { NotFullyLocked: number; Locked: number; Unlocked: number };
  LockType: { Other: number };
  OperatingMode: { Normal: number };
}

/** A command handler: resolving lets Homebridge set the attribute the command implies; throwing answers with an error. */
export type MatterHandler = (request?: unknown) => Promise<void>;

/** What the plugin registers: one door, one bridged Matter device. */
export interface MatterAccessory {
  UUID: string;
  displayName: string;
  deviceType: unknown;
  serialNumber: string;
  manufacturer: string;
  model: string;
  context: Record<string, unknown>;
  clusters: Record<string, Record<string, unknown>>;
  handlers?: Record<string, Record<string, MatterHandler>>;
}

/** Homebridge's cluster names the plugin writes (api.matter.clusterNames). */
export interface MatterClusterNames {
  DoorLock: string;
  BooleanState: string;
  BridgedDeviceBasicInformation: string;
  /** The people's occupancy sensors: optional, so a Homebridge without it still has the doors. */
  OccupancySensing?: string;
}

/** The part of api.matter the plugin uses (Homebridge 2.4's MatterAPI). */
export interface MatterApi {
  /** MotionSensor is Matter's OccupancySensor (its `name`), the people's device: optional, as its cluster's name. */
  deviceTypes: { DoorLock: unknown; ContactSensor: unknown; MotionSensor?: unknown };
  clusterNames: MatterClusterNames;
  types: { DoorLock: DoorLockTypes };
  status: { PermissionDenied: MatterStatusError; Busy: MatterStatusError; Timeout: MatterStatusError; Failure: MatterStatusError };
  registerPlatformAccessories(plugin: string, platform: string, accessories: MatterAccessory[]): Promise<void>;
  unregisterPlatformAccessories(plugin: string, platform: string, accessories: MatterAccessory[]): Promise<void>;
  updateAccessoryState(uuid: string, cluster: string, attributes: Record<string, unknown>): Promise<void>;
}

const fn = z.custom<(...args: never[]) => unknown>((value) => typeof value === 'function');
const errorClass = fn;
const numbers = <K extends string>(...keys: K[]) =>
  z.object(Object.fromEntries(keys.map((key) => [key, z.number()])) as Record<K, z.ZodMiniNumber>);

/** The shape checked before the plugin trusts api.matter (a later Homebridge may change it: then Matter stays off, said once). */
const matterApiSchema = z.object({
  deviceTypes: z.object({
    DoorLock: z.unknown().check(z.refine((v) => v !== undefined)),
    ContactSensor: z.unknown().check(z.refine((v) => v !== undefined)),
  }),
  clusterNames: z.object({
    DoorLock: z.string(),
    BooleanState: z.string(),
    BridgedDeviceBasicInformation: z.string(),
    OccupancySensing: z.optional(z.string()),
  }),
  types: z.object({
    DoorLock: z.object({
      LockState: numbers('NotFullyLocked', 'Locked', 'Unlocked'),
      LockType: numbers('Other'),
      OperatingMode: numbers('Normal'),
    }),
  }),
  status: z.object({ PermissionDenied: errorClass, Busy: errorClass, Timeout: errorClass, Failure: errorClass }),
  registerPlatformAccessories: fn,
  unregisterPlatformAccessories: fn,
  updateAccessoryState: fn,
});

/**
 * What the bridge the plugin runs on offers: Matter, Matter in a shape this plugin does not know, no Matter, or no
 * answer (Homebridge threw while asked: `message` says what it threw).
 */
export type MatterOnBridge =
  { kind: 'on'; matter: MatterApi } | { kind: 'unknown-shape' } | { kind: 'off' } | { kind: 'no-answer'; message: string };

/** Homebridge 2.x's API beyond 1.11's types: both members absent on 1.11. */
interface MaybeMatterHost {
  isMatterEnabled?: unknown;
  matter?: unknown;
}

/**
 * api.matter when this bridge runs Matter (Homebridge 2.x with Matter turned on for it), checked against the shape the
 * plugin uses; the object itself is returned, because its methods need their own `this`.
 */
export function matterOnBridge(api: API): MatterOnBridge {
  const host = api as API & MaybeMatterHost;
  // isMatterEnabled(), the api.matter getter and the members the check reads are Homebridge's code: any of them may throw.
  try {
    const enabled = typeof host.isMatterEnabled === 'function' && (host.isMatterEnabled as () => unknown).call(api) === true;
    const matter = enabled ? host.matter : undefined;
    if (matter === undefined || matter === null) {
      return { kind: 'off' };
    }
    return matterApiSchema.safeParse(matter).success ? { kind: 'on', matter: matter as MatterApi } : { kind: 'unknown-shape' };
  } catch (error) {
    return { kind: 'no-answer', message: error instanceof Error ? error.message : String(error) };
  }
}

// A stand-in for Homebridge 2.4's Matter API (api.matter) and a Matter controller, faithful to the traps a real bridge
// showed: registration happens after its promise resolves, a DoorLock without operatingMode drops the whole batch, a
// device restored from the cache has no handlers and keeps its cached values over `clusters`, a cached device the
// plugin did not register again is gone at the next start, and a handler that resolves lets Homebridge set lockState.
// A test can make it refuse registrations and removals ("Matter server busy") or throw at once from any call.
import * as hap from 'hap-nodejs';

import type { AccessControlPlatform } from '../../src/platform.js';
import { HomebridgeDouble } from './homebridge-double.js';

type Attributes = Record<string, unknown>;
type Handler = (request?: unknown) => Promise<void>;

/** The DoorLock cluster's enums, as Homebridge 2.4 exports them (api.matter.types.DoorLock). */
export const LockState = { NotFullyLocked: 0, Locked: 1, Unlocked: 2, Unlatched: 3 } as const;
const LockType = { DeadBolt: 0, Magnetic: 1, Other: 2 } as const;
const OperatingMode = { Normal: 0, Vacation: 1, Privacy: 2, NoRemoteLockUnlock: 3, Passage: 4 } as const;

/** A Matter status error (api.matter.status.*): the status a controller receives. */
export class MatterStatusError extends Error {
  constructor(
    readonly status: string,
    message?: string,
  ) {
    super(message ?? status);
  }
}
const statusClass = (status: string) =>
  class extends MatterStatusError {
    constructor(message?: string) {
      super(status, message);
    }
  };

/** api.matter.deviceTypes by key; each `name` is matter.js's (MotionSensor is Matter's OccupancySensor, with PIR). */
const DEVICE_TYPES = {
  DoorLock: { name: 'DoorLock', deviceType: 0x0a },
  ContactSensor: { name: 'ContactSensor', deviceType: 0x15 },
  MotionSensor: { name: 'OccupancySensor', deviceType: 0x107 },
};
/** The device type a cached device's name stands for (Homebridge's cache keeps the name and code). */
const deviceTypeNamed = (name: string) => Object.values(DEVICE_TYPES).find((type) => type.name === name);
/** matter.js's limit on the bridged device's node label and serial number (UTF-16 units). */
const MAX_TEXT = 32;

/** A device on the Matter bridge, as a controller sees it. */
export interface MatterDevice {
  uuid: string;
  displayName: string;
  deviceType: string;
  serialNumber: string;
  context: unknown;
  /** Each cluster's attributes as a controller reads them (bridgedDeviceBasicInformation included). */
  clusters: Record<string, Attributes>;
  handlers: Record<string, Record<string, Handler>> | undefined;
  /** Restored from the cache and not registered again by the plugin in this run (no handlers). */
  restored: boolean;
}

/** What Homebridge's Matter accessory cache keeps of a device. */
export interface SavedMatterDevice {
  uuid: string;
  displayName: string;
  deviceType: string;
  serialNumber: string;
  context: unknown;
  clusters: Record<string, Attributes>;
}

/** What the plugin hands to registerPlatformAccessories (Homebridge's MatterAccessory, as far as the double reads it). */
interface RegisteredAccessory {
  UUID?: string;
  displayName?: string;
  deviceType?: { name: string };
  serialNumber?: string;
  manufacturer?: string;
  model?: string;
  context?: unknown;
  clusters?: Record<string, Attributes>;
  handlers?: Record<string, Record<string, Handler>>;
}

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
/** Lets every registration and state update the double deferred take place (they run on setImmediate, as Homebridge's). */
export const matterSettled = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

export class MatterApiDouble {
  readonly uuid = hap.uuid;
  readonly deviceTypes = DEVICE_TYPES;
  readonly clusterNames = {
    DoorLock: 'doorLock',
    BooleanState: 'booleanState',
    OccupancySensing: 'occupancySensing',
    BridgedDeviceBasicInformation: 'bridgedDeviceBasicInformation',
  } as const;
  readonly types = { DoorLock: { LockState, LockType, OperatingMode } };
  readonly status = {
    PermissionDenied: statusClass('UnsupportedAccess'),
    Busy: statusClass('Busy'),
    Timeout: statusClass('Timeout'),
    Failure: statusClass('Failure'),
    InvalidInState: statusClass('InvalidInState'),
  };
  readonly devices = new Map<string, MatterDevice>();
  /** What Homebridge would log as errors (dropped batches, bad updates). */
  readonly errors: string[] = [];
  /** State updates for devices the bridge does not have (Homebridge drops them, at debug level). */
  readonly dropped: string[] = [];
  /** Clusters whose next state update Homebridge refuses (as it does while it re-registers a device), once each. */
  readonly refuseNextUpdate = new Set<string>();
  /** Registration calls, each with its accessories' UUIDs. */
  readonly registrations: string[][] = [];
  /** How many of the next calls Homebridge refuses with "Matter server busy" (Infinity: every one), by call. */
  readonly refuse = { register: 0, unregister: 0 };
  /** Calls that throw at once instead of answering with a promise (a Homebridge bug, or a later one's changed API). */
  readonly throwing = new Set<'registerPlatformAccessories' | 'unregisterPlatformAccessories' | 'updateAccessoryState'>();
  /** Set once Homebridge's Matter manager exists (before didFinishLaunching); earlier calls throw as Homebridge's do. */
  ready = false;

  /**
   * `runsMatter` false: api.matter is offered because another bridge runs Matter, but this one does not (Homebridge 2
   * on the main bridge while only a child bridge has Matter): every call is refused.
   */
  constructor(
    private readonly cache: SavedMatterDevice[] = [],
    private readonly runsMatter = true,
  ) {
    for (const saved of cache) {
      const device: MatterDevice = { ...copy(saved), handlers: undefined, restored: true };
      // Homebridge rebuilds the bridged device's information at restore: reachable again, whatever was cached.
      device.clusters.bridgedDeviceBasicInformation = { ...device.clusters.bridgedDeviceBasicInformation, reachable: true };
      this.devices.set(saved.uuid, device);
    }
  }

  registerPlatformAccessories(plugin: string, _platform: string, accessories: RegisteredAccessory[]): Promise<void> {
    this.throwIfAsked('registerPlatformAccessories');
    try {
      this.assertReady(`${plugin}: Cannot register Matter accessories`);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (this.refuse.register > 0) {
      this.refuse.register -= 1;
      return Promise.reject(new Error('Matter server busy'));
    }
    this.registrations.push(accessories.map((accessory) => accessory.UUID ?? ''));
    const valid = accessories.filter((accessory) => {
      const missing = ['UUID', 'displayName', 'deviceType', 'serialNumber', 'manufacturer', 'model'].find(
        (key) => !accessory[key as keyof RegisteredAccessory],
      );
      if (missing) this.errors.push(`Matter accessory missing required '${missing}' field`);
      return missing === undefined;
    });
    // Homebridge emits the registration and resolves at once: the bridge registers later.
    setImmediate(() => this.registerNow(valid));
    return Promise.resolve();
  }

  private registerNow(batch: RegisteredAccessory[]): void {
    // Seen on Homebridge 2.4: a DoorLock without operatingMode fails conformance, and the whole batch is dropped.
    if (batch.some((a) => a.deviceType?.name === 'DoorLock' && a.clusters?.doorLock?.operatingMode === undefined)) {
      this.errors.push('DoorLock without operatingMode: conformance failed, batch dropped');
      return;
    }
    // Homebridge registers one after another and stops at the first that fails.
    for (const accessory of batch) {
      const uuid = accessory.UUID ?? '';
      const displayName = accessory.displayName ?? '';
      const serialNumber = accessory.serialNumber ?? '';
      if (displayName.length > MAX_TEXT || serialNumber.length > MAX_TEXT) {
        this.errors.push(`Failed to register Matter accessory ${displayName}: a text longer than ${MAX_TEXT}`);
        return;
      }
      const existing = this.devices.get(uuid);
      const deviceType = accessory.deviceType?.name ?? '';
      if (existing?.restored && existing.deviceType === deviceType) {
        // Attached in place: the handlers arrive, the device keeps the values it was restored with.
        Object.assign(existing, { displayName, serialNumber, context: accessory.context, handlers: accessory.handlers, restored: false });
        continue;
      }
      if (existing && !existing.restored) {
        this.errors.push(`Matter accessory with UUID "${uuid}" is already registered.`);
        return;
      }
      this.devices.delete(uuid);
      // A fresh registration still takes the cached values over the declared ones (restoreCachedState).
      const cached = this.cache.find((saved) => saved.uuid === uuid);
      const clusters = copy(accessory.clusters ?? {});
      for (const [name, attributes] of Object.entries(clusters)) {
        for (const [key, value] of Object.entries(cached?.clusters[name] ?? {})) {
          if (key in attributes) attributes[key] = value;
        }
      }
      clusters.bridgedDeviceBasicInformation = { nodeLabel: displayName, serialNumber, reachable: true };
      this.devices.set(uuid, {
        uuid,
        displayName,
        deviceType,
        serialNumber,
        context: accessory.context,
        clusters,
        handlers: accessory.handlers,
        restored: false,
      });
    }
  }

  unregisterPlatformAccessories(plugin: string, _platform: string, accessories: RegisteredAccessory[]): Promise<void> {
    this.throwIfAsked('unregisterPlatformAccessories');
    if (this.refuse.unregister > 0) {
      this.refuse.unregister -= 1;
      return Promise.reject(new Error('Matter server busy'));
    }
    try {
      this.assertReady(`${plugin}: Cannot unregister Matter accessories`);
      // Homebridge reads each one's device type to tell bridged from external devices.
      for (const accessory of accessories) {
        if (accessory.deviceType === undefined) throw new TypeError("Cannot read properties of undefined (reading 'deviceType')");
      }
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    for (const accessory of accessories) this.devices.delete(accessory.UUID ?? '');
    return Promise.resolve();
  }

  updateAccessoryState(uuid: string, cluster: string, attributes: Attributes): Promise<void> {
    this.throwIfAsked('updateAccessoryState');
    try {
      this.assertReady(`Cannot update Matter accessory ${uuid}`);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (this.refuseNextUpdate.delete(cluster)) {
      return Promise.reject(new Error(`Failed to update accessory state: ${cluster} refused`));
    }
    // Looked up at once; a device not registered yet is not on the bridge, and Homebridge drops the update quietly.
    const device = this.devices.get(uuid);
    if (!device) {
      this.dropped.push(`${uuid} ${cluster}`);
      return Promise.resolve();
    }
    setImmediate(() => {
      const current = device.clusters[cluster];
      if (!current) {
        this.errors.push(`Failed to update state for accessory ${uuid}: no cluster ${cluster}`);
        return;
      }
      Object.assign(current, attributes);
    });
    return Promise.resolve();
  }

  private throwIfAsked(call: 'registerPlatformAccessories' | 'unregisterPlatformAccessories' | 'updateAccessoryState'): void {
    if (this.throwing.has(call)) throw new TypeError(`${call} threw: Cannot read properties of undefined (reading 'server')`);
  }

  private assertReady(action: string): void {
    if (!this.ready) {
      throw new Error(`${action} before Homebridge has finished launching.`);
    }
    if (!this.runsMatter) {
      throw new Error(`${action}: Matter is not enabled for this bridge. api.matter is available because another bridge uses Matter.`);
    }
  }

  // The controller's side.

  /** A controller sends `command` to a door lock: the status it gets back ('Success' or the error's). */
  async command(uuid: string, command: 'lockDoor' | 'unlockDoor'): Promise<string> {
    const device = this.devices.get(uuid);
    const handler = device?.handlers?.doorLock?.[command];
    if (!device || !handler) {
      // Homebridge: "No handler registered", wrapped as a Failure.
      return 'Failure';
    }
    try {
      await handler({});
    } catch (error) {
      return error instanceof MatterStatusError ? error.status : 'Failure';
    }
    // A handler that resolves lets Homebridge set lockState itself.
    const doorLock = device.clusters.doorLock ?? {};
    doorLock.lockState = command === 'lockDoor' ? LockState.Locked : LockState.Unlocked;
    return 'Success';
  }

  /** The device with this serial number (the door's id, as the plugin registers it). */
  device(serialNumber: string): MatterDevice | undefined {
    return [...this.devices.values()].find((device) => device.serialNumber === serialNumber);
  }

  /** The cache Homebridge keeps for the next start: a restored device the plugin did not register again is not in it. */
  saved(): SavedMatterDevice[] {
    return [...this.devices.values()]
      .filter((device) => !device.restored)
      .map(({ uuid, displayName, deviceType, serialNumber, context, clusters }) =>
        copy({ uuid, displayName, deviceType, serialNumber, context, clusters }),
      );
  }
}

/** Homebridge 2.4 around the double: api.matter is `matter`, or undefined (Matter off for this bridge). */
export class Homebridge2Double extends HomebridgeDouble {
  constructor(cache: ConstructorParameters<typeof HomebridgeDouble>[0] = [], matter: MatterApiDouble | null = new MatterApiDouble()) {
    super(cache);
    this.matter = matter ?? undefined;
  }

  /** api.matter: undefined when Matter is off for this bridge (`null` given). */
  readonly matter: MatterApiDouble | undefined;

  /** An error isMatterEnabled() throws instead of answering (seen when Homebridge's Matter settings cannot be read). */
  matterEnabledError: Error | undefined;

  isMatterEnabled(): boolean {
    if (this.matterEnabledError) throw this.matterEnabledError;
    return this.matter !== undefined;
  }

  /** Homebridge restores its Matter cache and hands each device over before didFinishLaunching, without handlers. */
  protected override beforeLaunch(platform: AccessControlPlatform): void {
    const matter = this.matter;
    if (!matter) return;
    matter.ready = true;
    for (const device of matter.devices.values()) {
      platform.configureMatterAccessory({
        UUID: device.uuid,
        displayName: device.displayName,
        deviceType: deviceTypeNamed(device.deviceType),
        serialNumber: device.serialNumber,
        manufacturer: 'Access Control',
        model: 'Door Controller',
        context: copy(device.context ?? {}),
        clusters: copy(device.clusters),
      });
    }
  }
}

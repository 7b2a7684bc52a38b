// A real HomeKit controller (hap-controller over IP, pair-setup with the PIN like an iPhone), for the e2e tests and the benchmark.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HomekitControllerError, HttpClient } from 'hap-controller';
import type { PairingData } from 'hap-controller';
import { HAP_CHARACTERISTIC, HAP_SERVICE, HAP_STATUS, hapUuid } from './hap-types.js';
import type { HapCharacteristicName, HapServiceName } from './hap-types.js';
import type { HomebridgeProcess } from './homebridge-process.js';

/** Homebridge's HAP server listens on all interfaces; the controller talks to it over loopback. */
export const CONTROLLER_HOST = '127.0.0.1';
/** Every controller request gives up after this long (a dead persistent connection can otherwise hang). */
export const REQUEST_TIMEOUT_MS = 15_000;
/**
 * Pair-setup's own bound: SRP's big-number work runs on both ends (controller and bridge) and takes seconds of CPU, more
 * than REQUEST_TIMEOUT_MS on a two-core machine running every suite at once (CI saw a 149-door bridge miss 15 s).
 */
export const PAIR_SETUP_TIMEOUT_MS = 45_000;
/** Poll interval of `waitFor` (events, when subscribed, wake it earlier). */
export const WAIT_POLL_INTERVAL_MS = 200;
/** Default timeout of `waitFor` / `waitForAccessory`. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10_000;

/** Where `pairController` keeps a pairing in the storage dir: one file per bridge, so a child bridge's does not replace the main bridge's. */
const pairingFile = (username: string): string => `e2e-controller-pairing.${username.replace(/:/g, '').toUpperCase()}.json`;
function statusName(status: number): string {
  const entry = Object.entries(HAP_STATUS).find(([, code]) => code === status);
  return entry ? `${entry[0]} (${status})` : String(status);
}

/** A `waitFor` predicate: the read succeeded with `expected` (HAP sends booleans as true/false or 1/0). */
export function hasValue(expected: number | boolean): (value: unknown, status: number) => boolean {
  return (value, status) => status === HAP_STATUS.SUCCESS && (value === expected || value === Number(expected));
}

/** A characteristic address in the attribute database. */
export interface CharRef {
  aid: number;
  iid: number;
}

/** A read or write answered with a non-zero HAP status. */
export class HapStatusError extends Error {
  constructor(
    readonly status: number,
    readonly ref: CharRef,
    readonly operation: 'read' | 'write' | 'subscribe',
  ) {
    super(`${operation} ${ref.aid}.${ref.iid} failed with HAP status ${statusName(status)}`);
    this.name = 'HapStatusError';
  }
}

export interface ReadResult {
  value: unknown;
  /** 0 on success, else a HAP_STATUS code. */
  status: number;
}

export interface CharacteristicEvent extends CharRef {
  value: unknown;
  /** Date.now() when it arrived. */
  at: number;
}

export interface HapCharacteristic {
  iid: number;
  type: string;
  value?: unknown;
  perms?: string[];
  format?: string;
  [key: string]: unknown;
}

export interface HapService {
  iid: number;
  type: string;
  characteristics: HapCharacteristic[];
  primary?: boolean;
  hidden?: boolean;
  linked?: number[];
}

export interface HapAccessory {
  aid: number;
  services: HapService[];
}

/** A service found in the attribute database, with its accessory's aid. */
export interface FoundService {
  aid: number;
  service: HapService;
}

export type EventListener = (event: CharacteristicEvent) => void;

export interface Subscription {
  /** Stops delivering to this listener (the HAP subscription itself lives until close()). */
  unsubscribe(): void;
}

/** Accepts a full UUID, a short hex UUID ("41", "0E") or a key of HAP_SERVICE / HAP_CHARACTERISTIC. */
export function toHapUuid(typeOrName: string): string {
  if (typeOrName in HAP_SERVICE) return HAP_SERVICE[typeOrName as HapServiceName];
  if (typeOrName in HAP_CHARACTERISTIC) return HAP_CHARACTERISTIC[typeOrName as HapCharacteristicName];
  if (/^[0-9a-f]{1,8}$/i.test(typeOrName)) return hapUuid(typeOrName.toUpperCase());
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(typeOrName)) return typeOrName.toUpperCase();
  throw new Error(
    `Unknown HAP type "${typeOrName}": use a UUID, a short UUID or one of ${[...Object.keys(HAP_SERVICE), ...Object.keys(HAP_CHARACTERISTIC)].join(', ')}`,
  );
}

const ref = (target: CharRef | number, iid?: number): CharRef => {
  if (typeof target === 'number') {
    if (iid === undefined) throw new Error('iid is required with a numeric aid');
    return { aid: target, iid };
  }
  return target;
};
const key = (r: CharRef): string => `${r.aid}.${r.iid}`;

async function withTimeout<T>(what: string, promise: Promise<T>, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

interface CharacteristicStatusBody {
  characteristics?: { aid?: unknown; iid?: unknown; value?: unknown; status?: unknown }[];
}

const asNumber = (v: unknown): number | undefined => {
  if (typeof v === 'number') return v;
  // json-bigint turns large integers into BigNumber objects.
  if (typeof v === 'object' && v !== null && 'toNumber' in v && typeof v.toNumber === 'function')
    return (v as { toNumber(): number }).toNumber();
  return undefined;
};

function findEntry(body: unknown, r: CharRef): { value?: unknown; status?: unknown } | undefined {
  const list = (body as CharacteristicStatusBody | null)?.characteristics;
  if (!Array.isArray(list)) return undefined;
  return list.find((c) => asNumber(c.aid) === r.aid && asNumber(c.iid) === r.iid);
}

function infoValue(accessory: HapAccessory, characteristic: string): unknown {
  const info = accessory.services.find((s) => s.type === HAP_SERVICE.AccessoryInformation);
  return info?.characteristics.find((c) => c.type === characteristic)?.value;
}

/** A paired controller. Every method talks to the bridge over HAP (pair-verified, encrypted). */
export class HomeKitController {
  private client: HttpClient;
  private readonly listeners = new Set<EventListener>();
  private readonly subscribed = new Set<string>();
  private readonly received: CharacteristicEvent[] = [];
  private lostSubscription = false;

  private constructor(
    private readonly username: string,
    private port: number,
    readonly pairingData: PairingData,
  ) {
    this.client = this.makeClient();
  }

  /** Creates a controller from existing pairing data (no pair-setup). */
  static async connect(hb: Pick<HomebridgeProcess, 'username' | 'port'>, pairingData: PairingData): Promise<HomeKitController> {
    const controller = new HomeKitController(hb.username, hb.port, pairingData);
    await controller.accessories(); // pair-verify now, so a bad pairing fails here
    return controller;
  }

  private makeClient(): HttpClient {
    const client = new HttpClient(this.username, CONTROLLER_HOST, this.port, this.pairingData, { usePersistentConnections: true });
    client.on('event', (body: unknown) => this.onEvent(body));
    client.on('event-disconnect', () => {
      this.lostSubscription = true;
    });
    return client;
  }

  private onEvent(body: unknown): void {
    const list = (body as CharacteristicStatusBody | null)?.characteristics;
    if (!Array.isArray(list)) return;
    for (const c of list) {
      const aid = asNumber(c.aid);
      const iid = asNumber(c.iid);
      if (aid === undefined || iid === undefined) continue;
      const event: CharacteristicEvent = { aid, iid, value: c.value, at: Date.now() };
      this.received.push(event);
      for (const listener of this.listeners) {
        listener(event);
      }
    }
  }

  /** True once the event connection dropped (e.g. Homebridge restarted); `reconnect()` re-subscribes. */
  get subscriptionLost(): boolean {
    return this.lostSubscription;
  }

  /** All events received so far, oldest first. */
  events(): readonly CharacteristicEvent[] {
    return this.received;
  }

  /** Fresh attribute database (`GET /accessories`). */
  async accessories(): Promise<HapAccessory[]> {
    const db = await withTimeout('GET /accessories', this.client.getAccessories());
    // hap-controller's own type for the database differs between its builds; read it as unknown, then as HAP's JSON.
    const accessories: unknown = db.accessories;
    return accessories as HapAccessory[];
  }

  /** The accessory whose AccessoryInformation Name or SerialNumber equals `nameOrSerial` (or whose aid it is). */
  async findAccessory(nameOrSerial: string | number): Promise<HapAccessory> {
    const list = await this.accessories();
    const found = list.find((a) =>
      typeof nameOrSerial === 'number'
        ? a.aid === nameOrSerial
        : infoValue(a, HAP_CHARACTERISTIC.Name) === nameOrSerial || infoValue(a, HAP_CHARACTERISTIC.SerialNumber) === nameOrSerial,
    );
    if (!found) {
      const known = list.map(
        (a) => `${a.aid}: ${String(infoValue(a, HAP_CHARACTERISTIC.Name))} / ${String(infoValue(a, HAP_CHARACTERISTIC.SerialNumber))}`,
      );
      throw new Error(`No accessory named or with serial "${nameOrSerial}". Accessories:\n  ${known.join('\n  ')}`);
    }
    return found;
  }

  /** Polls the attribute database until the accessory shows up. */
  async waitForAccessory(nameOrSerial: string, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS): Promise<HapAccessory> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return await this.findAccessory(nameOrSerial);
      } catch (err) {
        if (Date.now() >= deadline) throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_INTERVAL_MS));
    }
  }

  /** First service of the given type on the accessory. */
  async findService(nameOrSerial: string | number, serviceType: string): Promise<FoundService> {
    const accessory = await this.findAccessory(nameOrSerial);
    const type = toHapUuid(serviceType);
    const service = accessory.services.find((s) => s.type === type);
    if (!service) {
      throw new Error(
        `Accessory "${nameOrSerial}" (aid ${accessory.aid}) has no service ${serviceType}; it has ${accessory.services.map((s) => s.type).join(', ')}`,
      );
    }
    return { aid: accessory.aid, service };
  }

  /** Address of a characteristic, by accessory name/serial, service type and characteristic type. */
  async findCharacteristic(nameOrSerial: string | number, serviceType: string, characteristicType: string): Promise<CharRef> {
    const { aid, service } = await this.findService(nameOrSerial, serviceType);
    const type = toHapUuid(characteristicType);
    const characteristic = service.characteristics.find((c) => c.type === type);
    if (!characteristic) {
      throw new Error(
        `Service ${serviceType} of "${nameOrSerial}" has no characteristic ${characteristicType}; it has ${service.characteristics.map((c) => c.type).join(', ')}`,
      );
    }
    return { aid, iid: characteristic.iid };
  }

  /** Reads one characteristic; a non-zero HAP status comes back as `status` instead of throwing. */
  async readResult(target: CharRef): Promise<ReadResult>;
  async readResult(aid: number, iid: number): Promise<ReadResult>;
  async readResult(target: CharRef | number, iid?: number): Promise<ReadResult> {
    const r = ref(target, iid);
    let body: unknown;
    try {
      body = await withTimeout(`read ${key(r)}`, this.client.getCharacteristics([key(r)]));
    } catch (err) {
      // A whole-request failure (e.g. 400/404 with a per-characteristic status body).
      const status = err instanceof HomekitControllerError ? asNumber(findEntry(err.getBody(), r)?.status) : undefined;
      if (status !== undefined) return { value: undefined, status };
      throw err;
    }
    const entry = findEntry(body, r);
    if (!entry) throw new Error(`read ${key(r)}: characteristic missing from the response ${JSON.stringify(body)}`);
    return { value: entry.value, status: asNumber(entry.status) ?? HAP_STATUS.SUCCESS };
  }

  /** Reads one characteristic's value; throws HapStatusError (with `.status`) when HAP answers with an error status. */
  async read(target: CharRef): Promise<unknown>;
  async read(aid: number, iid: number): Promise<unknown>;
  async read(target: CharRef | number, iid?: number): Promise<unknown> {
    const r = ref(target, iid);
    const result = await this.readResult(r);
    if (result.status !== HAP_STATUS.SUCCESS) throw new HapStatusError(result.status, r, 'read');
    return result.value;
  }

  /** Writes one characteristic; returns the HAP status (0 on success) instead of throwing on a HAP error. */
  async writeResult(target: CharRef, value: unknown): Promise<number> {
    let body: unknown;
    try {
      body = await withTimeout(`write ${key(target)}`, this.client.setCharacteristics({ [key(target)]: value }));
    } catch (err) {
      const status = err instanceof HomekitControllerError ? asNumber(findEntry(err.getBody(), target)?.status) : undefined;
      if (status !== undefined) return status;
      throw err;
    }
    return asNumber(findEntry(body, target)?.status) ?? HAP_STATUS.SUCCESS;
  }

  /** Writes one characteristic; throws HapStatusError (with `.status`) when HAP answers with an error status. */
  async write(target: CharRef, value: unknown): Promise<void>;
  async write(aid: number, iid: number, value: unknown): Promise<void>;
  async write(target: CharRef | number, iidOrValue: unknown, maybeValue?: unknown): Promise<void> {
    const [r, value] = typeof target === 'number' ? [ref(target, iidOrValue as number), maybeValue] : [target, iidOrValue];
    const status = await this.writeResult(r, value);
    if (status !== HAP_STATUS.SUCCESS) throw new HapStatusError(status, r, 'write');
  }

  /** Subscribes to event notifications; `onEvent` gets every event for these characteristics. */
  async subscribe(refs: CharRef[], onEvent?: EventListener): Promise<Subscription> {
    const keys = refs.map(key);
    const body = await withTimeout(`subscribe ${keys.join(',')}`, this.client.subscribeCharacteristics(keys));
    for (const r of refs) {
      const status = asNumber(findEntry(body, r)?.status);
      if (status !== undefined && status !== HAP_STATUS.SUCCESS) throw new HapStatusError(status, r, 'subscribe');
      this.subscribed.add(key(r));
    }
    if (!onEvent) return { unsubscribe: () => undefined };
    const wanted = new Set(keys);
    const listener: EventListener = (event) => {
      if (wanted.has(key(event))) onEvent(event);
    };
    this.listeners.add(listener);
    // hap-controller's unsubscribeCharacteristics() skips subscribed ids (inverted check), so only detach locally.
    return { unsubscribe: () => this.listeners.delete(listener) };
  }

  /**
   * Resolves with the value once `predicate(value, status)` holds: polls reads every
   * WAIT_POLL_INTERVAL_MS and also checks events as they arrive (when subscribed).
   */
  async waitFor(
    predicate: (value: unknown, status: number) => boolean,
    target: CharRef,
    timeoutMs = DEFAULT_WAIT_TIMEOUT_MS,
  ): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    let matched: { value: unknown } | undefined;
    // Set by the event listener; read through a call so TS does not narrow it away across awaits.
    const hit = (): { value: unknown } | undefined => matched;
    let wake: (() => void) | undefined;
    let last: ReadResult | undefined;
    let lastError: unknown;
    const listener: EventListener = (event) => {
      if (matched === undefined && event.aid === target.aid && event.iid === target.iid && predicate(event.value, HAP_STATUS.SUCCESS)) {
        matched = { value: event.value };
        wake?.();
      }
    };
    this.listeners.add(listener);
    try {
      for (;;) {
        const early = hit();
        if (early) return early.value;
        try {
          last = await this.readResult(target);
          lastError = undefined;
          if (predicate(last.value, last.status)) return last.value;
        } catch (err) {
          lastError = err;
        }
        const late = hit();
        if (late) return late.value;
        const left = deadline - Date.now();
        if (left <= 0) {
          const seen = lastError instanceof Error ? `last error: ${lastError.message}` : `last read: ${JSON.stringify(last)}`;
          throw new Error(`waitFor ${key(target)}: condition not met within ${timeoutMs} ms (${seen})`);
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(WAIT_POLL_INTERVAL_MS, left));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
      }
    } finally {
      this.listeners.delete(listener);
    }
  }

  /**
   * Drops the old connections and pair-verifies again with the same pairing (use after Homebridge
   * restarted on the same storage dir). Re-subscribes to whatever was subscribed before.
   */
  async reconnect(hb: Pick<HomebridgeProcess, 'username' | 'port'>): Promise<void> {
    if (hb.username !== this.username) throw new Error(`reconnect: bridge ${hb.username} is not the paired bridge ${this.username}`);
    await this.client.close();
    this.client.removeAllListeners();
    this.port = hb.port;
    this.client = this.makeClient();
    this.lostSubscription = false;
    await this.accessories();
    const keys = [...this.subscribed];
    if (keys.length > 0) {
      await withTimeout(`resubscribe ${keys.join(',')}`, this.client.subscribeCharacteristics(keys));
    }
  }

  /** Closes every connection to the bridge (the pairing stays valid). */
  async close(): Promise<void> {
    this.listeners.clear();
    await this.client.close();
    this.client.removeAllListeners();
  }
}

/** Pair-setup with the bridge's PIN (like adding it in the Home app); stores the pairing in the storage dir. */
export async function pairController(hb: Pick<HomebridgeProcess, 'username' | 'port' | 'pin' | 'storageDir'>): Promise<HomeKitController> {
  const client = new HttpClient(hb.username, CONTROLLER_HOST, hb.port);
  let pairingData: PairingData | null;
  try {
    await withTimeout('pair-setup', client.pairSetup(hb.pin), PAIR_SETUP_TIMEOUT_MS);
    pairingData = client.getLongTermData();
  } finally {
    await client.close();
  }
  if (!pairingData) throw new Error('pair-setup finished without long-term pairing data');
  await writeFile(path.join(hb.storageDir, pairingFile(hb.username)), `${JSON.stringify(pairingData, null, 2)}\n`);
  return HomeKitController.connect(hb, pairingData);
}

/** Connects with the pairing stored by `pairController` in the same storage dir (e.g. from a new test after a restart). */
export async function connectController(hb: Pick<HomebridgeProcess, 'username' | 'port' | 'storageDir'>): Promise<HomeKitController> {
  const pairingData = JSON.parse(await readFile(path.join(hb.storageDir, pairingFile(hb.username)), 'utf8')) as PairingData;
  return HomeKitController.connect(hb, pairingData);
}

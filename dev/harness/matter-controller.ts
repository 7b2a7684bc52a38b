// A real Matter controller (matter.js, the version Homebridge 2.4 runs) for the Matter tests: commissions a bridge from its manual
// pairing code, lists the bridged doors, unlocks and locks, records attribute reports with their arrival time, and reconnects.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Environment, Logger, LogLevel } from '@matter/main';
import { BooleanState, BridgedDeviceBasicInformation, DoorLock, GeneralCommissioning } from '@matter/main/clusters';
import { ManualPairingCodeCodec, Status, StatusResponseError } from '@matter/main/types';
import type { NodeId } from '@matter/main/types';
import { CommissioningController } from '@project-chip/matter.js';
import { NodeStates } from '@project-chip/matter.js/device';
import type { Endpoint, PairedNode } from '@project-chip/matter.js/device';

/** Matter device type ids the tests tell apart (Matter Device Library). */
export const MATTER_DEVICE_TYPE = { DoorLock: 0x000a, ContactSensor: 0x0015, BridgedNode: 0x0013, Aggregator: 0x000e } as const;
/** DoorLock lockState values (Matter DoorLock cluster, LockStateEnum). */
export const LOCK_STATE = DoorLock.LockState;
export type LockState = DoorLock.LockState;

/**
 * Where the controller first reaches the bridge's Matter port: Homebridge's Matter server listens on every interface, so
 * loopback; after commissioning, the controller finds the bridge by operational mDNS (hence the tests' veth pair).
 */
export const BRIDGE_HOST = '::1';
/** Commissioning: PASE, certificates, operational discovery over mDNS and the first full read fit well within this. */
export const COMMISSION_TIMEOUT_MS = 60_000;
/**
 * Tries of the first contact (PASE). A bridge just started can miss it (seen once in CI: "Could not connect to device"
 * after its ~6 s of retransmissions, with Homebridge up and the next try fine); a phone app simply tries again too.
 */
export const COMMISSION_ATTEMPTS = 3;
/** Between two tries of the first contact. */
export const COMMISSION_RETRY_PAUSE_MS = 1_000;
/** matter.js's words when PASE could not be established: the one failure worth another try. */
const NO_FIRST_CONTACT = 'Could not connect to device';
/** A connect or reconnect (operational discovery, CASE, the first subscription report). */
export const CONNECT_TIMEOUT_MS = 60_000;
/** One command or read. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Polls of `waitForDoor` and `waitForCommissioningInfo`. */
export const POLL_INTERVAL_MS = 100;
/** Default wait of `waitForDoor`. */
export const DEFAULT_WAIT_TIMEOUT_MS = 10_000;
/**
 * Subscription intervals asked of the bridge: a floor of 0 s sends every change at once (a door moved by someone else must
 * reach the controller within a second), the ceiling keeps the session alive between changes.
 */
export const SUBSCRIBE_MIN_INTERVAL_S = 0;
export const SUBSCRIBE_MAX_INTERVAL_S = 30;
/** The fabric label the controller writes on the bridge (Matter caps it at 32 characters). */
const FABRIC_LABEL = 'Matter test controller';

/** What Homebridge writes for the UI once its Matter server runs: `<storage>/matter/<bridge username without colons>/commissioning.json`. */
export interface CommissioningInfo {
  qrCode: string;
  manualPairingCode: string;
  commissioned: boolean;
}

/** Where Homebridge keeps the commissioning info of the bridge `username` (main or child bridge) in `storageDir`. */
export function commissioningFile(storageDir: string, username: string): string {
  return path.join(storageDir, 'matter', username.replace(/:/g, '').toUpperCase(), 'commissioning.json');
}

function parseCommissioningInfo(text: string): CommissioningInfo {
  const raw: unknown = JSON.parse(text);
  if (typeof raw !== 'object' || raw === null) throw new Error(`commissioning.json is not an object: ${text}`);
  const { qrCode, manualPairingCode, commissioned } = raw as Record<string, unknown>;
  if (typeof qrCode !== 'string' || typeof manualPairingCode !== 'string' || typeof commissioned !== 'boolean') {
    throw new Error(`commissioning.json lacks qrCode, manualPairingCode or commissioned: ${text}`);
  }
  return { qrCode, manualPairingCode, commissioned };
}

/** Waits until Homebridge's Matter server of the bridge has written its commissioning info, and returns it. */
export async function waitForCommissioningInfo(
  storageDir: string,
  username: string,
  timeoutMs = CONNECT_TIMEOUT_MS,
): Promise<CommissioningInfo> {
  const file = commissioningFile(storageDir, username);
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      return parseCommissioningInfo(await readFile(file, 'utf8'));
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `${file} did not appear within ${timeoutMs} ms (${lastError instanceof Error ? lastError.message : String(lastError)})`,
      );
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

/** One bridged device as the controller sees it (an endpoint under the bridge's aggregator). */
export interface MatterDoor {
  endpoint: number;
  /** BridgedDeviceBasicInformation nodeLabel: the name a Matter app shows. */
  name: string;
  serialNumber: string | undefined;
  reachable: boolean;
  /** Device types of the endpoint besides BridgedNode (which every bridged endpoint has), e.g. [MATTER_DEVICE_TYPE.DoorLock]. */
  deviceTypes: number[];
  /** DoorLock lockState (null: not fully locked / unknown), undefined when the endpoint has no DoorLock. */
  lockState: LockState | null | undefined;
  /** BooleanState stateValue (ContactSensor: true = contact, i.e. closed), undefined when the endpoint has none. */
  contact: boolean | undefined;
}

/** An attribute report as it arrived. */
export interface AttributeReport {
  endpoint: number;
  cluster: string;
  attribute: string;
  value: unknown;
  /** Date.now() when it arrived. */
  at: number;
}

/** A command's answer: success, or the Matter status the bridge answered with. */
export type CommandResult = { ok: true } | { ok: false; status: Status; statusName: string; message: string };

export interface MatterControllerOptions {
  /** Keeps the controller's fabric and the commissioned node; default a new temp dir (removed by `close({ removeStorage: true })`). */
  storageDir?: string;
  /** matter.js log level; default error (its warnings are about the test setup: test vendor, no BLE, no IPv4 multicast). */
  logLevel?: LogLevel;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function withTimeout<T>(what: string, promise: Promise<T>, timeoutMs: number): Promise<T> {
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

/** Status's own name for a code (e.g. "InvalidInState"); the reverse lookup misses for codes newer than this matter.js. */
const STATUS_NAMES: Readonly<Record<number, string | undefined>> = Status;

function statusName(status: Status): string {
  return STATUS_NAMES[status] ?? `status ${status}`;
}

/** A commissioned Matter controller: one fabric, one bridge node. */
export class MatterController {
  private readonly reports: AttributeReport[] = [];
  private readonly listeners = new Set<(report: AttributeReport) => void>();
  private stopped = false;

  private constructor(
    private controller: CommissioningController,
    private node: PairedNode,
    readonly nodeId: NodeId,
    readonly storageDir: string,
    private readonly ownStorage: boolean,
    private readonly logLevel: LogLevel | undefined,
  ) {
    this.watch(node);
  }

  /**
   * Commissions the bridge whose manual pairing code is given (as a phone app does from the code), connects, and waits for
   * the first full read. `port` is the bridge's Matter port: tried first, before discovery by mDNS.
   */
  static async commission(manualPairingCode: string, port: number, options: MatterControllerOptions = {}): Promise<MatterController> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await MatterController.commissionOnce(manualPairingCode, port, options);
      } catch (err) {
        if (attempt >= COMMISSION_ATTEMPTS || !(err instanceof Error) || !err.message.includes(NO_FIRST_CONTACT)) throw err;
        // Said, so a bridge that often misses the first contact shows in the test output.
        console.log(`[matter] commissioning try ${attempt} of ${COMMISSION_ATTEMPTS}: ${err.message}; trying again`);
        await sleep(COMMISSION_RETRY_PAUSE_MS);
      }
    }
  }

  /** One try: a fresh controller (and storage, unless given) that commissions, or is closed again. */
  private static async commissionOnce(
    manualPairingCode: string,
    port: number,
    options: MatterControllerOptions,
  ): Promise<MatterController> {
    const { storageDir, ownStorage } = await prepareStorage(options);
    const controller = await startController(storageDir, options.logLevel);
    try {
      const { shortDiscriminator, passcode } = ManualPairingCodeCodec.decode(manualPairingCode);
      const nodeId = await withTimeout(
        'commissioning',
        controller.commissionNode({
          commissioning: {
            regulatoryLocation: GeneralCommissioning.RegulatoryLocationType.IndoorOutdoor,
            regulatoryCountryCode: 'XX',
          },
          discovery: {
            identifierData: shortDiscriminator === undefined ? {} : { shortDiscriminator },
            knownAddress: { ip: BRIDGE_HOST, port, type: 'udp' },
          },
          passcode,
        }),
        COMMISSION_TIMEOUT_MS,
      );
      const node = await connectNode(controller, nodeId);
      return new MatterController(controller, node, nodeId, storageDir, ownStorage, options.logLevel);
    } catch (err) {
      await controller.close();
      if (ownStorage) await rm(storageDir, { recursive: true, force: true });
      throw err;
    }
  }

  /** True while the controller's session with the bridge is up. */
  get connected(): boolean {
    return this.node.connectionState === NodeStates.Connected;
  }

  /** Every attribute report received so far, oldest first. */
  attributeReports(): readonly AttributeReport[] {
    return this.reports;
  }

  /** Calls `listener` with every attribute report from now on; returns the function that stops it. */
  onReport(listener: (report: AttributeReport) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private watch(node: PairedNode): void {
    node.events.attributeChanged.on(({ path: { endpointId, clusterId, attributeName }, value }) => {
      const report: AttributeReport = {
        endpoint: Number(endpointId),
        cluster: clusterName(clusterId),
        attribute: attributeName,
        value: value as unknown,
        at: Date.now(),
      };
      this.reports.push(report);
      for (const listener of this.listeners) listener(report);
    });
  }

  /** The bridged devices (endpoints carrying BridgedDeviceBasicInformation), read from the controller's subscribed copy. */
  doors(): MatterDoor[] {
    const doors: MatterDoor[] = [];
    for (const endpoint of allEndpoints(this.node)) {
      const info = endpoint.getClusterClient(BridgedDeviceBasicInformation);
      if (info === undefined) continue;
      const lock = endpoint.getClusterClient(DoorLock);
      const contact = endpoint.getClusterClient(BooleanState);
      doors.push({
        endpoint: endpoint.getNumber(),
        name: info.getNodeLabelAttributeFromCache() ?? '',
        serialNumber: info.getSerialNumberAttributeFromCache(),
        reachable: info.getReachableAttributeFromCache() ?? false,
        deviceTypes: endpoint
          .getDeviceTypes()
          .map((type) => Number(type.code))
          .filter((code) => code !== MATTER_DEVICE_TYPE.BridgedNode),
        lockState: lock === undefined ? undefined : lock.getLockStateAttributeFromCache(),
        contact: contact === undefined ? undefined : contact.getStateValueAttributeFromCache(),
      });
    }
    return doors.sort((a, b) => a.endpoint - b.endpoint);
  }

  /** The bridged door whose name or serial number is `nameOrSerial`; throws with the list when there is none. */
  door(nameOrSerial: string): MatterDoor {
    const doors = this.doors();
    const found = doors.find((d) => d.name === nameOrSerial || d.serialNumber === nameOrSerial);
    if (found === undefined) {
      throw new Error(
        `No bridged device named or with serial "${nameOrSerial}". Devices:\n  ${doors.map((d) => `${d.endpoint}: ${d.name} / ${String(d.serialNumber)}`).join('\n  ')}`,
      );
    }
    return found;
  }

  /** Waits until the door (by name or serial) exists and `predicate` holds for it, then returns it; rejects with the last seen. */
  async waitForDoor(
    nameOrSerial: string,
    predicate: (door: MatterDoor) => boolean = () => true,
    timeoutMs = DEFAULT_WAIT_TIMEOUT_MS,
  ): Promise<MatterDoor> {
    const deadline = Date.now() + timeoutMs;
    let last: MatterDoor | string = 'nothing yet';
    for (;;) {
      try {
        const door = this.door(nameOrSerial);
        if (predicate(door)) return door;
        last = door;
      } catch (err) {
        last = err instanceof Error ? err.message : String(err);
      }
      if (Date.now() >= deadline) {
        throw new Error(`waitForDoor "${nameOrSerial}": condition not met within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
      }
      await sleep(POLL_INTERVAL_MS);
    }
  }

  /** Reads a door's lockState from the bridge itself (not the subscribed copy). */
  async readLockState(endpoint: number): Promise<LockState | null> {
    return withTimeout(`read lockState of endpoint ${endpoint}`, this.lockClient(endpoint).getLockStateAttribute(true), REQUEST_TIMEOUT_MS);
  }

  /** Reads a bridged device's reachable from the bridge itself (not the subscribed copy, which a busy machine may leave behind). */
  async readReachable(endpoint: number): Promise<boolean | undefined> {
    const found = allEndpoints(this.node).find((e) => e.getNumber() === endpoint);
    const client = found?.getClusterClient(BridgedDeviceBasicInformation);
    if (client === undefined) throw new Error(`endpoint ${endpoint} has no BridgedDeviceBasicInformation cluster`);
    return withTimeout(`read reachable of endpoint ${endpoint}`, client.getReachableAttribute(true), REQUEST_TIMEOUT_MS);
  }

  /** Sends DoorLock unlockDoor; a Matter error status comes back as `{ ok: false, status }`. */
  unlockDoor(endpoint: number): Promise<CommandResult> {
    return this.command(`unlockDoor on endpoint ${endpoint}`, () => this.lockClient(endpoint).unlockDoor(new DoorLock.UnlockDoorRequest()));
  }

  /** Sends DoorLock lockDoor; a Matter error status comes back as `{ ok: false, status }`. */
  lockDoor(endpoint: number): Promise<CommandResult> {
    return this.command(`lockDoor on endpoint ${endpoint}`, () => this.lockClient(endpoint).lockDoor(new DoorLock.LockDoorRequest()));
  }

  private lockClient(endpoint: number) {
    const found = allEndpoints(this.node).find((e) => e.getNumber() === endpoint);
    const client = found?.getClusterClient(DoorLock);
    if (client === undefined) throw new Error(`endpoint ${endpoint} has no DoorLock cluster`);
    return client;
  }

  private async command(what: string, send: () => Promise<void>): Promise<CommandResult> {
    try {
      await withTimeout(what, send(), REQUEST_TIMEOUT_MS);
      return { ok: true };
    } catch (err) {
      if (err instanceof StatusResponseError) {
        return { ok: false, status: err.code, statusName: statusName(err.code), message: err.message };
      }
      throw err;
    }
  }

  /**
   * Closes the controller (its storage stays), as when the phone app is closed. Do it before stopping the bridge: closing
   * once the bridge is gone waits for its sessions to time out (~14 s).
   */
  async disconnect(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.controller.close();
  }

  /**
   * Starts a new controller on the same storage (its fabric and the commissioned node) and connects to the bridge without
   * commissioning again: what a phone does after the bridge restarted. Reports keep accumulating.
   */
  async reconnect(): Promise<void> {
    await this.disconnect();
    this.controller = await startController(this.storageDir, this.logLevel);
    this.stopped = false;
    if (!this.controller.isNodeCommissioned(this.nodeId)) {
      throw new Error(`the controller storage in ${this.storageDir} no longer holds node ${String(this.nodeId)}`);
    }
    this.node = await connectNode(this.controller, this.nodeId);
    this.watch(this.node);
  }

  /** Closes the sessions and the controller; the storage stays unless asked (a temp dir made here is removed with it). */
  async close(opts: { removeStorage?: boolean } = {}): Promise<void> {
    this.listeners.clear();
    await this.disconnect();
    if (opts.removeStorage ?? this.ownStorage) await rm(this.storageDir, { recursive: true, force: true });
  }
}

async function prepareStorage(options: MatterControllerOptions): Promise<{ storageDir: string; ownStorage: boolean }> {
  if (options.storageDir !== undefined) return { storageDir: options.storageDir, ownStorage: false };
  return { storageDir: await mkdtemp(path.join(tmpdir(), 'matter-controller-')), ownStorage: true };
}

async function startController(storageDir: string, logLevel: LogLevel | undefined): Promise<CommissioningController> {
  Logger.level = logLevel ?? LogLevel.ERROR;
  // The default environment reads its storage root lazily: pointing it at this dir before start keeps the fabric there.
  const environment = Environment.default;
  environment.vars.set('storage.path', storageDir);
  const controller = new CommissioningController({
    environment: { environment, id: 'controller' },
    autoConnect: false,
    adminFabricLabel: FABRIC_LABEL,
  });
  await controller.start();
  return controller;
}

async function connectNode(controller: CommissioningController, nodeId: NodeId): Promise<PairedNode> {
  const node = await controller.getNode(nodeId);
  node.connect({
    subscribeMinIntervalFloorSeconds: SUBSCRIBE_MIN_INTERVAL_S,
    subscribeMaxIntervalCeilingSeconds: SUBSCRIBE_MAX_INTERVAL_S,
  });
  // Polled rather than awaited as events: a reconnecting node may have emitted them before this line runs.
  const deadline = Date.now() + CONNECT_TIMEOUT_MS;
  while (node.connectionState !== NodeStates.Connected || !node.remoteInitializationDone) {
    if (Date.now() >= deadline) {
      throw new Error(`node ${String(nodeId)} not connected within ${CONNECT_TIMEOUT_MS} ms (state ${NodeStates[node.connectionState]})`);
    }
    await sleep(POLL_INTERVAL_MS);
  }
  return node;
}

function allEndpoints(node: PairedNode): Endpoint[] {
  const out: Endpoint[] = [];
  const visit = (endpoint: Endpoint): void => {
    out.push(endpoint);
    for (const child of endpoint.getChildEndpoints()) visit(child);
  };
  for (const device of node.getDevices()) visit(device);
  return out;
}

const CLUSTER_NAMES = new Map<number, string>([
  [DoorLock.id, 'DoorLock'],
  [BooleanState.id, 'BooleanState'],
  [BridgedDeviceBasicInformation.id, 'BridgedDeviceBasicInformation'],
]);

function clusterName(id: number): string {
  return CLUSTER_NAMES.get(id) ?? `0x${id.toString(16).padStart(4, '0')}`;
}

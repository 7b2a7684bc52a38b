// AccessControlSimulator: a real HTTP server implementing the whole cloud contract, with test controls.
import { randomUUID } from 'node:crypto';
import { sampleAccount, SAMPLE_ACCOUNT_USER } from './account.js';
import { AccountState } from './account-state.js';
import type { ApiContext } from './api-routes.js';
import {
  DEFAULT_EXTERNAL_CHANNEL,
  DEFAULT_HARDWARE_NAME,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_TRAVEL_TIME_MS,
  DEFAULT_WEBHOOK_HEADER_NAME,
  API_CHANNEL,
} from './constants.js';
import { syncBody } from './contract.js';
import type { SimulatorControls } from './control-routes.js';
import { answerFailure, dispatch } from './dispatch.js';
import type { DispatchContext, RecordedRequest } from './dispatch.js';
import { FaultTable } from './faults.js';
import type { FaultOptions, FaultScope, SimFault } from './faults.js';
import { HistoryLog } from './history.js';
import { SimHttpServer } from './http-server.js';
import { buildDoorStateChangeEvent, buildEnforcerEvent, eventInputFromChange } from './webhook-event.js';
import type { EnforcerSample } from './webhook-event.js';
import { PendingWaits } from './waits.js';
import { WebhookSender } from './webhook-sender.js';
import type {
  DoorChange,
  ExternalChange,
  HistoryShape,
  PendingTravelInfo,
  RawWebhookHeaders,
  RawWebhookResponse,
  SeedHistoryEvent,
  SimDevice,
  SimDoor,
  SimDoorState,
  SimHistoryEvent,
  SimulatorOptions,
  SimUser,
  WebhookDelivery,
  WebhookEvent,
  WebhookTarget,
} from './types.js';

// The simulator's public face: the sample account and its makers, and every type of it (types.ts) its users name.
export * from './account.js';
export type { FaultOptions, FaultScope, SimEndpoint, SimFault } from './faults.js';
export type { RecordedRequest } from './dispatch.js';
export type { EnforcerSample } from './webhook-event.js';
export { ENFORCER_SAMPLES } from './webhook-event.js';
export type * from './types.js';

export class AccessControlSimulator implements SimulatorControls {
  /** Every API request received (control-interface requests are not recorded). */
  readonly requests: RecordedRequest[] = [];
  private readonly http = new SimHttpServer();
  private accessToken: string;
  private outage = false;
  private readonly now: () => number;
  private readonly accountUser: SimUser;
  private readonly history = new HistoryLog();
  private historyShape: HistoryShape;
  private readonly faults = new FaultTable();
  private readonly waits = new PendingWaits();
  private readonly webhooks = new WebhookSender();
  private readonly state: AccountState;
  private readonly dispatchContext: DispatchContext;

  constructor(private readonly opts: SimulatorOptions) {
    this.accessToken = opts.accessToken;
    this.now = opts.now ?? Date.now;
    this.accountUser = opts.accountUser ?? SAMPLE_ACCOUNT_USER;
    this.historyShape = opts.history ?? {};
    this.webhooks.target = opts.webhook ?? null;
    this.state = new AccountState({
      devices: opts.devices ?? sampleAccount(),
      travelTimeMs: opts.travelTimeMs ?? DEFAULT_TRAVEL_TIME_MS,
      now: this.now,
      accountUser: this.accountUser,
      history: this.history,
      onChange: (change) => this.onDoorChange(change),
    });
    const api: ApiContext = {
      state: this.state,
      history: this.history,
      hardwareName: opts.hardwareName ?? DEFAULT_HARDWARE_NAME,
      now: this.now,
      historyShape: () => this.historyShape,
    };
    this.dispatchContext = {
      api,
      controls: this,
      faults: this.faults,
      waits: this.waits,
      requests: this.requests,
      outage: () => this.outage,
      accessToken: () => this.accessToken,
      strictHeaders: opts.strictHeaders ?? true,
    };
  }

  async start(): Promise<void> {
    await this.http.start(this.opts.host ?? DEFAULT_HOST, this.opts.port ?? DEFAULT_PORT, (req, res) => {
      dispatch(this.dispatchContext, req, res).catch((error: unknown) => answerFailure(req, res, error));
    });
  }

  /** e.g. `http://127.0.0.1:54321` (no trailing slash). */
  get baseUrl(): string {
    return this.http.baseUrl;
  }

  /** Closes every socket (keep-alive and hanging ones too), cancels door travel and webhook deliveries. */
  async stop(): Promise<void> {
    this.state.stop();
    this.waits.stop();
    this.webhooks.stop();
    await this.http.stop();
  }

  // ---- account and doors ----

  /** The live account (mutations show up in the next sync). */
  get devices(): SimDevice[] {
    return this.state.devices;
  }

  /** The live door object, or undefined. */
  getDoor(doorId: string): SimDoor | undefined {
    return this.state.findDoor(doorId)?.door;
  }

  /** A change made outside HomeKit (keypad, remote): recorded in history, webhook unless silent. */
  setDoorState(doorId: string, state: SimDoorState, options: ExternalChange = {}): void {
    this.state.setDoorState(doorId, state, {
      channel: options.channel ?? DEFAULT_EXTERNAL_CHANNEL,
      user: options.user ?? this.accountUser,
      silent: options.silent ?? false,
      dateText: options.dateText,
    });
  }

  /**
   * Toggles of this door answer `status` (with the contract's message) and do not move it; a 2xx (202, 204 with no body)
   * moves it as 200 does, only the answer differs. null restores normal.
   */
  setToggleOutcome(doorId: string, status: number | null): void {
    this.state.setToggleOutcome(doorId, status);
  }

  setDeviceActive(deviceId: string, active: boolean): void {
    this.state.requireDevice(deviceId).active = active;
  }

  /** The door's new name in the account, as if renamed in the service's app (shows up in the next sync). */
  renameDoor(doorId: string, name: string): void {
    this.state.requireDoor(doorId).door.name = name;
  }

  setBatteryLevel(doorId: string, level: number): void {
    this.state.requireDoor(doorId).door.batteryLevel = level;
  }

  addDoor(deviceId: string, door: SimDoor): void {
    this.state.addDoor(deviceId, door);
  }

  removeDoor(doorId: string): void {
    this.state.removeDoor(doorId);
  }

  setTravelTime(travelTimeMs: number): void {
    this.state.travelTimeMs = travelTimeMs;
  }

  pendingTravels(): PendingTravelInfo[] {
    return this.state.pendingTravels();
  }

  /** Changes how the toggle history is written from the next request on (its order, dates, zone, controller histories). */
  setHistoryShape(shape: HistoryShape): void {
    this.historyShape = { ...shape };
  }

  /** Adds a past event to history (e.g. to test date filtering) without touching door state. */
  addHistoryEvent(event: SeedHistoryEvent): void {
    const { device, door } = this.state.requireDoor(event.doorId);
    this.history.add({
      doorId: door.id,
      deviceId: device.id,
      doorName: door.name,
      doorState: event.doorState,
      channel: event.channel ?? DEFAULT_EXTERNAL_CHANNEL,
      user: event.user ?? this.accountUser,
      wasSuccess: event.wasSuccess ?? true,
      at: event.at,
      ...(event.dateText === undefined ? {} : { dateText: event.dateText }),
    });
  }

  historyEvents(): readonly SimHistoryEvent[] {
    return this.history.all();
  }

  // ---- service behaviour ----

  /** The old token gets 401 from now on. */
  setAccessToken(token: string): void {
    this.accessToken = token;
  }

  setFault(endpoint: FaultScope, fault: SimFault | null, options?: FaultOptions): void {
    this.faults.set(endpoint, fault, options);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /** While on, every API request's socket is destroyed without an answer (control interface keeps working). */
  setOutage(on: boolean): void {
    this.outage = on;
  }

  /** Requests whose path ends with `pathSuffix` (trailing slashes ignored). */
  countRequests(pathSuffix: string): number {
    const suffix = stripTrailingSlash(pathSuffix);
    return this.requests.filter((request) => stripTrailingSlash(request.path).endsWith(suffix)).length;
  }

  // ---- webhooks ----

  setWebhook(target: WebhookTarget | null): void {
    this.webhooks.target = target;
  }

  /** Completed deliveries (each has a status or an error), in completion order. */
  get webhookDeliveries(): WebhookDelivery[] {
    return this.webhooks.deliveries;
  }

  /** Resolves when every webhook sent so far has been answered or has failed. */
  flushWebhooks(): Promise<void> {
    return this.webhooks.flush();
  }

  /** A door_state_change event for the door's current state, in the configured spelling, with overrides merged in. */
  buildWebhookEvent(doorId: string, overrides: WebhookEvent = {}): WebhookEvent {
    const { device, door } = this.state.requireDoor(doorId);
    const event = buildDoorStateChangeEvent(
      {
        toggleId: randomUUID(),
        doorId: door.id,
        doorState: door.state,
        channel: API_CHANNEL,
        deviceId: device.id,
        at: new Date(this.now()),
        ownerUserId: device.ownerUserId,
        user: this.accountUser,
      },
      this.webhooks.spelling,
    );
    return { ...event, ...overrides };
  }

  /**
   * An enforcer event (an unauthorized user or vehicle) at a door, or at a controller only (`deviceId`), in the
   * configured spelling, with overrides merged in. The user sample names the door's controller too.
   */
  buildEnforcerEvent(sample: EnforcerSample, where: { doorId: string } | { deviceId: string }, overrides: WebhookEvent = {}): WebhookEvent {
    const device = 'doorId' in where ? this.state.requireDoor(where.doorId).device : this.state.requireDevice(where.deviceId);
    const event = buildEnforcerEvent(
      sample,
      {
        doorId: 'doorId' in where ? where.doorId : undefined,
        deviceId: device.id,
        at: new Date(this.now()),
        ownerUserId: device.ownerUserId,
      },
      this.webhooks.spelling,
    );
    return { ...event, ...overrides };
  }

  /** Delivers an enforcer event to the webhook target (recorded in webhookDeliveries), as the service would. */
  sendEnforcerEvent(sample: EnforcerSample, where: { doorId: string } | { deviceId: string }): WebhookEvent {
    const event = this.buildEnforcerEvent(sample, where);
    this.webhooks.deliver(event);
    return event;
  }

  /** Posts any body to the webhook target with the key header; `null` in headers removes a header. Not recorded. */
  sendRawWebhook(body: string | object, headers?: RawWebhookHeaders): Promise<RawWebhookResponse> {
    return this.webhooks.sendRaw(body, headers);
  }

  /** JSON view for the control interface. */
  snapshot(): unknown {
    return {
      outage: this.outage,
      travelTimeMs: this.state.travelTimeMs,
      webhook: describeWebhook(this.webhooks.target),
      toggleOutcomes: this.state.toggleOutcomes(),
      pendingTravels: this.state.pendingTravels(),
      ...syncBody(this.state.devices, this.historyShape.zoneOffsetMinutes),
    };
  }

  private onDoorChange(change: DoorChange): void {
    if (!change.silent) {
      this.webhooks.deliver(buildDoorStateChangeEvent(eventInputFromChange(change), this.webhooks.spelling));
    }
  }
}

/** The webhook target without its key (the control interface is unauthenticated). */
function describeWebhook(target: WebhookTarget | null): unknown {
  return (
    target && {
      url: target.url,
      headerName: target.headerName ?? DEFAULT_WEBHOOK_HEADER_NAME,
      spelling: target.spelling ?? 'example',
    }
  );
}

function stripTrailingSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

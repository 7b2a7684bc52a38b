// Real-time door states: runs the webhook listener and routes each event it accepts: to a door, an access alert or the log.
import type { DoorState } from '../client/types.js';
import type { WebhookConfig } from '../config/index.js';
import type { ReportOutcome } from '../door/model/state-machine.js';
import type { ReservedPort } from '../util/homebridge-ports.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { RecentIds } from '../util/recent-ids.js';
import { WEBHOOK_SEEN_IDS_MAX, WEBHOOK_TEST_EVENT_TYPE } from '../settings.js';
import { clean } from '../webhook/event.js';
import type { WebhookEvent } from '../webhook/event.js';
import type { WebhookReceiver } from '../webhook/receiver.js';
import type { WebhookLog } from '../webhook/receiver.js';
import { AccessAlertLog } from './access-alert-log.js';
import type { RealtimeDoor } from './realtime-door.js';
import { couldNotStart, openListener } from './webhook-listener.js';
import { WebhookWatch } from './webhook-watch.js';

export interface RealtimeDeps {
  log: WebhookLog;
  config: WebhookConfig;
  /** Text no webhook body may pass on besides the API key (the access token). */
  secrets?: readonly string[];
  /** The door a webhook names, by door id or by controller and door number. */
  findDoor: (event: WebhookEvent) => RealtimeDoor | undefined;
  /** The doors an enforcer event is about: the door it names, else every door of the controller it names. */
  alertDoors?: (event: WebhookEvent) => RealtimeDoor[];
  now: () => number;
  /** Sets the timer that logs the count of a flood of enforcer events; the real clock by default. */
  clock?: Clock;
  /** The ports Homebridge listens on, read from its config; `complete` is false when config.json could not be read. */
  reservedPorts?: () => Promise<{ ports: ReservedPort[]; complete: boolean }>;
  /** How often the plugin polls, for the log: the user's poll interval, and the safety-net interval while webhooks arrive. */
  pollIntervals?: { normalS: number; safetyNetS: number };
  /** Webhooks may be lost (the listener refused a connection): polling should go back to its normal pace now, not at the next poll. */
  onWebhooksAtRisk?: () => void;
  /** Settles once Homebridge's bridge has surely taken its port (after the first sync): the fallback when its port is unknown. */
  bridgeUp?: Promise<void>;
  /** A door-state event moved (or confirmed) a door this bridge shows: the person sensors take who it names. */
  doorEvent?: (door: RealtimeDoor, event: WebhookEvent & { doorState: DoorState }) => void;
}

export class RealtimeUpdates {
  private receiver: WebhookReceiver | undefined;
  private readonly seenIds = new RecentIds(WEBHOOK_SEEN_IDS_MAX);
  /** Whether webhooks arrive, which sets the pace of polling. */
  private readonly watch: WebhookWatch;
  /** The enforcer events' lines and access alerts. */
  private readonly alerts: AccessAlertLog;
  /** Set by stop(): a start() still waiting must not open the port after Homebridge shut down. */
  private stopped = false;

  constructor(private readonly deps: RealtimeDeps) {
    this.watch = new WebhookWatch({
      log: deps.log,
      now: deps.now,
      port: deps.config.port,
      pollIntervals: deps.pollIntervals,
      onWebhooksAtRisk: deps.onWebhooksAtRisk,
    });
    this.alerts = new AccessAlertLog({
      log: deps.log,
      now: deps.now,
      clock: deps.clock ?? SYSTEM_CLOCK,
      alertDoors: deps.alertDoors,
      stopped: () => this.stopped,
    });
  }

  /** Webhooks are known to arrive, so polling can slow down to the safety-net interval. */
  get flowing(): boolean {
    return this.receiver !== undefined && this.watch.arriving;
  }

  /** Starts the listener; a failure is logged and the plugin carries on by polling. Never rejects: nothing here may stop Homebridge. */
  async start(): Promise<void> {
    try {
      const receiver = await openListener({
        log: this.deps.log,
        config: this.deps.config,
        secrets: this.deps.secrets,
        reservedPorts: this.deps.reservedPorts,
        bridgeUp: this.deps.bridgeUp,
        onEvent: (event) => this.apply(event),
        onConnectionRefused: () => this.watch.connectionRefused(),
        refusedAdvice: `the plugin polls ${this.watch.pace('normalS')} until webhooks arrive again`,
        stopped: () => this.stopped,
      });
      if (!receiver) {
        return;
      }
      this.receiver = receiver;
      if (this.stoppedMeanwhile()) {
        await this.stop();
      }
    } catch (error) {
      couldNotStart(this.deps.log, error instanceof Error ? error.message : String(error));
    }
  }

  /** Read through a call: stop() may run while start() awaits, which the type checker's narrowing of the field cannot see. */
  private stoppedMeanwhile(): boolean {
    return this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.alerts.stop();
    await this.receiver?.stop();
    this.receiver = undefined;
  }

  /** A sync failed: polling goes back to its normal pace until a webhook is applied again (see WebhookWatch.syncFailed). */
  syncFailed(): void {
    this.watch.syncFailed();
  }

  /** What a poll found for a door: a change no webhook told of must be confirmed by one soon. */
  notePolled(door: RealtimeDoor, outcome: ReportOutcome | undefined): void {
    if (this.receiver) {
      this.watch.notePolled(door, outcome);
    }
  }

  /** After each sync: warn when changes stay unconfirmed past the grace period, and poll at full pace again. */
  checkMissed(): void {
    this.watch.checkMissed();
  }

  /** Applies one authenticated webhook event (the listener calls this): each id once, door states in order. */
  apply(event: WebhookEvent): void {
    const { log } = this.deps;
    if (this.stopped) {
      // Homebridge shut down meanwhile: no door may change, no timer start.
      log.debug(`Webhook dropped, the plugin is stopping: ${event.summary}`);
      return;
    }
    if (event.id !== undefined && !this.seenIds.add(event.id)) {
      log.debug(`Webhook ${clean(event.id)} came again; applied once.`);
      return;
    }
    if (event.eventType === WEBHOOK_TEST_EVENT_TYPE) {
      // The settings page's test proves the listener and key work here, not that the service reaches us: polling keeps its pace.
      log.info('Webhook test from the settings page received; the listener and its API key work.');
      return;
    }
    this.watch.delivered();
    if (event.kind === 'enforcer') {
      this.alerts.alert(event);
      return;
    }
    if (event.kind !== 'door-state') {
      log.info(`Webhook: ${event.summary}`);
      return;
    }
    const door = this.deps.findDoor(event);
    if (!door || !event.doorState) {
      log.debug(`Webhook for a door this bridge does not show, or without a state; ignored: ${event.summary}`);
      return;
    }
    this.watch.confirmed(door);
    const outcome = door.applyEvent(event.doorState, event.occurredAtMs, whoMoved(event));
    if (outcome === 'stale') {
      log.debug(`Webhook older than the state ${door.name} shows; ignored: ${event.summary}`);
      return;
    }
    this.deps.doorEvent?.(door, { ...event, doorState: event.doorState });
  }
}

/** "Ada Lovelace, Keypad" from the webhook's userThatToggled and channel. */
function whoMoved(event: WebhookEvent): string {
  const person = [event.user?.firstName, event.user?.lastName].filter(Boolean).join(' ');
  return clean([person || undefined, event.channel].filter(Boolean).join(', ')) || 'by webhook';
}

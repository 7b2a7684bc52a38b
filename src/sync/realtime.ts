// Real-time door states: runs the webhook listener, applies its events to doors, and notices when webhooks stop arriving.
import { readFile } from 'node:fs/promises';

import type { DoorState } from '../client/types.js';
import type { WebhookConfig } from '../config/index.js';
import type { ReportOutcome } from '../door/model/state-machine.js';
import type { ReservedPort } from '../util/homebridge-ports.js';
import { SYSTEM_CLOCK } from '../util/clock.js';
import type { Clock } from '../util/clock.js';
import { listForLog } from '../util/log-text.js';
import { LogRateLimit } from '../util/log-rate-limit.js';
import { RecentIds } from '../util/recent-ids.js';
import {
  ACCESS_ALERT_LOG_PLACES_MAX,
  ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS,
  WEBHOOK_MISS_GRACE_MS,
  WEBHOOK_MISS_WARN_INTERVAL_MS,
  WEBHOOK_SEEN_IDS_MAX,
  WEBHOOK_TEST_EVENT_TYPE,
} from '../settings.js';
import { clean } from '../webhook/event.js';
import type { WebhookEvent } from '../webhook/event.js';
import type { WebhookReceiver } from '../webhook/receiver.js';
import type { WebhookLog } from '../webhook/receiver.js';

/** What real-time updates need of a door: its name for the log, and a way to apply a webhook's state. */
export interface RealtimeDoor {
  readonly name: string;
  /** The service's id of the door (the person sensors key each move by it). */
  readonly doorId?: string;
  /** Applies a state pushed by webhook; 'stale' when the event is older than one already applied. */
  applyEvent(state: DoorState, occurredAtMs: number | undefined, who: string): ReportOutcome | 'stale';
  /** An enforcer event names the door: its access alert detects; false when it has none. Never moves the door. */
  alertAccess?(): boolean;
}

/** Said after every reason the listener cannot start, so the user knows what still works. */
const STOPPED_ADVICE = 'webhooks are off, the plugin carries on by polling';

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
  /** Doors a poll found changed, and when: a webhook should confirm each soon. */
  private readonly unconfirmed = new Map<RealtimeDoor, number>();
  /** True once an authenticated event arrived since the last sign that webhooks are missing. */
  private arriving = false;
  private lastMissWarningMs = Number.NEGATIVE_INFINITY;
  /** True from a connection the full listener refused until the next webhook is applied. */
  private refusedSinceDelivery = false;
  /** Set by stop(): a start() still waiting must not open the port after Homebridge shut down. */
  private stopped = false;
  /**
   * Enforcer event lines, per place ('' for none): the first in full, the rest of a flood counted. Bounded: a place is
   * a door or a controller of this bridge, or none.
   */
  private readonly alertLogs = new Map<string, AlertLog>();

  constructor(private readonly deps: RealtimeDeps) {}

  /** Webhooks are known to arrive, so polling can slow down to the safety-net interval. */
  get flowing(): boolean {
    return this.receiver !== undefined && this.arriving;
  }

  /** Starts the listener; a failure is logged and the plugin carries on by polling. Never rejects: nothing here may stop Homebridge. */
  async start(): Promise<void> {
    try {
      await this.startListener();
    } catch (error) {
      this.couldNotStart(error instanceof Error ? error.message : String(error));
    }
  }

  /** The one line for a listener that cannot start: why, and what still works. */
  private couldNotStart(reason: string): void {
    this.deps.log.error(`The webhook listener could not start: ${reason}; ${STOPPED_ADVICE}.`);
  }

  private async startListener(): Promise<void> {
    const { config, log } = this.deps;
    if (!(await this.portIsOurs())) {
      return;
    }
    let tls: { cert: Buffer; key: Buffer } | undefined;
    try {
      tls =
        config.tlsCertFile && config.tlsKeyFile
          ? { cert: await readFile(config.tlsCertFile), key: await readFile(config.tlsKeyFile) }
          : undefined;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? String(error);
      this.couldNotStart(`the TLS certificate or key file cannot be read (${code})`);
      return;
    }
    try {
      // Loaded here, not at the top: the HTTP(S) server, its connection caps and request reading are only for setups
      // with a listener, and importing them costs every other bridge time and memory at start-up (BENCHMARKS.md, 9).
      const { WebhookReceiver } = await import('../webhook/receiver.js');
      const receiver = new WebhookReceiver({
        port: config.port,
        host: config.host,
        path: config.path,
        apiKey: config.apiKey,
        secrets: this.deps.secrets,
        headerName: config.headerName,
        tls,
        log,
        onEvent: (event) => this.apply(event),
        onConnectionRefused: () => this.connectionRefused(),
        refusedAdvice: `the plugin polls ${this.pace('normalS')} until webhooks arrive again`,
      });
      if (this.stopped) {
        return;
      }
      await receiver.start();
      this.receiver = receiver;
      if (this.stoppedMeanwhile()) {
        await this.stop();
      }
    } catch (error) {
      this.couldNotStart(error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * False (with one error line) when the webhook port is one Homebridge listens on: had the listener taken it first,
   * HAP-NodeJS would fail with EADDRINUSE and Homebridge would exit. When Homebridge's config cannot be read, the
   * listener waits until the bridge holds its port, so a clash fails the listener's own listen (one line) instead.
   */
  private async portIsOurs(): Promise<boolean> {
    const { config, log } = this.deps;
    const reserved = await this.deps.reservedPorts?.();
    const clash = reserved?.ports.find((taken) => taken.port === config.port);
    if (clash) {
      this.couldNotStart(`port ${config.port} is ${clash.owner}; choose another webhook port`);
      return false;
    }
    if (reserved && !reserved.complete) {
      log.debug(
        "Homebridge's config.json could not be read to check the webhook port; the listener starts after the first sync, once the bridge holds its port.",
      );
      await this.deps.bridgeUp;
    }
    return !this.stopped;
  }

  /** Read through a call: stop() may run while start() awaits, which the type checker's narrowing of the field cannot see. */
  private stoppedMeanwhile(): boolean {
    return this.stopped;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const entry of this.alertLogs.values()) {
      this.clock.clearTimeout(entry.timer);
      entry.timer = undefined;
    }
    await this.receiver?.stop();
    this.receiver = undefined;
  }

  /**
   * The full listener refused a connection, which may have carried a webhook: webhooks are no longer trusted to
   * arrive, so polling goes back to its normal pace until one is applied again. The listener logs the refusal itself.
   */
  private connectionRefused(): void {
    this.arriving = false;
    if (!this.refusedSinceDelivery) {
      // Once per stretch of refusals: a flood refused many times a second must not make the loop sync again and again.
      this.refusedSinceDelivery = true;
      this.deps.onWebhooksAtRisk?.();
    }
  }

  /**
   * A sync failed: the service may be down, and a service that is down sends no webhooks either, so the safety-net pace
   * would leave Home showing doors as they were for minutes. Polling goes back to its normal pace (and its back-off)
   * until a webhook is applied again.
   */
  syncFailed(): void {
    this.arriving = false;
  }

  /** "every 15 s", or words for a pace nobody told us of. */
  private pace(which: 'normalS' | 'safetyNetS'): string {
    const seconds = this.deps.pollIntervals?.[which];
    if (seconds === undefined) {
      return which === 'normalS' ? 'at its normal pace' : 'at its safety-net pace';
    }
    return `every ${seconds} s`;
  }

  /** What a poll found for a door: a change no webhook told of must be confirmed by one soon. */
  notePolled(door: RealtimeDoor, outcome: ReportOutcome | undefined): void {
    if (this.receiver && outcome === 'changed' && !this.unconfirmed.has(door)) {
      this.unconfirmed.set(door, this.deps.now());
    }
  }

  /** After each sync: warn when changes stay unconfirmed past the grace period, and poll at full pace again. */
  checkMissed(): void {
    const now = this.deps.now();
    const missed = [...this.unconfirmed].filter(([, sinceMs]) => now - sinceMs >= WEBHOOK_MISS_GRACE_MS);
    if (missed.length === 0) {
      return;
    }
    this.unconfirmed.clear();
    this.arriving = false;
    if (now - this.lastMissWarningMs >= WEBHOOK_MISS_WARN_INTERVAL_MS) {
      this.lastMissWarningMs = now;
      const names = missed.map(([door]) => door.name).join(', ');
      this.deps.log.warn(
        `Webhooks seem not to reach Homebridge: polling found ${names} changed and no webhook told of it. ` +
          `Check that the address given to the service is HTTPS, that it reaches port ${this.deps.config.port} ` +
          `(port forwarding, reverse proxy or tunnel), and that the API key matches. Polling keeps doors current meanwhile.`,
      );
    }
  }

  private get clock(): Clock {
    return this.deps.clock ?? SYSTEM_CLOCK;
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
    this.arriving = true;
    if (this.refusedSinceDelivery) {
      this.refusedSinceDelivery = false;
      log.info(
        `Webhooks arrive again after the full listener refused connections; the plugin polls ${this.pace('safetyNetS')} again, as a safety net.`,
      );
    }
    if (event.kind === 'enforcer') {
      this.alert(event);
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
    this.unconfirmed.delete(door);
    const outcome = door.applyEvent(event.doorState, event.occurredAtMs, whoMoved(event));
    if (outcome === 'stale') {
      log.debug(`Webhook older than the state ${door.name} shows; ignored: ${event.summary}`);
      return;
    }
    this.deps.doorEvent?.(door, { ...event, doorState: event.doorState });
  }

  /**
   * An enforcer event (an unauthorized user or vehicle): one info line with who, what and where, and the access alerts
   * of the doors it names detect. Info, not a warning: the plugin's warnings ask the user to fix something, and a busy
   * gate may see many such events; the motion sensor is what reaches the user. An event no alert can show gets one
   * debug line more, saying why. It never moves a door and says nothing of a door's state. In a flood, the alerts
   * detect for every event but the log counts them: see ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS.
   */
  private alert(event: WebhookEvent): void {
    const { log } = this.deps;
    const doors = this.deps.alertDoors?.(event) ?? [];
    const alerted = doors.filter((door) => door.alertAccess?.() === true);
    const where = doors.length > 0 ? ` at ${names(doors)}` : '';
    const place = doors.length > 0 ? { key: where, said: where } : unplacedPlace(event, doors);
    if (!this.mayLogAlert(place)) {
      // Each event still has its debug line from the listener ("Webhook: ...").
      return;
    }
    const detects = alerted.length === 0 ? '' : `; access alert detecting for ${names(alerted)}`;
    log.info(`Webhook: ${event.summary}${where}${detects}.`);
    if (alerted.length === 0) {
      log.debug(`No access alert shows this event: ${unplaced(event, doors)}.`);
    }
  }

  /** True when an enforcer event at `place` gets its own line; otherwise it is counted, and the count logged at the window's end. */
  private mayLogAlert(place: AlertPlace): boolean {
    const entry = this.alertLogs.get(place.key) ?? this.newAlertLog(place);
    if (entry.limit.take() !== undefined) {
      return true;
    }
    const counting = entry;
    counting.timer ??= this.clock.setTimeout(() => {
      counting.timer = undefined;
      const held = counting.limit.release();
      if (held > 0 && !this.stopped) {
        this.deps.log.info(`${held} more unauthorized-access event${held === 1 ? '' : 's'}${counting.said} in the last ${windowText()}.`);
      }
    }, counting.limit.msUntilOpen());
    return false;
  }

  /**
   * A place without a line in its window is as good as new, so those are forgotten first; past the cap (a sender naming
   * ever new unknown doors) the new place shares one count with the others.
   */
  private newAlertLog(place: AlertPlace): AlertLog {
    if (this.alertLogs.size >= ACCESS_ALERT_LOG_PLACES_MAX) {
      for (const [known, entry] of this.alertLogs) {
        if (entry.timer === undefined && entry.limit.msUntilOpen() === 0) {
          this.alertLogs.delete(known);
        }
      }
    }
    const shared: AlertPlace = this.alertLogs.size >= ACCESS_ALERT_LOG_PLACES_MAX ? { key: OVERFLOW_PLACE, said: '' } : place;
    let entry = this.alertLogs.get(shared.key);
    if (!entry) {
      entry = { limit: new LogRateLimit(ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS, this.deps.now), timer: undefined, said: shared.said };
      this.alertLogs.set(shared.key, entry);
    }
    return entry;
  }
}

/** "minute" for the window of ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS, as a user would say it. */
function windowText(): string {
  const seconds = Math.round(ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS / 1000);
  return seconds === 60 ? 'minute' : `${seconds} s`;
}

/** Where an enforcer event is, for counting a flood: `key` tells places apart, `said` is put in the count's line. */
interface AlertPlace {
  key: string;
  said: string;
}

/** The key of the one count places past ACCESS_ALERT_LOG_PLACES_MAX share (no real place key starts with a control character). */
const OVERFLOW_PLACE = '\u0000overflow';

/** An event no door of this bridge shows: counted apart per reason, so each unknown door or controller is said once. */
function unplacedPlace(event: WebhookEvent, doors: RealtimeDoor[]): AlertPlace {
  const why = unplaced(event, doors);
  return { key: `\u0001${why}`, said: ` that no access alert shows (${why})` };
}

/** The log lines of enforcer events at one place; `timer` is set while a count waits for the end of its window. */
interface AlertLog {
  limit: LogRateLimit;
  timer: unknown;
  /** The place as the count's line says it: " at Front Gate". */
  said: string;
}

/** Door names for one line: a controller with a hundred doors must not make a line of a hundred names. */
function names(doors: RealtimeDoor[]): string {
  return listForLog(doors.map((door) => door.name));
}

/** Why an enforcer event reaches no access alert. */
function unplaced(event: WebhookEvent, doors: RealtimeDoor[]): string {
  if (doors.length > 0) {
    return `the access alert is off for ${names(doors)}`;
  }
  if (event.doorId !== undefined) {
    return `this bridge shows no door ${clean(event.doorId)}`;
  }
  if (event.deviceId !== undefined) {
    return `this bridge shows no door of controller ${clean(event.deviceId)}`;
  }
  return 'it names no door or controller';
}

/** "Ada Lovelace, Keypad" from the webhook's userThatToggled and channel. */
function whoMoved(event: WebhookEvent): string {
  const person = [event.user?.firstName, event.user?.lastName].filter(Boolean).join(' ');
  return clean([person || undefined, event.channel].filter(Boolean).join(', ')) || 'by webhook';
}

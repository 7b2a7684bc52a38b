// Enforcer events in the log and at the doors: one line with who and where, the access alerts detecting, a flood counted.
import { ACCESS_ALERT_LOG_PLACES_MAX, ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS } from '../settings.js';
import type { Clock } from '../util/clock.js';
import { listForLog } from '../util/log-text.js';
import { LogRateLimit } from '../util/log-rate-limit.js';
import { clean } from '../webhook/event.js';
import type { WebhookEvent } from '../webhook/event.js';
import type { WebhookLog } from '../webhook/receiver.js';
import type { RealtimeDoor } from './realtime-door.js';

export interface AccessAlertLogDeps {
  log: WebhookLog;
  now: () => number;
  /** Sets the timer that logs the count of a flood of enforcer events. */
  clock: Clock;
  /** The doors an enforcer event is about: the door it names, else every door of the controller it names. */
  alertDoors?: ((event: WebhookEvent) => RealtimeDoor[]) | undefined;
  /** True once the plugin stopped: a count due after shutdown is not logged. */
  stopped: () => boolean;
}

export class AccessAlertLog {
  /**
   * Enforcer event lines, per place ('' for none): the first in full, the rest of a flood counted. Bounded: a place is
   * a door or a controller of this bridge, or none.
   */
  private readonly alertLogs = new Map<string, AlertLog>();

  constructor(private readonly deps: AccessAlertLogDeps) {}

  /**
   * An enforcer event (an unauthorized user or vehicle): one info line with who, what and where, and the access alerts
   * of the doors it names detect. Info, not a warning: the plugin's warnings ask the user to fix something, and a busy
   * gate may see many such events; the motion sensor is what reaches the user. An event no alert can show gets one
   * debug line more, saying why. It never moves a door and says nothing of a door's state. In a flood, the alerts
   * detect for every event but the log counts them: see ACCESS_ALERT_LOG_SUMMARY_INTERVAL_MS.
   */
  alert(event: WebhookEvent): void {
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

  /** Homebridge shuts down: no count waits for its window any more. */
  stop(): void {
    for (const entry of this.alertLogs.values()) {
      this.deps.clock.clearTimeout(entry.timer);
      entry.timer = undefined;
    }
  }

  /** True when an enforcer event at `place` gets its own line; otherwise it is counted, and the count logged at the window's end. */
  private mayLogAlert(place: AlertPlace): boolean {
    const entry = this.alertLogs.get(place.key) ?? this.newAlertLog(place);
    if (entry.limit.take() !== undefined) {
      return true;
    }
    const counting = entry;
    counting.timer ??= this.deps.clock.setTimeout(() => {
      counting.timer = undefined;
      const held = counting.limit.release();
      if (held > 0 && !this.deps.stopped()) {
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

// Whether webhooks arrive: polling slows to its safety net while they do, and goes back to its pace at any sign they may not.
import type { ReportOutcome } from '../door/model/state-machine.js';
import { WEBHOOK_MISS_GRACE_MS, WEBHOOK_MISS_WARN_INTERVAL_MS } from '../settings.js';
import type { WebhookLog } from '../webhook/receiver.js';
import type { RealtimeDoor } from './realtime-door.js';

export interface WebhookWatchDeps {
  log: WebhookLog;
  now: () => number;
  /** The listener's port, for the warning that webhooks seem not to reach it. */
  port: number;
  /** How often the plugin polls, for the log: the user's poll interval, and the safety-net interval while webhooks arrive. */
  pollIntervals?: { normalS: number; safetyNetS: number } | undefined;
  /** Webhooks may be lost (the listener refused a connection): polling should go back to its normal pace now, not at the next poll. */
  onWebhooksAtRisk?: (() => void) | undefined;
}

export class WebhookWatch {
  /** Doors a poll found changed, and when: a webhook should confirm each soon. */
  private readonly unconfirmed = new Map<RealtimeDoor, number>();
  /** True once an authenticated event arrived since the last sign that webhooks are missing. */
  private arrivingNow = false;
  private lastMissWarningMs = Number.NEGATIVE_INFINITY;
  /** True from a connection the full listener refused until the next webhook is applied. */
  private refusedSinceDelivery = false;

  constructor(private readonly deps: WebhookWatchDeps) {}

  /** An authenticated event arrived since the last sign that webhooks are missing. */
  get arriving(): boolean {
    return this.arrivingNow;
  }

  /** A webhook (not the settings page's test) was applied: webhooks arrive, and are said to again after refusals. */
  delivered(): void {
    this.arrivingNow = true;
    if (this.refusedSinceDelivery) {
      this.refusedSinceDelivery = false;
      this.deps.log.info(
        `Webhooks arrive again after the full listener refused connections; the plugin polls ${this.pace('safetyNetS')} again, as a safety net.`,
      );
    }
  }

  /**
   * The full listener refused a connection, which may have carried a webhook: webhooks are no longer trusted to
   * arrive, so polling goes back to its normal pace until one is applied again. The listener logs the refusal itself.
   */
  connectionRefused(): void {
    this.arrivingNow = false;
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
    this.arrivingNow = false;
  }

  /** "every 15 s", or words for a pace nobody told us of. */
  pace(which: 'normalS' | 'safetyNetS'): string {
    const seconds = this.deps.pollIntervals?.[which];
    if (seconds === undefined) {
      return which === 'normalS' ? 'at its normal pace' : 'at its safety-net pace';
    }
    return `every ${seconds} s`;
  }

  /** What a poll found for a door while the listener runs: a change no webhook told of must be confirmed by one soon. */
  notePolled(door: RealtimeDoor, outcome: ReportOutcome | undefined): void {
    if (outcome === 'changed' && !this.unconfirmed.has(door)) {
      this.unconfirmed.set(door, this.deps.now());
    }
  }

  /** A webhook told of the door: nothing of it waits for confirmation. */
  confirmed(door: RealtimeDoor): void {
    this.unconfirmed.delete(door);
  }

  /** After each sync: warn when changes stay unconfirmed past the grace period, and poll at full pace again. */
  checkMissed(): void {
    const now = this.deps.now();
    const missed = [...this.unconfirmed].filter(([, sinceMs]) => now - sinceMs >= WEBHOOK_MISS_GRACE_MS);
    if (missed.length === 0) {
      return;
    }
    this.unconfirmed.clear();
    this.arrivingNow = false;
    if (now - this.lastMissWarningMs >= WEBHOOK_MISS_WARN_INTERVAL_MS) {
      this.lastMissWarningMs = now;
      const names = missed.map(([door]) => door.name).join(', ');
      this.deps.log.warn(
        `Webhooks seem not to reach Homebridge: polling found ${names} changed and no webhook told of it. ` +
          `Check that the address given to the service is HTTPS, that it reaches port ${this.deps.port} ` +
          `(port forwarding, reverse proxy or tunnel), and that the API key matches. Polling keeps doors current meanwhile.`,
      );
    }
  }
}

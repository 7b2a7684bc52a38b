// Builds a RealtimeUpdates with a counting logger and reaches its private parts (apply, seenIds, unconfirmed, receiver) for tests.
import type { Logging } from 'homebridge';

import type { GarageDoorAccessory } from '../../src/accessories/garage-door.js';
import type { WebhookConfig } from '../../src/config.js';
import { RealtimeUpdates } from '../../src/realtime.js';
import type { RecentIds } from '../../src/recent-ids.js';
import type { WebhookEvent } from '../../src/webhook/event.js';
import type { WebhookReceiver } from '../../src/webhook/receiver.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Counts lines per level; keeps only the last of each, so a long run does not grow it. */
export class CountingLog {
  readonly counts: Record<LogLevel, number> = { debug: 0, info: 0, warn: 0, error: 0 };
  readonly last: Partial<Record<LogLevel, string>> = {};
  /** Lines matching this are counted in `matched`. */
  matched = 0;

  constructor(private readonly watch?: RegExp) {}

  private line(level: LogLevel, message: string): void {
    this.counts[level] += 1;
    this.last[level] = message;
    if (this.watch?.test(message)) {
      this.matched += 1;
    }
  }

  get logging(): Logging {
    return {
      debug: (m: string) => this.line('debug', m),
      info: (m: string) => this.line('info', m),
      warn: (m: string) => this.line('warn', m),
      error: (m: string) => this.line('error', m),
      log: (_level: string, m: string) => this.line('info', m),
      success: (m: string) => this.line('info', m),
    } as unknown as Logging;
  }
}

/** The private state of RealtimeUpdates a test needs to see. */
export interface RealtimeInternals {
  receiver: WebhookReceiver | object | undefined;
  seenIds: RecentIds;
  unconfirmed: Map<GarageDoorAccessory, number>;
  apply(event: WebhookEvent): void;
}

export interface RealtimeHarness {
  realtime: RealtimeUpdates;
  internals: RealtimeInternals;
  log: CountingLog;
}

export function makeRealtime(options: {
  config?: Partial<WebhookConfig>;
  findDoor: (event: WebhookEvent) => GarageDoorAccessory | undefined;
  now: () => number;
  watch?: RegExp;
}): RealtimeHarness {
  const log = new CountingLog(options.watch);
  const realtime = new RealtimeUpdates({
    log: log.logging,
    config: { port: 1, apiKey: 'a'.repeat(96), headerName: 'X-Service-API-Key', reconcileInterval: 300, ...options.config },
    findDoor: options.findDoor,
    now: options.now,
  });
  return { realtime, internals: realtime as unknown as RealtimeInternals, log };
}

/** Private fields of RecentIds, to check it stays within its capacity. */
export function recentIdsSize(ids: RecentIds): { order: number; seen: number; capacity: number } {
  const inside = ids as unknown as { order: string[]; seen: Set<string>; capacity: number };
  return { order: inside.order.length, seen: inside.seen.size, capacity: inside.capacity };
}

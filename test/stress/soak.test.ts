// Soak: 100,000 polls and webhooks on a simulated clock through the pure and state parts; every collection they keep stays bounded.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { describe, expect, it, onTestFinished } from 'vitest';

import { parseSync } from '../../src/client/schemas.js';
import type { DoorState } from '../../src/client/types.js';
import type { ReportOutcome } from '../../src/door/model/state-machine.js';
import { IncidentLog } from '../../src/util/incident-log.js';
import { RecentIds } from '../../src/util/recent-ids.js';
import {
  ACTIVE_POLL_INTERVAL_MS,
  BACKOFF_JITTER_RATIO,
  MAX_BACKOFF_MS,
  WEBHOOK_MISS_WARN_INTERVAL_MS,
  WEBHOOK_SEEN_IDS_MAX,
} from '../../src/settings.js';
import { makeDevice, makeDoor } from '../../dev/simulator/account.js';
import { syncBody } from '../../dev/simulator/contract.js';
import { nextSyncDelayMs } from '../../src/sync/schedule.js';
import { parseWebhookEvent } from '../../src/webhook/event.js';
import type { WebhookEvent } from '../../src/webhook/event.js';
import { captureLog } from '../support/log.js';
import { seededRandom } from '../support/random.js';
import { collectionSizes, OrderedDoor, startRealtime, webhookEvent } from '../support/realtime-harness.js';

const ITERATIONS = 100_000;
/** Collection sizes are sampled this often; a leak of even one entry per iteration shows as 50,000 more in the second half. */
const SAMPLE_EVERY = 1_000;
const WARM_UP = 5_000;
const POLL_MS = 15_000;
const DEVICES = 5;
const DOORS_PER_DEVICE = 2;
const DOORS = DEVICES * DOORS_PER_DEVICE;
/** Far above anything seen (a few MB at most); only a real leak of tens of bytes per iteration gets there. */
const HEAP_GROWTH_LIMIT_BYTES = 50 * 1024 * 1024;
/** Log lines held by the log doubles (they count every line); holding all would be the growth this test looks for. */
const KEPT_LOG_LINES = 5;

/** A real gc() when the process allows one: --expose-gc, or the same flag set now and read from a fresh context. */
function findGc(): (() => void) | undefined {
  const existing = (globalThis as { gc?: unknown }).gc;
  if (typeof existing === 'function') {
    return existing as () => void;
  }
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    setFlagsFromString('--no-expose-gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

function heapAfterGc(gc: (() => void) | undefined): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** A realistic account: five controllers with two doors each, as the service would send it. */
function accountBody(): { devices: { doors: { state: DoorState }[] }[] } {
  const devices = Array.from({ length: DEVICES }, (_, d) =>
    makeDevice({
      softwareVersion: '2.4.1',
      doors: Array.from({ length: DOORS_PER_DEVICE }, (_, k) =>
        makeDoor({ name: `Door ${d}-${k}`, entityNumber: k + 1, bluetoothSensor: k === 0, batteryLevel: 80 }),
      ),
    }),
  );
  return JSON.parse(JSON.stringify(syncBody(devices))) as { devices: { doors: { state: DoorState }[] }[] };
}

describe('a long run on a simulated clock', () => {
  // The timeout only guards a hung run on a loaded machine; nothing here measures time.
  it('keeps every collection bounded over 100,000 polls and webhooks', { timeout: 60_000 }, async () => {
    const random = seededRandom(3);
    const clock = { now: 1_700_000_000_000 };
    const now = (): number => clock.now;
    const body = accountBody();
    const doorIds = body.devices.flatMap((device) => device.doors.map((door) => (door as unknown as { id: string }).id));
    const doors = new Map(doorIds.map((id, i) => [id, new OrderedDoor(`Door ${i}`, 'CLOSED', now)]));
    // A listener that started: only then do polls expect webhooks (as in test/realtime.test.ts).
    const { realtime, log } = await startRealtime({
      findDoor: (event: WebhookEvent) => (event.doorId === undefined ? undefined : doors.get(event.doorId)),
      now,
      keepLines: KEPT_LOG_LINES,
    });
    onTestFinished(() => realtime.stop());
    const ids = new RecentIds(WEBHOOK_SEEN_IDS_MAX);
    const incidentLines = captureLog({ keep: KEPT_LOG_LINES });
    const incidents = new IncidentLog(incidentLines);
    const doorList = [...doors.values()];
    const roots = { realtime, ids, incidents, incidentLines, log, doors: doorList };
    // expect() in a 100,000-turn loop costs seconds; problems are gathered (a few) and asserted once.
    const problems: string[] = [];
    const check = (ok: boolean, problem: string): void => {
      if (!ok && problems.length < 10) problems.push(problem);
    };

    const gc = findGc();
    let heapAtWarmUp = 0;
    const firstHalfMax = new Map<string, number>();
    const secondHalfMax = new Map<string, number>();
    let failedSyncs = 0;
    let expectedIncidentErrors = 0;
    let expectedIncidentInfos = 0;
    let failing = false;
    let moving = 0;
    let outcomes = 0;

    for (let i = 0; i < ITERATIONS; i += 1) {
      clock.now += POLL_MS;

      // Someone moves a door outside HomeKit; most of the time a webhook tells of it first.
      const d = Math.floor(random() * DOORS);
      const wire = body.devices[Math.floor(d / DOORS_PER_DEVICE)]?.doors[d % DOORS_PER_DEVICE];
      if (wire && random() < 0.3) {
        wire.state = wire.state === 'OPEN' ? 'CLOSED' : 'OPEN';
        if (random() < 0.95) {
          const event = parseWebhookEvent({
            id: `evt-${i}`,
            eventType: 'door_state_change',
            doorID: doorIds[d],
            doorState: wire.state,
            eventOccurred: Math.floor(clock.now / 1000),
            channel: 'Keypad',
            userThatToggled: { firstName: 'Ada', lastName: 'Lovelace' },
          });
          if ('error' in event) check(false, `webhook ${i} unreadable: ${event.error}`);
          else realtime.apply(event);
        }
      }
      // A repeated id now and then: applied once.
      if (i % 97 === 0 && i > 0) {
        realtime.apply(webhookEvent({ id: `evt-${i - 1}` }));
      }

      // Now and then HomeKit asks for a movement, which arrives or times out.
      const door = doorList[d];
      if (door && !door.model.isMoving && random() < 0.02) {
        door.model.startMovement(door.model.reported === 'OPEN' ? 'CLOSED' : 'OPEN');
      }

      // The poll.
      const failed = random() < 0.05;
      if (failed) {
        failedSyncs += 1;
        if (!failing) expectedIncidentErrors += 1;
        failing = true;
        incidents.report('network', 'The account could not be synced: connection refused. Retrying with back-off.');
      } else {
        failedSyncs = 0;
        if (failing) expectedIncidentInfos += 1;
        failing = false;
        incidents.resolve('The account can be read again; door states are current.');
        const account = parseSync(body);
        if (account instanceof Error) throw account;
        check(account.unreadable.length === 0 && account.devices.length === DEVICES, `poll ${i} read ${account.devices.length} devices`);
        let k = 0;
        for (const device of account.devices) {
          for (const polled of device.doors) {
            const target = doors.get(polled.id);
            k += 1;
            if (!target || polled.state === null) continue;
            const outcome: ReportOutcome | undefined = target.model.reportPolled(polled, clock.now);
            outcomes += 1;
            realtime.notePolled(target, outcome);
          }
        }
        check(k === DOORS, `poll ${i} read ${k} doors`);
        realtime.checkMissed();
      }
      moving = 0;
      for (const each of doors.values()) {
        each.model.tick();
        if (each.model.isMoving) moving += 1;
      }

      // When the next poll runs.
      const retryAfterMs = failed && random() < 0.1 ? Math.floor(random() * 600_000) : undefined;
      const delay = nextSyncDelayMs({ pollIntervalMs: POLL_MS, failedSyncs, retryAfterMs, doorMoving: moving > 0, random: random() });
      if (failedSyncs === 0) {
        check(delay === (moving > 0 ? Math.min(ACTIVE_POLL_INTERVAL_MS, POLL_MS) : POLL_MS), `delay ${delay} after a good poll`);
      } else {
        const low = Math.min(POLL_MS, MAX_BACKOFF_MS) * (1 - BACKOFF_JITTER_RATIO) - 1;
        const high = Math.max(MAX_BACKOFF_MS * (1 + BACKOFF_JITTER_RATIO) + 1, retryAfterMs ?? 0);
        check(delay >= low && delay <= high && delay >= (retryAfterMs ?? 0), `delay ${delay} after ${failedSyncs} failures`);
      }

      // A seen-ids memory fed only new ids.
      check(ids.add(`id-${i}`), `id-${i} was new`);
      if (i > 0 && i % 10 === 0) check(!ids.add(`id-${i - 1}`), `id-${i - 1} was just seen`);

      if (i === WARM_UP) heapAtWarmUp = heapAfterGc(gc);
      if (i % SAMPLE_EVERY === 0) {
        const into = i < ITERATIONS / 2 ? firstHalfMax : secondHalfMax;
        for (const [path, size] of collectionSizes(roots)) {
          into.set(path, Math.max(into.get(path) ?? 0, size));
        }
      }
    }

    expect(problems).toEqual([]);

    // Explicit bounds of the structures meant to be bounded.
    const sizes = collectionSizes(roots);
    expect({ order: sizes.get('ids.order'), seen: sizes.get('ids.seen'), capacity: ids.capacity }).toEqual({
      order: WEBHOOK_SEEN_IDS_MAX,
      seen: WEBHOOK_SEEN_IDS_MAX,
      capacity: WEBHOOK_SEEN_IDS_MAX,
    });
    expect(sizes.get('realtime.seenIds.order')).toBeLessThanOrEqual(WEBHOOK_SEEN_IDS_MAX);
    expect(sizes.get('realtime.seenIds.seen')).toBe(sizes.get('realtime.seenIds.order'));
    expect(sizes.get('realtime.watch.unconfirmed')).toBeLessThanOrEqual(DOORS);

    // And nothing reachable grows: the second half never holds more than the first, beyond one entry per door of churn.
    expect([...secondHalfMax.keys()].sort()).toEqual([...firstHalfMax.keys()].sort());
    for (const [path, size] of secondHalfMax) {
      expect(size, path).toBeLessThanOrEqual((firstHalfMax.get(path) ?? 0) + DOORS);
      expect(size, path).toBeLessThanOrEqual(WEBHOOK_SEEN_IDS_MAX);
    }

    // The parts behaved, not only stayed small.
    expect(outcomes).toBeGreaterThan(ITERATIONS * DOORS * 0.9);
    expect(incidentLines.counts.error).toBe(expectedIncidentErrors);
    expect(incidentLines.counts.info).toBe(expectedIncidentInfos);
    const simulatedMs = ITERATIONS * POLL_MS;
    expect(log.counts.warn).toBeGreaterThan(0);
    expect(log.counts.warn).toBeLessThanOrEqual(Math.ceil(simulatedMs / WEBHOOK_MISS_WARN_INTERVAL_MS) + 1);
    expect(log.counts.error).toBe(0);

    const growth = heapAfterGc(gc) - heapAtWarmUp;
    console.log(
      `soak: heap ${growth >= 0 ? '+' : ''}${(growth / 1024 / 1024).toFixed(2)} MB over ${ITERATIONS - WARM_UP} iterations after warm-up` +
        (gc ? ' (after gc)' : ' (gc unavailable: not asserted)'),
    );
    if (gc) {
      expect(growth).toBeLessThan(HEAP_GROWTH_LIMIT_BYTES);
    }
  });
});

// Measurement 3: repeated bursts of valid webhooks against the listener; rate, answer times, nothing lost, Homebridge's memory.
import { readProcessMemory } from './process-memory.js';
import type { ProcessMemory } from './process-memory.js';
import { runBurst } from './burst.js';
import type { DoorOutcome } from './burst.js';
import type { Rig } from './rig.js';
import { summarize } from './stats.js';
import type { Summary } from './stats.js';

export type { DoorOutcome } from './burst.js';

/** Events per burst. */
export const THROUGHPUT_EVENTS = 2_000;
/** Requests in flight at any moment, one kept-alive connection each. */
export const THROUGHPUT_CONCURRENCY = 50;
/** Bursts run back to back: the first is reported as the cold figure, the last ones give the steady state. */
export const THROUGHPUT_ROUNDS = 8;
/** Bursts left out of the steady state: the rate climbs over the first few while V8 optimises the hot paths. */
export const THROUGHPUT_WARMUP_ROUNDS = 3;

export interface RoundResult {
  wallMs: number;
  perSecond: number;
  latency: Summary;
  non200: number;
  settleMs: number | undefined;
  doorsMatch: boolean;
  /** Homebridge's memory right after the burst was checked. */
  memory: ProcessMemory | undefined;
}

export interface SteadyState {
  rounds: number;
  /** Requests/s of each steady burst. */
  perSecond: Summary;
  /** Request sent → 200 received, over every request of the steady bursts. */
  latency: Summary;
}

export interface ThroughputResult {
  events: number;
  concurrency: number;
  rounds: RoundResult[];
  /** The first burst, on a listener that has only seen the latency phase's few events. */
  cold: RoundResult;
  /** The bursts after THROUGHPUT_WARMUP_ROUNDS. */
  steady: SteadyState;
  /** Over every burst. */
  non200: number;
  errors: string[];
  /** Every round ended with every door showing its last event. */
  nothingLost: boolean;
  /** The doors after the last round. */
  doors: DoorOutcome[];
  /** Homebridge log lines saying a door changed: events neither equal to the state shown nor overtaken by a newer one. */
  changesLogged: number;
  /** Homebridge log lines that tell of a failure. */
  problemsLogged: string[];
  memoryBefore: ProcessMemory | undefined;
  memoryAfter: ProcessMemory | undefined;
}

export async function measureThroughput(rig: Rig): Promise<ThroughputResult> {
  const { hb } = rig;
  const logMark = hb.lineCount();
  const memoryBefore = readProcessMemory(hb.pid);
  const rounds: RoundResult[] = [];
  const steadyLatencies: number[] = [];
  const errors = new Set<string>();
  let doors: DoorOutcome[] = [];
  let nextOccurredMs = Date.now();
  for (let round = 0; round < THROUGHPUT_ROUNDS; round += 1) {
    // Every event is newer than every earlier one, across rounds too.
    const firstOccurredMs = Math.max(Date.now(), nextOccurredMs);
    nextOccurredMs = firstOccurredMs + THROUGHPUT_EVENTS;
    const burst = await runBurst(rig, {
      events: THROUGHPUT_EVENTS,
      concurrency: THROUGHPUT_CONCURRENCY,
      firstOccurredMs,
      tag: `${firstOccurredMs.toString(36)}-${round}`,
    });
    if (round >= THROUGHPUT_WARMUP_ROUNDS) {
      steadyLatencies.push(...burst.latencies);
    }
    burst.errors.forEach((e) => errors.add(e));
    doors = burst.doors;
    rounds.push({
      wallMs: burst.wallMs,
      perSecond: burst.perSecond,
      latency: summarize(burst.latencies),
      non200: burst.non200,
      settleMs: burst.settleMs,
      doorsMatch: burst.doors.every((d) => d.matches),
      memory: readProcessMemory(hb.pid),
    });
  }
  const burstLog = hb.log().split('\n').slice(logMark);
  const cold = rounds[0];
  if (cold === undefined) {
    throw new Error('no burst was run');
  }
  const steadyRounds = rounds.slice(THROUGHPUT_WARMUP_ROUNDS);
  return {
    events: THROUGHPUT_EVENTS,
    concurrency: THROUGHPUT_CONCURRENCY,
    rounds,
    cold,
    steady: { rounds: steadyRounds.length, perSecond: summarize(steadyRounds.map((r) => r.perSecond)), latency: summarize(steadyLatencies) },
    non200: rounds.reduce((sum, r) => sum + r.non200, 0),
    errors: [...errors],
    nothingLost: rounds.every((r) => r.doorsMatch),
    doors,
    changesLogged: burstLog.filter((line) => / is now (open|closed) /.test(line)).length,
    problemsLogged: burstLog.filter((line) => /error|failed|refused|could not/i.test(line)),
    memoryBefore,
    memoryAfter: readProcessMemory(hb.pid),
  };
}

// Section 13 of BENCHMARKS.md: what the one gate costs (issue 49), in process: its answer at each command on a 149-door
// config, and the reading of protection at 2,000 doors and 10,000 ids that name none of them when a sync lists the same
// doors in another order (read again before issue 50, keyed on the set since) beside a reading made anew.
import { availableParallelism, loadavg } from 'node:os';

import { knownDoorMap, refusalFor } from '../../src/config/gate.js';
import type { KnownDoor } from '../../src/config/gate.js';
import { parseConfig } from '../../src/config/index.js';
import { protectionFor, readingKey } from '../../src/config/protection.js';
import { skeleton } from '../../src/util/skeleton.js';
import { timeRuns } from './probes.js';
import type { Summary } from './probes.js';
import { SUMMARY_HEADER, summaryRow } from './report.js';
import { uuidOf } from './settings.js';

export const GATE_TITLE = '## 13. The gate: its answer at each command, and protection when a sync reorders the doors';

/** Doors of one bridge, and the large account of section 11 with its ids that name no door. */
const DOORS = 149;
const ACCOUNT_DOORS = 2_000;
const UNMATCHED_ENTRIES = 10_000;
/** A gate's answer takes microseconds: many runs. A reading takes tens of milliseconds: fewer. */
const RUNS = 2_000;
const WARM_UP_RUNS = 200;
const READ_RUNS = 20;
const READ_WARM_UP_RUNS = 3;

export interface GateRuns {
  /** One command's answer, each door of the config in turn (read-only, excluded, hidden and plain ones). */
  command: Summary;
  /** A sync that lists the same doors in another order: the key of the reading, compared (no reading). */
  reordered: Summary;
  /** The reading made anew, as each such sync made it before. */
  reading: Summary;
}

const parsed = (raw: Record<string, unknown>) => {
  const result = parseConfig({ accessToken: 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b', baseUrl: 'https://api.example.com', ...raw });
  if (!result.ok) throw new Error(`the bench config does not run: ${result.problems.join('; ')}`);
  return result.config;
};

function measureCommand(): Summary {
  const doors: KnownDoor[] = Array.from({ length: DOORS }, (_, index) => ({ id: uuidOf(index), deviceId: `dev-${index % 10}` }));
  const config = parsed({
    excludeDoorIds: doors.slice(0, 10).map((door) => door.id),
    doors: doors.slice(10, 60).map((door, index) => ({ id: door.id, ...(index % 2 === 0 ? { readOnly: true } : { hide: true }) })),
  });
  const view = { config, protection: protectionFor(config, { doors }, skeleton), known: knownDoorMap(doors) };
  let next = 0;
  return timeRuns(() => refusalFor(view, doors[(next += 1) % DOORS]?.id ?? ''), RUNS, WARM_UP_RUNS);
}

export function measureGate(): GateRuns {
  const config = parsed({
    doors: Array.from({ length: UNMATCHED_ENTRIES }, (_, index) => ({ id: uuidOf(ACCOUNT_DOORS + index), readOnly: true })),
  });
  const doors = Array.from({ length: ACCOUNT_DOORS }, (_, index) => ({ id: uuidOf(index), deviceId: `dev-${index % 20}` }));
  const before = readingKey({ doors }, true);
  let turn = 0;
  // Each sync lists the doors in another order: rotated by one more door each time.
  const reordered = timeRuns(
    () => {
      turn += 1;
      return readingKey({ doors: [...doors.slice(turn % ACCOUNT_DOORS), ...doors.slice(0, turn % ACCOUNT_DOORS)] }, true) === before;
    },
    READ_RUNS * 5,
    READ_WARM_UP_RUNS,
  );
  const reading = timeRuns(() => protectionFor(config, { doors }, skeleton), READ_RUNS, READ_WARM_UP_RUNS);
  return { command: measureCommand(), reordered, reading };
}

const micros = (valueMs: number): string => (Number.isFinite(valueMs) ? `${(valueMs * 1000).toFixed(valueMs < 0.01 ? 1 : 0)} µs` : 'n/a');

export function gateSection(runs: GateRuns, when = new Date()): string[] {
  return [
    GATE_TITLE,
    '',
    `Measured ${when.toISOString()} on Node ${process.version}, in process (no Homebridge), at a load average of ${loadavg()[0]?.toFixed(1) ?? 'n/a'} on ${String(availableParallelism())} cores.`,
    `*Command* is the one gate every command asks (src/config/gate.ts, \`refusalFor\`): ${DOORS} doors, 10 excluded, 25 read-only and 25`,
    `hidden, each door asked in turn (${RUNS} runs after ${WARM_UP_RUNS}). *Reordered sync* is what a sync that lists the same ${ACCOUNT_DOORS.toLocaleString('en')}`,
    `doors in another order pays now (\`readingKey\`: the set of doors, sorted): the reading is kept. *Reading anew* is what each such sync`,
    `paid before, when the key was the doors in sync order: \`protectionFor\` with ${UNMATCHED_ENTRIES.toLocaleString('en')} read-only ids that name none of them.`,
    '',
    SUMMARY_HEADER,
    summaryRow(`Command: the gate's answer, ${DOORS} doors`, runs.command, micros),
    summaryRow(`Reordered sync, ${ACCOUNT_DOORS.toLocaleString('en')} doors: the key compared`, runs.reordered),
    summaryRow(
      `Reading anew, ${ACCOUNT_DOORS.toLocaleString('en')} doors × ${UNMATCHED_ENTRIES.toLocaleString('en')} unmatched ids`,
      runs.reading,
    ),
    '',
    `A reordered sync costs ${(runs.reordered.median / runs.reading.median).toFixed(3)}× a reading anew.`,
  ];
}

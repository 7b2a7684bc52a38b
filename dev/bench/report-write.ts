// Section 4 of BENCHMARKS.md: a HomeKit write (a tap in Home) timed to the toggle request at the service and to the write's answer.
import { ms, SUMMARY_HEADER, summaryRow } from './format.js';
import type { WriteLatencyResult } from './write-latency.js';
import { WRITE_WAIT_MS } from './write-latency.js';

export function writeSection(w: WriteLatencyResult, holdMs: number | undefined): string[] {
  const hold = holdMs === undefined ? "HAP-NodeJS's event hold" : `HAP-NodeJS's ${holdMs} ms event hold`;
  return [
    '## 4. HomeKit write → toggle request',
    '',
    `The paired controller writes TargetDoorState on ${w.doorName}, as the Home app does when you tap the door: ${w.samples} writes`,
    `(after ${w.warmup} warm-up ones), alternating OPEN and CLOSED, each once the door had arrived in HomeKit from the previous one`,
    `(simulator travel time ${w.travelTimeMs} ms; the arrival comes by the simulator's own webhook). Same bridge as section 1,`,
    'run between sections 1 and 3.',
    "The simulator runs in the bench's process, so its requests are timed on the same `performance.now()` clock as the write:",
    "Node's `http.server.request.start` diagnostics channel fires when the toggle POST's headers are parsed and",
    '`http.server.response.finish` when its answer is handed to the OS. The simulator\'s own `requests[].at` is `Date.now()`',
    '(ms since the epoch, whole ms) taken after the body is read; it is shown as a cross-check.',
    '',
    SUMMARY_HEADER,
    summaryRow('write sent → toggle POST at the simulator', w.toToggle),
    summaryRow('the same, from the simulator\'s `at` (whole ms)', w.toToggleAt),
    summaryRow('toggle POST served by the simulator', w.toggleServed),
    summaryRow('toggle answered → the write\'s answer at the controller', w.toggleToAnswer),
    summaryRow('**write sent → write answered** (round trip)', w.roundTrip),
    summaryRow('write sent → HomeKit shows the door arrived', w.arrived),
    '',
    `Writes missed (failed, no toggle, or no arrival within ${ms(WRITE_WAIT_MS)}): ${w.missed}. Every toggle answered 200: ${w.allAccepted ? 'yes' : '**no**'}.`,
    '',
    '**What it consists of.** *Write → toggle*: hap-controller encrypts the write, HAP-NodeJS decrypts and parses it and',
    "calls the plugin's `onSet`, which logs `Opening …` and posts the toggle over its kept-alive connection. The write is",
    'answered only after the service answered the toggle (Home is told *Opening…* once the service accepted the command,',
    'and a refusal reaches Home as a failed write), so the round trip is *write → toggle* + the service\'s own time + the way',
    `back; against a real cloud the service's time dominates it. The answer to a write is a response, not an event, so`,
    `${hold} does not apply to it; it does apply to the *arrived* row (door travel + webhook + hold).`,
    '',
  ];
}

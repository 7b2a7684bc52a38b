// A condition that comes and goes at every sync, said once per incident: start, first end, and a count once it settled.
import { describe, expect, it } from 'vitest';

import { FlapNotice } from '../../../../src/door/model/flap-notice.js';

const QUIET_MS = 1_000;

describe('FlapNotice', () => {
  it('says the start and the first end, counts the returns quietly, and sums them up once the condition stayed away', () => {
    const flap = new FlapNotice(QUIET_MS);
    const said = [
      flap.holds(0),
      flap.holds(10),
      flap.absent(20),
      flap.holds(30),
      flap.absent(40),
      flap.holds(50),
      flap.absent(60),
      flap.absent(60 + QUIET_MS - 1),
      flap.absent(60 + QUIET_MS),
    ];
    expect(said).toEqual([
      { kind: 'start' },
      undefined,
      { kind: 'end' },
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      { kind: 'settled', returns: 2, sinceMs: 0 },
    ]);
    // Over: the next one is a new incident.
    expect(flap.holds(5_000)).toEqual({ kind: 'start' });
  });

  it('ends an incident that never came back without a summary, and says nothing while nothing happened', () => {
    const flap = new FlapNotice(QUIET_MS);
    expect([flap.absent(0), flap.holds(1), flap.absent(2), flap.absent(2 + QUIET_MS), flap.absent(5_000)]).toEqual([
      undefined,
      { kind: 'start' },
      { kind: 'end' },
      undefined,
      undefined,
    ]);
  });
});

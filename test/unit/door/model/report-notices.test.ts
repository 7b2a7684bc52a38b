// What a door says of the service's reports, on plain objects and a simulated clock: each line's text, unreadable states
// and inactive flags once per incident with a count once settled, and both endings of a movement that timed out.
import { describe, expect, it } from 'vitest';

import type { DoorState } from '../../../../src/client/types.js';
import { ReportNotices } from '../../../../src/door/model/report-notices.js';
import { FLAP_QUIET_MS } from '../../../../src/settings.js';
import { captureLog } from '../../../support/log.js';

const TIMEOUT_MS = 60_000;

function setup() {
  const clock = { now: 1_000_000 };
  const log = captureLog();
  const door = { name: 'Front Gate' };
  const machine: { reported: DoorState; missedTarget: DoorState | undefined } = { reported: 'CLOSED', missedTarget: undefined };
  const notices = new ReportNotices({ log, now: () => clock.now, name: () => door.name, transitionTimeoutMs: TIMEOUT_MS, machine });
  return { notices, log, clock, door, machine };
}

describe('ReportNotices: what a report meant', () => {
  it('says a change with its cause and an arrival, nothing for a movement under way or no change, under the name shown now', () => {
    const t = setup();
    t.notices.reported('changed', 'OPEN', 'Ada Lovelace, Keypad', 'CLOSED');
    t.notices.reported('moving', 'CLOSED', 'changed outside HomeKit', 'OPEN');
    t.notices.reported('unchanged', 'CLOSED', 'changed outside HomeKit', 'CLOSED');
    t.door.name = 'Back Gate';
    t.notices.reported('arrived', 'CLOSED', 'changed outside HomeKit', 'CLOSED');
    expect(t.log.lines).toEqual([
      { level: 'info', text: 'Front Gate is now open (Ada Lovelace, Keypad).' },
      { level: 'info', text: 'Back Gate is closed.' },
    ]);
  });

  it('warns of an obstruction when a movement timed out, and says a door that opened and closed again by itself', () => {
    const t = setup();
    t.machine.missedTarget = 'OPEN';
    t.notices.reported('timed-out', 'CLOSED', 'changed outside HomeKit', 'OPEN');
    t.machine.missedTarget = undefined;
    t.notices.timedOut('OPEN');
    expect(t.log.lines).toEqual([
      {
        level: 'warn',
        text: 'Front Gate did not report open within 60 s; showing its last reported state (closed) and an obstruction until it reports open or gets a new command.',
      },
      {
        level: 'info',
        text: 'Front Gate did not report open within 60 s, but it moved since the command and closes by itself: it opened and closed again between two syncs. Showing it closed.',
      },
    ]);
  });
});

describe('ReportNotices: once per incident', () => {
  it('says an unreadable state once, and counts its returns once it has stayed away', () => {
    const t = setup();
    t.notices.unknownState('JAM\nMED', true);
    t.notices.unknownState('JAMMED', true);
    t.notices.stateRead();
    t.notices.unknownState('JAMMED', true);
    t.notices.stateRead();
    t.clock.now += FLAP_QUIET_MS - 1;
    t.notices.stateRead();
    expect(t.log.lines).toHaveLength(1);
    t.clock.now += 1;
    t.notices.stateRead();
    expect(t.log.texts('warn')).toEqual([
      'Front Gate: the service reported an unknown state "JAM MED"; keeping the last known state (CLOSED).',
    ]);
    expect(t.log.texts('info')).toEqual([
      expect.stringMatching(
        /^Front Gate: the service reported a state the plugin cannot read once more after \d\d:\d\d; it has reported open or closed for 30 minutes now\.$/,
      ),
    ]);
  });

  it('says when no earlier state is known that Home shows the state as unknown', () => {
    const t = setup();
    t.notices.unknownState(undefined, false);
    expect(t.log.texts('warn')).toEqual([
      'Front Gate: the service reported an unknown state "", and no earlier state is known; Home shows its state as unknown (a garage door: No Response) until the service reports open or closed.',
    ]);
  });

  it('says which part is inactive, its first end, and then only a count once it has stayed active', () => {
    const t = setup();
    t.notices.active(true, true);
    t.notices.active(false, true);
    t.notices.active(true, true);
    t.notices.active(true, false);
    t.notices.active(true, false);
    t.notices.active(true, true);
    t.clock.now += FLAP_QUIET_MS;
    t.notices.active(true, true);
    t.notices.active(true, false);
    expect(t.log.lines.map(({ level, text }) => `${level}: ${text}`)).toEqual([
      'warn: Front Gate shows No Response: the service reports its controller as inactive.',
      'info: Front Gate is active again.',
      expect.stringMatching(
        /^info: Front Gate went inactive once more after \d\d:\d\d \(No Response each time\); it has been active for 30 minutes now\.$/,
      ),
      'warn: Front Gate shows No Response: the service reports the door as inactive.',
    ]);
  });
});

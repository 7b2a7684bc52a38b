// What the plugin remembers of its own command, on plain objects and a simulated clock: a late move is ours once, within
// its time; a door told to open came back when last_toggled changed, or by auto-close after an answered command.
import { describe, expect, it } from 'vitest';

import type { DoorState } from '../../../../src/client/types.js';
import { CommandMemory } from '../../../../src/door/model/command-memory.js';
import { OWN_COMMAND_LATE_MS } from '../../../../src/settings.js';

function setup() {
  const clock = { now: 1_000_000 };
  const machine = { isMoving: false, reported: 'CLOSED' as DoorState, confirmedMovement: false };
  const timings = { closesByItself: false };
  const memory = new CommandMemory({ machine, timings, now: () => clock.now });
  return { memory, machine, timings, clock };
}

describe('CommandMemory: was this move ours', () => {
  it('takes a move to the commanded state within its time as ours, once', () => {
    const t = setup();
    t.memory.commanded('OPEN');
    t.clock.now += OWN_COMMAND_LATE_MS;
    expect(t.memory.ownLateMove('OPEN')).toBe(true);
    expect(t.memory.ownLateMove('OPEN')).toBe(false);
  });

  it("takes a move past its time, or to the other state, as someone else's, and forgets the command", () => {
    const late = setup();
    late.memory.commanded('OPEN');
    late.clock.now += OWN_COMMAND_LATE_MS + 1;
    expect(late.memory.ownLateMove('OPEN')).toBe(false);
    const other = setup();
    other.machine.reported = 'OPEN';
    other.memory.commanded('OPEN');
    expect(other.memory.ownLateMove('CLOSED')).toBe(false);
    other.machine.reported = 'CLOSED';
    expect(other.memory.ownLateMove('OPEN')).toBe(false);
  });

  it('judges nothing while the door moves or reports the state it had, and keeps the command for later', () => {
    const t = setup();
    t.memory.commanded('OPEN');
    t.machine.isMoving = true;
    expect(t.memory.ownLateMove('OPEN')).toBe(false);
    t.machine.isMoving = false;
    expect(t.memory.ownLateMove('CLOSED')).toBe(false);
    expect(t.memory.ownLateMove('OPEN')).toBe(true);
  });
});

describe('CommandMemory: did it move and come back', () => {
  it("says yes when the service's last_toggled changed since the command, no when it stayed", () => {
    const t = setup();
    t.memory.learnToggled('2026-01-01T10:00:00Z');
    t.memory.commanded('OPEN');
    expect(t.memory.movedAndBack('OPEN')).toBe(false);
    t.memory.learnToggled('2026-01-01T10:00:30Z');
    expect({ movedAndBack: t.memory.movedAndBack('OPEN'), text: t.memory.lastToggledText }).toEqual({
      movedAndBack: true,
      text: '2026-01-01T10:00:30Z',
    });
  });

  it('without last_toggled, says yes only for an answered command to a door that closes by itself', () => {
    const cases = [
      { closesByItself: false, confirmedMovement: false },
      { closesByItself: true, confirmedMovement: false },
      { closesByItself: false, confirmedMovement: true },
      { closesByItself: true, confirmedMovement: true },
    ];
    const answers = cases.map(({ closesByItself, confirmedMovement }) => {
      const t = setup();
      Object.assign(t.timings, { closesByItself });
      Object.assign(t.machine, { confirmedMovement });
      t.memory.commanded('OPEN');
      return t.memory.movedAndBack('OPEN');
    });
    expect(answers).toEqual([false, false, false, true]);
  });

  it('always shows a close that did not arrive, and an open the door did reach', () => {
    const t = setup();
    t.memory.learnToggled('2026-01-01T10:00:00Z');
    t.memory.commanded('CLOSED');
    t.memory.learnToggled('2026-01-01T10:00:30Z');
    expect(t.memory.movedAndBack('CLOSED')).toBe(false);
    t.machine.reported = 'OPEN';
    expect(t.memory.movedAndBack('OPEN')).toBe(false);
  });
});

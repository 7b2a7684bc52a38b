// The door state machine: what Home shows before, during and after a movement, and when the door moves by itself.
import { describe, expect, it } from 'vitest';

import { DoorStateMachine } from '../../../../src/door/model/state-machine.js';

const TIMEOUT_MS = 60_000;

describe('DoorStateMachine', () => {
  it('shows the reported state and takes outside changes as they come', () => {
    const door = new DoorStateMachine('CLOSED');
    expect(door.shown).toBe('CLOSED');
    expect(door.report('CLOSED', 0)).toBe('unchanged');
    expect(door.report('OPEN', 1)).toBe('changed');
    expect([door.shown, door.target]).toEqual(['OPEN', 'OPEN']);
  });

  it('shows OPENING until the door reports OPEN', () => {
    const door = new DoorStateMachine('CLOSED');
    door.startMovement('OPEN', 0, TIMEOUT_MS);
    expect([door.shown, door.target]).toEqual(['OPENING', 'OPEN']);
    expect(door.report('CLOSED', 2_000)).toBe('moving');
    expect(door.shown).toBe('OPENING');
    expect(door.report('OPEN', 4_000)).toBe('arrived');
    expect([door.shown, door.target, door.isMoving]).toEqual(['OPEN', 'OPEN', false]);
  });

  it('shows the real state again after the time-out, with or without a report', () => {
    const reported = new DoorStateMachine('OPEN');
    reported.startMovement('CLOSED', 0, TIMEOUT_MS);
    expect(reported.report('OPEN', TIMEOUT_MS)).toBe('timed-out');
    expect([reported.shown, reported.target]).toEqual(['OPEN', 'OPEN']);

    const silent = new DoorStateMachine('OPEN');
    silent.startMovement('CLOSED', 0, TIMEOUT_MS);
    expect(silent.expire(TIMEOUT_MS - 1)).toBe(false);
    expect(silent.expire(TIMEOUT_MS)).toBe(true);
    expect(silent.shown).toBe('OPEN');
  });

  it('knows when a command would change nothing', () => {
    const door = new DoorStateMachine('CLOSED');
    expect(door.isAlready('CLOSED')).toBe(true);
    expect(door.isAlready('OPEN')).toBe(false);
    door.startMovement('OPEN', 0, TIMEOUT_MS);
    expect(door.isAlready('OPEN')).toBe(true);
    expect(door.isAlready('CLOSED')).toBe(false);
  });

  it('remembers the target a movement missed until the door reports it, however many reports of the old state come', () => {
    const door = new DoorStateMachine('CLOSED');
    door.startMovement('OPEN', 0, TIMEOUT_MS);
    expect(door.missedTarget).toBeUndefined();
    expect(door.report('CLOSED', TIMEOUT_MS)).toBe('timed-out');
    expect(door.missedTarget).toBe('OPEN');
    expect(door.report('CLOSED', TIMEOUT_MS + 15_000)).toBe('unchanged');
    expect(door.missedTarget).toBe('OPEN');
    expect(door.report('OPEN', TIMEOUT_MS + 30_000)).toBe('changed');
    expect(door.missedTarget).toBeUndefined();

    const silent = new DoorStateMachine('OPEN');
    silent.startMovement('CLOSED', 0, TIMEOUT_MS);
    silent.expire(TIMEOUT_MS);
    expect(silent.missedTarget).toBe('CLOSED');
  });

  it('forgets a missed target at the next command, and never sets one for a movement that arrived', () => {
    const restored = new DoorStateMachine('CLOSED', 'OPEN');
    expect(restored.missedTarget).toBe('OPEN');
    restored.clearMissed();
    expect(restored.missedTarget).toBeUndefined();

    const retried = new DoorStateMachine('CLOSED', 'OPEN');
    retried.startMovement('OPEN', 0, TIMEOUT_MS);
    expect(retried.missedTarget).toBeUndefined();
    expect(retried.report('OPEN', 1_000)).toBe('arrived');
    expect(retried.expire(TIMEOUT_MS)).toBe(false);
    expect(retried.missedTarget).toBeUndefined();
  });
});

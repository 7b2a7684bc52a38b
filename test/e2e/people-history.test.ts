// Who came through without webhooks (issue 43), end to end: a real Homebridge with no webhook listener, the simulator
// writing its history with dates alone, a HomeKit controller reading each person's sensor. The history read at start
// names the first move after a restart; a look the door's pace holds back waits, so an open and a close 15 s apart
// detect twice, each for its mover.
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { hasValue } from '../../dev/harness/homekit-controller.js';
import type { CharRef } from '../../dev/harness/homekit-controller.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID, SAMPLE_PEOPLE } from '../../dev/simulator/server.js';
import { HISTORY_MIN_INTERVAL_PER_DOOR_MS } from '../../src/settings.js';
import { E2E_POLL_INTERVAL_S, platformEntry, RIG_WAIT_MS, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-8697fe130ce5';
/** Short, so two moves 15 s apart are two detections a controller can tell apart. */
const PERSON_SENSOR_S = 2;
/** The gap between an open and its close ("open, drive through, close"). */
const MOVES_APART_MS = 15_000;
/** A sync finds a move within a poll; its history look may wait for the door's pace; a shared machine adds some. */
const FOUND_WAIT_MS = E2E_POLL_INTERVAL_S * 1000 + HISTORY_MIN_INTERVAL_PER_DOOR_MS + 15_000;
const { grace, alan } = SAMPLE_PEOPLE;

const rig = useHomebridge({
  simulator: { accessToken: TOKEN, travelTimeMs: 500, history: { dates: 'date-only' } },
  // No webhook block: the person sensors live on syncs and the toggle history, as for most users.
  platforms: (sim) => [
    platformEntry(sim.baseUrl, TOKEN, {
      personSensorDuration: PERSON_SENSOR_S,
      people: [
        { name: 'Grace', user: grace.emailAddress },
        { name: 'Alan', user: alan.emailAddress },
      ],
    }),
  ],
  // Earlier today, before Homebridge started: Alan opened and closed each gate.
  beforeHomebridge: (sim) => {
    const hourAgo = Date.now() - 60 * 60_000;
    for (const doorId of [SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID]) {
      sim.addHistoryEvent({ doorId, doorState: 'OPEN', at: new Date(hourAgo), user: alan });
      sim.addHistoryEvent({ doorId, doorState: 'CLOSED', at: new Date(hourAgo + 30_000), user: alan });
    }
  },
  door: 'Grace',
});

const sensor = (name: string): Promise<CharRef> => rig.controller.findCharacteristic(name, 'MotionSensor', 'MotionDetected');
/** The "who moved it" lines (info: with the channel), not the sensors' debug lines. */
const movedLines = (): string[] => rig.wholeLog().match(/(?:Front Gate|Garage Door) was (?:opened|closed) by [^.(]+ \(Keypad\)\./g) ?? [];

describe('who came through without webhooks, on a history dated without a time', () => {
  it('names the first move after a restart on the right person’s sensor', async () => {
    await rig.restart();
    const [graceSensor, alanSensor] = [await sensor('Grace'), await sensor('Alan')];
    expect(Number(await rig.controller.read(graceSensor))).toBe(0);
    const mark = rig.hb.lineCount();
    rig.sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { user: grace, silent: true });
    await rig.controller.waitFor(hasValue(true), graceSensor, FOUND_WAIT_MS);
    await rig.hb.waitForLog(/Front Gate was opened by Grace Hopper \(Keypad\)\./, RIG_WAIT_MS, { fromLine: mark });
    expect(Number(await rig.controller.read(alanSensor))).toBe(0);
  });

  it('detects twice for an open and a close 15 s apart, each for the person who made it', async () => {
    const [graceSensor, alanSensor] = [await sensor('Grace'), await sensor('Alan')];
    // The detection of the test before has run out.
    await rig.controller.waitFor(hasValue(false), graceSensor, PERSON_SENSOR_S * 1000 + RIG_WAIT_MS);
    const edges: Record<string, number[]> = { Grace: [], Alan: [] };
    const names = new Map([
      [`${graceSensor.aid}.${graceSensor.iid}`, 'Grace'],
      [`${alanSensor.aid}.${alanSensor.iid}`, 'Alan'],
    ]);
    const subscription = await rig.controller.subscribe([graceSensor, alanSensor], (event) =>
      edges[names.get(`${event.aid}.${event.iid}`) ?? '']?.push(Number(event.value)),
    );
    const before = movedLines().length;
    // Alan opens and drives through; Grace closes behind him 15 s later. No webhook tells of either.
    rig.sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'OPEN', { user: alan, silent: true });
    await sleep(MOVES_APART_MS);
    rig.sim.setDoorState(SAMPLE_GARAGE_DOOR_ID, 'CLOSED', { user: grace, silent: true });
    await rig.controller.waitFor(hasValue(true), graceSensor, FOUND_WAIT_MS);
    await rig.controller.waitFor(hasValue(false), graceSensor, PERSON_SENSOR_S * 1000 + RIG_WAIT_MS);
    subscription.unsubscribe();
    expect(edges).toEqual({ Alan: [1, 0], Grace: [1, 0] });
    expect(movedLines().slice(before)).toEqual([
      'Garage Door was opened by Alan Turing (Keypad).',
      'Garage Door was closed by Grace Hopper (Keypad).',
    ]);
  });
});

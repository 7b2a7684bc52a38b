// The Eve history's backfill on the whole platform against the simulator, on a simulated clock: the service's successful
// toggles of each door with a time, oldest first, to the second, in either order the service sends them; failed toggles,
// other doors and date-only entries left out; a restart, and a move while Homebridge was down, never imported twice.
import { describe, expect, it } from 'vitest';

import type { AccessControlSimulator, HistoryShape } from '../../dev/simulator/server.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { eveLog } from '../support/eve-download.js';
import { HomebridgeDouble, ManualClock } from '../support/homebridge-double.js';
import { bootPlatform, shutDownAfterEach } from '../support/platform-rig.js';
import { simulatorPerTest } from '../support/simulator.js';

const TOKEN = 'eve-history-token';
const startSimulator = simulatorPerTest();
const running = shutDownAfterEach();
const HOUR_MS = 60 * 60_000;
/** A garage door's status byte: 0 open, 1 closed (docs/eve-history.md). */
const [OPEN, CLOSED] = [0, 1];

async function boot(sim: AccessControlSimulator, clock: ManualClock, api = new HomebridgeDouble(), config: Record<string, unknown> = {}) {
  const rig = bootPlatform({ accessToken: TOKEN, baseUrl: sim.baseUrl, pollInterval: 15, ...config }, { clock, api });
  running.push(rig.platform);
  clock.advance(0);
  await rig.platform.syncSettled();
  const log = (doorId: string) => eveLog(api.accessory(doorId));
  const restart = async () => {
    await api.shutdown();
    return boot(sim, clock, new HomebridgeDouble(api.savedCache(), api.storage), config);
  };
  return { ...rig, log, restart };
}

/** The gate's history: two moves three days ago, a refused one, the garage's, a date-only entry, two moves yesterday. */
function seed(sim: AccessControlSimulator, nowMs: number): string[] {
  const at = (hoursAgo: number, seconds = 0) => new Date(nowMs - hoursAgo * HOUR_MS + seconds * 1000);
  const gate = SAMPLE_FRONT_GATE_ID;
  sim.addHistoryEvent({ doorId: gate, doorState: 'OPEN', at: at(72) });
  sim.addHistoryEvent({ doorId: gate, doorState: 'CLOSED', at: at(72, 41) });
  sim.addHistoryEvent({ doorId: gate, doorState: 'OPEN', at: at(50), wasSuccess: false });
  sim.addHistoryEvent({ doorId: SAMPLE_GARAGE_DOOR_ID, doorState: 'OPEN', at: at(30) });
  sim.addHistoryEvent({ doorId: gate, doorState: 'OPEN', at: at(26), dateText: at(26).toISOString().slice(0, 10) });
  sim.addHistoryEvent({ doorId: gate, doorState: 'OPEN', at: at(25, 7) });
  sim.addHistoryEvent({ doorId: gate, doorState: 'CLOSED', at: at(25, 70) });
  return [
    `${at(72).toISOString()} ${OPEN}`,
    `${at(72, 41).toISOString()} ${CLOSED}`,
    `${at(25, 7).toISOString()} ${OPEN}`,
    `${at(25, 70).toISOString()} ${CLOSED}`,
  ];
}

describe('the Eve history backfill', () => {
  it.each<NonNullable<HistoryShape['order']>>(['newest-first', 'oldest-first'])(
    "writes the door's successful toggles with a time, oldest first, to the second (history %s)",
    async (order) => {
      const clock = new ManualClock();
      const sim = await startSimulator({ accessToken: TOKEN, travelTimeMs: 0, now: () => clock.now(), history: { order } });
      const expected = seed(sim, clock.now());
      const rig = await boot(sim, clock);
      expect(await rig.log(SAMPLE_FRONT_GATE_ID)).toEqual(expected);
      expect(await rig.log(SAMPLE_GARAGE_DOOR_ID)).toEqual([`${new Date(clock.now() - 30 * HOUR_MS).toISOString()} ${OPEN}`]);
    },
  );

  it('imports nothing twice at a restart, and a move while Homebridge was down once', async () => {
    const clock = new ManualClock();
    const sim = await startSimulator({ accessToken: TOKEN, travelTimeMs: 0, now: () => clock.now() });
    const expected = seed(sim, clock.now());
    const first = await boot(sim, clock);
    // A move the next sync finds: one record, dated by the door's last_toggled, which is its history entry's time too.
    clock.advance(5_000);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'OPEN', { silent: true });
    const live = `${new Date(clock.now()).toISOString()} ${OPEN}`;
    await first.poll();
    expect(await first.log(SAMPLE_FRONT_GATE_ID)).toEqual([...expected, live]);
    const second = await first.restart();
    expect(await second.log(SAMPLE_FRONT_GATE_ID)).toEqual([...expected, live]);
    // Closed while Homebridge was down: the history's entry, once, and no second record for the state the sync finds.
    await second.api.shutdown();
    clock.advance(60_000);
    sim.setDoorState(SAMPLE_FRONT_GATE_ID, 'CLOSED', { silent: true });
    const down = `${new Date(clock.now()).toISOString()} ${CLOSED}`;
    clock.advance(60_000);
    const third = await boot(sim, clock, new HomebridgeDouble(second.api.savedCache(), second.api.storage));
    await third.poll(2);
    expect(await third.log(SAMPLE_FRONT_GATE_ID)).toEqual([...expected, live, down]);
    const fourth = await third.restart();
    expect(await fourth.log(SAMPLE_FRONT_GATE_ID)).toEqual([...expected, live, down]);
  });

  it('repeats each door’s state every 10 minutes, and is gone with the option off', async () => {
    const clock = new ManualClock();
    const sim = await startSimulator({ accessToken: TOKEN, travelTimeMs: 0, now: () => clock.now() });
    const rig = await boot(sim, clock);
    expect(await rig.log(SAMPLE_FRONT_GATE_ID)).toEqual([]);
    clock.advance(10 * 60_000);
    await rig.platform.syncSettled();
    expect(await rig.log(SAMPLE_FRONT_GATE_ID)).toEqual([`${new Date(clock.now()).toISOString()} ${CLOSED}`]);
    await rig.api.shutdown();
    const off = await boot(sim, clock, new HomebridgeDouble(rig.api.savedCache(), rig.api.storage), { eveHistory: false });
    expect(off.api.accessory(SAMPLE_FRONT_GATE_ID)?.services.map((s) => s.subtype)).not.toContain('eve-history');
  });
});

// The Eve history end to end: a real Homebridge with the plugin and a HomeKit controller doing what Eve does (read the
// status, ask from entry 1, read the entries to the end), against the simulator's toggle history (successful and failed
// toggles, another door, a date-only entry); then a door opened from Home (one new record), a restart (the same
// records, none twice), and the counters Eve shows.
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { CURRENT_DOOR_STATE, TARGET_DOOR_STATE } from '../../dev/harness/hap-types.js';
import { hasValue } from '../../dev/harness/homekit-controller.js';
import type { CharRef } from '../../dev/harness/homekit-controller.js';
import { SAMPLE_FRONT_GATE_ID, SAMPLE_GARAGE_DOOR_ID } from '../../dev/simulator/server.js';
import { eveUuid } from '../../src/eve/eve-types.js';
import { HISTORY_BASELINE_RETRY_MS } from '../../src/settings.js';
import { decodeEntries, decodeStatus } from '../../src/eve/eve-wire.js';
import type { DecodedRecord } from '../../src/eve/eve-wire.js';
import { platformEntry, RIG_WAIT_MS, useHomebridge } from './homebridge-rig.js';

const TOKEN = 'tok-c088dd38c21a';
/** HAP-NodeJS runs the read handlers at GET /accessories only when the previous one is more than 5 s old. */
const HAP_ACCESSORIES_FRESH_MS = 5_500;
const HOUR_MS = 60 * 60_000;
const HISTORY = eveUuid('007');
/** A garage door's status byte: 0 open, 1 closed (docs/eve-history.md). */
const STATUS = { OPEN: 0, CLOSED: 1 } as const;

const rig = useHomebridge({
  simulator: { accessToken: TOKEN, travelTimeMs: 500 },
  platforms: (sim) => [platformEntry(sim.baseUrl, TOKEN)],
  beforeHomebridge: (sim) => {
    const at = (hoursAgo: number, seconds = 0) => new Date(Date.now() - hoursAgo * HOUR_MS + seconds * 1000);
    const gate = SAMPLE_FRONT_GATE_ID;
    // Six openings and closings over four days: with the reference record, more than one read of eleven.
    for (let i = 0; i < 6; i += 1) {
      sim.addHistoryEvent({ doorId: gate, doorState: 'OPEN', at: at(100 - 15 * i, 12) });
      sim.addHistoryEvent({ doorId: gate, doorState: 'CLOSED', at: at(100 - 15 * i, 80) });
    }
    sim.addHistoryEvent({ doorId: gate, doorState: 'OPEN', at: at(60), wasSuccess: false });
    sim.addHistoryEvent({ doorId: SAMPLE_GARAGE_DOOR_ID, doorState: 'OPEN', at: at(40) });
    sim.addHistoryEvent({ doorId: gate, doorState: 'CLOSED', at: at(30), dateText: at(30).toISOString().slice(0, 10) });
  },
  door: SAMPLE_FRONT_GATE_ID,
});

const eve = (short: string): Promise<CharRef> => rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, HISTORY, eveUuid(short));
const gate = (type: string): Promise<CharRef> => rig.controller.findCharacteristic(SAMPLE_FRONT_GATE_ID, 'GarageDoorOpener', type);
const bytes = (value: unknown): Buffer => Buffer.from(typeof value === 'string' ? value : '', 'base64');

/**
 * Eve's download: the status, a request from entry 1, the entries read until 00; each door record as "<ISO> <status>".
 * `sweepAfter`: after that many reads, a controller reads every accessory (GET /accessories, which runs every read
 * handler when the last such read is over HAP's 5 s old), as a home hub may in the middle of a download.
 */
async function download(sweepAfter?: number): Promise<{ records: string[]; reads: number; used: number }> {
  const status = decodeStatus(bytes(await rig.controller.read(await eve('116'))));
  const request = Buffer.alloc(10);
  request.writeUInt16LE(0x1401, 0);
  request.writeUInt32LE(1, 2);
  await rig.controller.write(await eve('11C'), request.toString('base64'));
  const entries = await eve('117');
  const decoded: DecodedRecord[] = [];
  let reads = 0;
  for (;;) {
    if (reads === sweepAfter) {
      await sleep(HAP_ACCESSORIES_FRESH_MS);
      await rig.controller.accessories();
    }
    reads += 1;
    const read = decodeEntries(bytes(await rig.controller.read(entries)));
    if (read.length === 0) break;
    decoded.push(...read);
  }
  const [reference, ...rest] = decoded;
  expect(reference).toEqual({ kind: 'reference', number: 1, referenceS: status.referenceS });
  // Entry numbers follow each other from the reference record's on.
  expect(rest.map((r) => r.number)).toEqual(rest.map((_, i) => i + 2));
  const records = rest.map((r) =>
    r.kind === 'door' ? `${new Date((status.referenceS + r.offsetS) * 1000).toISOString()} ${r.status}` : r.kind,
  );
  return { records, reads, used: status.used };
}

/** The simulator's successful toggles of the gate with their time, oldest first, as Eve records. */
function serviceToggles(): string[] {
  return rig.sim
    .historyEvents()
    .filter((e) => e.doorId === SAMPLE_FRONT_GATE_ID && e.wasSuccess && e.dateText === undefined)
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((e) => `${new Date(Math.floor(e.at.getTime() / 1000) * 1000).toISOString()} ${STATUS[e.doorState]}`);
}

describe('the Eve history of a door, as Eve downloads it', () => {
  let before: string[] = [];

  it("holds the service's successful toggles of the door with a time, in order and to the second", async () => {
    // The backfill comes with the history read after the first sync: the status says when its records are in.
    const used = (value: unknown): number => (bytes(value).length >= 25 ? decodeStatus(bytes(value)).used : 0);
    // A read that fails under load is asked again HISTORY_BASELINE_RETRY_MS later: the wait covers one such try.
    await rig.controller.waitFor((value) => used(value) >= 13, await eve('116'), RIG_WAIT_MS + HISTORY_BASELINE_RETRY_MS);
    const downloaded = await download();
    expect(downloaded.records).toEqual(serviceToggles());
    expect(downloaded.records).toHaveLength(12);
    // The reference record and the twelve, 11 records a read: two reads, and the one that says 00.
    expect([downloaded.used, downloaded.reads]).toEqual([13, 3]);
    const { records } = downloaded;
    before = records;
  });

  it('gains one record when the door is opened from Home', async () => {
    const current = await gate('CurrentDoorState');
    await rig.controller.write(await gate('TargetDoorState'), TARGET_DOOR_STATE.OPEN);
    await rig.controller.waitFor(hasValue(CURRENT_DOOR_STATE.OPEN), current, RIG_WAIT_MS);
    const { records } = await download();
    expect(records.slice(0, -1)).toEqual(before);
    expect(records.at(-1)?.endsWith(` ${STATUS.OPEN}`)).toBe(true);
    expect(records).toEqual(serviceToggles());
    before = records;
  });

  it('holds the same records after a restart, none twice', async () => {
    await rig.restart();
    const { records } = await download();
    expect(records).toEqual(before);
  });

  it('goes on where it was when a controller reads every accessory in the middle of a download', async () => {
    // The sweep comes after the first read of eleven records, before the read of the last three.
    const { records } = await download(1);
    expect(records).toEqual(before);
  });

  it('shows the openings and the last activation on the garage door', async () => {
    const { referenceS } = decodeStatus(bytes(await rig.controller.read(await eve('116'))));
    expect(await rig.controller.read(await gate(eveUuid('129')))).toBe(7);
    const last = Date.parse(before.at(-1)?.split(' ')[0] ?? '') / 1000;
    expect(await rig.controller.read(await gate(eveUuid('11A')))).toBe(last - referenceS);
  });
});

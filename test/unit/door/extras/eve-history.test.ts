// The Eve history of a door on the real HAP-NodeJS: Eve's download through the characteristics (ask from entry 1, read
// to the end), the garage door's inverted status, a read of every characteristic that must not move the download on,
// the counters on the door's own service, and the option off removing all of it.
import * as hap from 'hap-nodejs';
import { describe, expect, it } from 'vitest';

import type { DoorOptions } from '../../../../src/config/door-options.js';
import { EveHistories } from '../../../../src/eve/eve-histories.js';
import { eveTypes } from '../../../../src/eve/eve-types.js';
import { decodeEntries } from '../../../../src/eve/eve-wire.js';
import type { DecodedRecord } from '../../../../src/eve/eve-wire.js';
import { bytesOf, downloadRecords } from '../../../support/eve-download.js';
import { ManualClock } from '../../../support/homebridge-double.js';
import { captureLog } from '../../../support/log.js';
import {
  doorRig,
  frontGateAccessory,
  NO_EXTRAS,
  reportedDevice as device,
  reportedDoor as makeDoor,
} from '../../../support/door-fixtures.js';

const { Service: S } = hap;
const E = eveTypes(hap);
const ON: DoorOptions = { ...NO_EXTRAS, eveHistory: true };

function setup(options: DoorOptions = ON, accessory = frontGateAccessory()) {
  const clock = new ManualClock();
  const histories = new EveHistories({ path: undefined, log: captureLog(), clock });
  const rig = doorRig({ options, clock, now: () => clock.now(), eve: (doorId) => histories.door(doorId) }, accessory);
  const history = () => accessory.getServiceById(E.History, 'eve-history');
  const main = () => accessory.getService(options.showAs === 'lock' ? S.LockMechanism : S.GarageDoorOpener);
  const move = (state: 'OPEN' | 'CLOSED') => {
    clock.advance(60_000);
    rig.door.update(makeDoor({ state }), device);
  };
  return { ...rig, clock, histories, history, main, move };
}

const statuses = (records: DecodedRecord[]) => records.flatMap((r) => (r.kind === 'door' ? [r.status] : []));

describe('the Eve history of a door', () => {
  it("is Eve's History service named after the door, its download the reference record and each move", async () => {
    const t = setup();
    t.histories.read('door-1', []);
    t.move('OPEN');
    t.move('CLOSED');
    expect(t.history()?.displayName).toBe('Front Gate History');
    const records = await downloadRecords(t.history());
    expect(records.map((r) => `${r.kind} ${r.number}`)).toEqual(['reference 1', 'door 2', 'door 3']);
    // A garage door's records say 0 for open (its CurrentDoorState's numbers, as Eve reads a garage door).
    expect(statuses(records)).toEqual([0, 1]);
    const [, open, closed] = records;
    expect(open?.kind === 'door' && closed?.kind === 'door' ? closed.offsetS - open.offsetS : undefined).toBe(60);
    t.door.dispose();
  });

  it("says 1 for open on a lock, as Eve's door sensors do", async () => {
    const t = setup({ ...ON, showAs: 'lock' });
    t.histories.read('door-1', []);
    t.move('OPEN');
    expect(statuses(await downloadRecords(t.history()))).toEqual([1]);
  });

  it('does not move the download on when HAP reads every characteristic at once (GET /accessories)', async () => {
    const t = setup();
    t.histories.read('door-1', []);
    t.move('OPEN');
    const service = t.history();
    const request = Buffer.from('01140100000000000000', 'hex').toString('base64');
    await service?.getCharacteristic(E.HistoryRequest).handleSetRequest(request);
    // As HAP sweeps: the counters and the status, then the entries, in one run.
    const swept = await Promise.all([
      t.main()?.getCharacteristic(E.TimesOpened).handleGetRequest(),
      service?.getCharacteristic(E.HistoryStatus).handleGetRequest(),
      service?.getCharacteristic(E.HistoryEntries).handleGetRequest(),
    ]);
    expect(swept[2]).toBe(Buffer.from([0]).toString('base64'));
    const value = await service?.getCharacteristic(E.HistoryEntries).handleGetRequest();
    expect(decodeEntries(bytesOf(value)).map((r) => r.number)).toEqual([1, 2]);
  });

  it('shows the openings and the last move on the door’s own service, and Eve resets the count', async () => {
    const t = setup();
    t.histories.read('door-1', []);
    t.move('OPEN');
    t.move('CLOSED');
    t.move('OPEN');
    expect(await t.main()?.getCharacteristic(E.TimesOpened).handleGetRequest()).toBe(2);
    const status = bytesOf(await t.history()?.getCharacteristic(E.HistoryStatus).handleGetRequest());
    // The last activation is the last move's time from the reference time, which the status's first word is too.
    expect(await t.main()?.getCharacteristic(E.LastActivation).handleGetRequest()).toBe(status.readUInt32LE(0));
    await t.history()?.getCharacteristic(E.ResetTotal).handleSetRequest(1);
    expect(await t.main()?.getCharacteristic(E.TimesOpened).handleGetRequest()).toBe(0);
  });

  it('is gone, counters included, once its option is off', () => {
    const accessory = frontGateAccessory();
    setup(ON, accessory).door.dispose();
    const t = setup(NO_EXTRAS, accessory);
    expect(t.history()).toBeUndefined();
    const uuids = accessory.services.flatMap((service) => service.characteristics.map((c) => c.UUID));
    expect(uuids).not.toContain(E.TimesOpened.UUID);
    expect(uuids).not.toContain(E.LastActivation.UUID);
  });
});

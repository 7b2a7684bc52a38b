// Eve's download of a door's history through HAP-NodeJS's handlers, as Eve does it: ask from an entry (HistoryRequest),
// then read HistoryEntries until it says 00; each record decoded, its time made absolute from the reference record. And
// the toggle history entry the Eve tests feed a door with.
import * as hap from 'hap-nodejs';
import type { PlatformAccessory } from 'homebridge';

import type { ToggleEvent } from '../../src/client/types.js';

import { eveTypes } from '../../src/eve/eve-types.js';
import { decodeEntries } from '../../src/eve/eve-wire.js';
import type { DecodedRecord } from '../../src/eve/eve-wire.js';

const E = eveTypes(hap);

/** A DATA value read back: base64 text. */
export const bytesOf = (value: unknown): Buffer => Buffer.from(typeof value === 'string' ? value : '', 'base64');

/** Every record from entry `from` on, as decoded. */
export async function downloadRecords(service: hap.Service | undefined, from = 1): Promise<DecodedRecord[]> {
  const request = Buffer.alloc(10);
  request.writeUInt16LE(0x1401, 0);
  request.writeUInt32LE(from, 2);
  await service?.getCharacteristic(E.HistoryRequest).handleSetRequest(request.toString('base64'));
  const records: DecodedRecord[] = [];
  for (;;) {
    const read = decodeEntries(bytesOf(await service?.getCharacteristic(E.HistoryEntries).handleGetRequest()));
    if (read.length === 0) return records;
    records.push(...read);
  }
}

/** A door's records from entry 1 as "<ISO time> <status>" (the status byte as sent), read through its History service. */
export async function eveLog(accessory: PlatformAccessory | undefined): Promise<string[]> {
  const records = await downloadRecords(accessory?.getServiceById(E.History, 'eve-history'));
  const reference = records.find((r) => r.kind === 'reference');
  const referenceS = reference?.kind === 'reference' ? reference.referenceS : 0;
  return records.flatMap((r) => (r.kind === 'door' ? [`${new Date((referenceS + r.offsetS) * 1000).toISOString()} ${r.status}`] : []));
}

/** A successful toggle of door "gate" by Ada on its keypad, as the client reads the history; `more` changes any field. */
export function gateToggle(at: string, state: string, more: Partial<ToggleEvent> = {}): ToggleEvent {
  return { doorId: 'gate', doorName: 'Gate', doorState: state, channel: 'Keypad', userName: 'Ada', wasSuccess: true, at, ...more };
}

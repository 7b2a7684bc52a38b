// The Eve history's bytes: the status, the records of a download from an entry on, 11 a read, 00 at the end.
import { describe, expect, it } from 'vitest';

import { EveRing } from '../../../src/eve/eve-ring.js';
import { decodeEntries, decodeStatus, EVE_EPOCH_S, historyEntries, historyStatus, requestedEntry } from '../../../src/eve/eve-wire.js';
import type { DecodedRecord } from '../../../src/eve/eve-wire.js';

const REF = 1_780_000_000;

/** Every record of a download from `from`, read after read as Eve reads them. */
function download(ring: EveRing, from: number, inverted = false): { reads: number; records: DecodedRecord[] } {
  const records: DecodedRecord[] = [];
  let next = from;
  for (let reads = 1; ; reads += 1) {
    const read = historyEntries(ring, next, inverted);
    const decoded = decodeEntries(read.bytes);
    if (decoded.length === 0) return { reads, records };
    expect(decoded.length).toBeLessThanOrEqual(11);
    records.push(...decoded);
    next = read.next;
  }
}

describe('the Eve history on the wire', () => {
  it('writes a door record as 0b, its entry, its time from the reference, 01 and the status', () => {
    const ring = new EveRing(REF, 10);
    ring.add(REF + 300, 1, { opening: true });
    const { bytes } = historyEntries(ring, 2, false);
    expect(bytes.toString('hex')).toBe('0b' + '02000000' + '2c010000' + '01' + '01');
  });

  it('starts with the reference record (21 bytes, the reference time since 2001), then the records in order', () => {
    const ring = new EveRing(REF, 100);
    for (let i = 0; i < 25; i += 1) ring.add(REF + 60 * i, i % 2, { opening: i % 2 === 1 });
    const { reads, records } = download(ring, 1);
    // 26 records, 11 a read, then the read that says 00.
    expect(reads).toBe(4);
    expect(records[0]).toEqual({ kind: 'reference', number: 1, referenceS: REF });
    expect(records.slice(1)).toEqual(
      Array.from({ length: 25 }, (_, i) => ({ kind: 'door', number: i + 2, offsetS: 60 * i, status: i % 2 })),
    );
    expect(historyEntries(ring, 1, false).bytes.subarray(0, 21).toString('hex')).toBe(
      '15' + '01000000' + '0100000081' + Buffer.from(new Uint32Array([REF - EVE_EPOCH_S]).buffer).toString('hex') + '00'.repeat(7),
    );
  });

  it('inverts the status for a garage door, and starts where Eve asks (or at the oldest kept)', () => {
    const ring = new EveRing(REF, 2);
    for (let i = 0; i < 4; i += 1) ring.add(REF + i, 1);
    const { records } = download(ring, 1, true);
    expect(records.map((r) => (r.kind === 'door' ? `${r.number}:${r.status}` : `${r.kind}:${r.number}`))).toEqual([
      'reference:3',
      '4:0',
      '5:0',
    ]);
    expect(download(ring, 5).records.map((r) => r.number)).toEqual([5]);
    expect(download(ring, 6).records).toEqual([]);
  });

  it('says in the status the newest time, the reference time, how many entries and the first', () => {
    const ring = new EveRing(REF, 2016);
    ring.add(REF + 500, 1);
    ring.add(REF + 900, 0);
    expect(decodeStatus(historyStatus(ring))).toEqual({ lastOffsetS: 900, referenceS: REF, used: 3, memory: 2017, first: 1 });
    expect(historyStatus(ring).subarray(12, 15).toString('hex')).toBe('010601');
  });

  it('reads the entry number Eve asks for at byte 2 of its request', () => {
    expect(requestedEntry(Buffer.from('01140100000000000000', 'hex'))).toBe(1);
    expect(requestedEntry(Buffer.from('0114', 'hex'))).toBeUndefined();
  });
});

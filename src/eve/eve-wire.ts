// The Eve history's bytes on the wire (little-endian, times in seconds since 2001-01-01): the status Eve reads first,
// the records it downloads after asking from an entry number, and their decoding (for the tests and the demo). Pure.
import type { EveRing } from './eve-ring.js';

/** 2001-01-01T00:00:00Z in Unix seconds: Eve's epoch. */
export const EVE_EPOCH_S = 978_307_200;
/** Records Eve takes in one read of HistoryEntries, as Eve's own devices send them. */
export const RECORDS_PER_READ = 11;
/** The one data point of a door record: tag 0x06 (contact), one byte; the status's fingerprint is its count, then the pair. */
const DOOR_FINGERPRINT = Buffer.from([0x01, 0x06, 0x01]);
/** A reference record's fixed bytes after its entry number. */
const REFERENCE_MARK = Buffer.from([0x01, 0x00, 0x00, 0x00, 0x81]);
const REFERENCE_RECORD_BYTES = 21;
const DOOR_RECORD_BYTES = 11;
/** What a read past the last record answers: one zero byte. */
export const NO_MORE_RECORDS = Buffer.from([0x00]);

/** Unix seconds as Eve counts them. */
export function eveSeconds(unixS: number): number {
  return Math.max(0, Math.floor(unixS) - EVE_EPOCH_S);
}

/** HistoryStatus (116): the newest record's time, the reference time, the fingerprint, how many entries, from which. */
export function historyStatus(ring: EveRing): Buffer {
  const bytes = Buffer.alloc(12 + DOOR_FINGERPRINT.length + 14);
  let at = 0;
  const lastS = ring.last()?.timeS ?? ring.referenceS;
  at = bytes.writeUInt32LE(lastS - ring.referenceS, at);
  at = bytes.writeUInt32LE(0, at);
  at = bytes.writeUInt32LE(eveSeconds(ring.referenceS), at);
  at += DOOR_FINGERPRINT.copy(bytes, at);
  at = bytes.writeUInt16LE(ring.lastNumber - ring.referenceNumber + 1, at);
  // The memory: the records kept and the reference record.
  at = bytes.writeUInt16LE(ring.capacity + 1, at);
  at = bytes.writeUInt32LE(ring.referenceNumber, at);
  at = bytes.writeUInt32LE(0, at);
  at = bytes.writeUInt8(1, at);
  bytes.writeUInt8(1, at);
  return bytes;
}

/** The entry number a HistoryRequest (11C) asks for: u32 at byte 2; undefined for a write too short to hold one. */
export function requestedEntry(bytes: Buffer): number | undefined {
  return bytes.length >= 6 ? bytes.readUInt32LE(2) : undefined;
}

/**
 * Up to RECORDS_PER_READ records from entry `from` on, and the entry after them; `00` once past the last. The ring keeps
 * 1 for open; `inverted` sends 0 for open (a garage door's polarity, see docs/eve-history.md).
 */
export function historyEntries(ring: EveRing, from: number, inverted: boolean): { bytes: Buffer; next: number } {
  const start = Math.max(from, ring.referenceNumber);
  const parts: Buffer[] = [];
  let number = start;
  for (; number <= ring.lastNumber && parts.length < RECORDS_PER_READ; number += 1) {
    if (number === ring.referenceNumber) {
      const record = Buffer.alloc(REFERENCE_RECORD_BYTES);
      record.writeUInt8(REFERENCE_RECORD_BYTES, 0);
      record.writeUInt32LE(number, 1);
      REFERENCE_MARK.copy(record, 5);
      record.writeUInt32LE(eveSeconds(ring.referenceS), 10);
      parts.push(record);
      continue;
    }
    const kept = ring.record(number);
    if (!kept) continue;
    const record = Buffer.alloc(DOOR_RECORD_BYTES);
    record.writeUInt8(DOOR_RECORD_BYTES, 0);
    record.writeUInt32LE(number, 1);
    record.writeUInt32LE(kept.timeS - ring.referenceS, 5);
    record.writeUInt8(0x01, 9);
    record.writeUInt8(inverted ? 1 - kept.status : kept.status, 10);
    parts.push(record);
  }
  return { bytes: parts.length === 0 ? NO_MORE_RECORDS : Buffer.concat(parts), next: number };
}

/** One record as Eve reads it back. */
export type DecodedRecord =
  | { kind: 'reference'; number: number; referenceS: number }
  | { kind: 'door'; number: number; offsetS: number; status: number }
  | { kind: 'other'; number: number; length: number };

/** The records of one read of HistoryEntries (an empty list for `00`); throws on bytes that are not records. */
export function decodeEntries(bytes: Buffer): DecodedRecord[] {
  const records: DecodedRecord[] = [];
  let at = 0;
  while (at < bytes.length) {
    const length = bytes.readUInt8(at);
    if (length === 0) break;
    if (length < 5 || at + length > bytes.length) throw new Error(`a record of ${length} bytes at byte ${at} does not fit`);
    const number = bytes.readUInt32LE(at + 1);
    if (length === REFERENCE_RECORD_BYTES && bytes.subarray(at + 5, at + 10).equals(REFERENCE_MARK)) {
      records.push({ kind: 'reference', number, referenceS: bytes.readUInt32LE(at + 10) + EVE_EPOCH_S });
    } else if (length === DOOR_RECORD_BYTES) {
      records.push({ kind: 'door', number, offsetS: bytes.readUInt32LE(at + 5), status: bytes.readUInt8(at + 10) });
    } else {
      records.push({ kind: 'other', number, length });
    }
    at += length;
  }
  return records;
}

/** HistoryStatus read back: what the tests compare. */
export function decodeStatus(bytes: Buffer): { lastOffsetS: number; referenceS: number; used: number; memory: number; first: number } {
  const at = 12 + DOOR_FINGERPRINT.length;
  return {
    lastOffsetS: bytes.readUInt32LE(0),
    referenceS: bytes.readUInt32LE(8) + EVE_EPOCH_S,
    used: bytes.readUInt16LE(at),
    memory: bytes.readUInt16LE(at + 2),
    first: bytes.readUInt32LE(at + 4),
  };
}

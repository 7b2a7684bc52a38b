// One door's Eve history in memory: a bounded ring of records with entry numbers that never go back, its counters, and
// its bytes for the history file. Pure: no HAP, no clock, no file.

/** A door record: when, in Unix seconds, and the status byte Eve reads (its polarity is the door kind's). */
export interface EveRecord {
  number: number;
  timeS: number;
  status: number;
}

/** The bytes of one record in the history file: u32 time, u8 status. */
const RECORD_BYTES = 5;
/** The file's header: u8 version, u32 reference time, u32 first record's number, u32 times opened, u32 last move, u32 count. */
const HEADER_BYTES = 21;
const FORMAT_VERSION = 1;

export class EveRing {
  /** Each kept record as timeS * 2 + status (status 0 or 1): one number, 8 bytes, per record. */
  private readonly packed: number[] = [];

  /**
   * `referenceS`: the reference time (Unix seconds) every record's time is told from, at or before the earliest; the
   * reference record is entry `firstNumber - 1`, so entry 1 at first, and the oldest record dropped once the ring wraps.
   */
  constructor(
    readonly referenceS: number,
    readonly capacity: number,
    private firstNumber = 2,
    /** Openings since the history began or Eve reset the count (TimesOpened). */
    public timesOpened = 0,
    /** The last move's time (Unix seconds), 0 before any: LastActivation. */
    public lastMoveS = 0,
  ) {}

  /** The reference record's entry number: the first Eve can ask for. */
  get referenceNumber(): number {
    return this.firstNumber - 1;
  }

  get lastNumber(): number {
    return this.firstNumber + this.packed.length - 1;
  }

  get size(): number {
    return this.packed.length;
  }

  /** The newest record, undefined while there is none. */
  last(): EveRecord | undefined {
    return this.packed.length === 0 ? undefined : this.record(this.lastNumber);
  }

  /** A kept record by its entry number. */
  record(number: number): EveRecord | undefined {
    const value = this.packed[number - this.firstNumber];
    if (value === undefined) return undefined;
    return { number, timeS: Math.floor(value / 2), status: value % 2 };
  }

  /**
   * Adds a record; times never go back (Eve shows them in order), nor before the reference. A full ring drops its oldest.
   * `move`: a change of state (TimesOpened and LastActivation follow it), not a repeat; `opening` whether it opened.
   */
  add(timeS: number, status: number, move?: { opening: boolean }): EveRecord {
    const floor = Math.max(this.referenceS, this.last()?.timeS ?? 0);
    const at = Math.max(Math.floor(timeS), floor);
    this.packed.push(at * 2 + (status === 0 ? 0 : 1));
    if (this.packed.length > this.capacity) {
      this.packed.shift();
      this.firstNumber += 1;
    }
    if (move) {
      this.lastMoveS = at;
      if (move.opening) this.timesOpened += 1;
    }
    return { number: this.lastNumber, timeS: at, status: status === 0 ? 0 : 1 };
  }

  /** The history file's bytes of this door. */
  toBytes(): Buffer {
    const bytes = Buffer.alloc(HEADER_BYTES + this.packed.length * RECORD_BYTES);
    bytes.writeUInt8(FORMAT_VERSION, 0);
    bytes.writeUInt32LE(this.referenceS, 1);
    bytes.writeUInt32LE(this.firstNumber, 5);
    bytes.writeUInt32LE(this.timesOpened, 9);
    bytes.writeUInt32LE(this.lastMoveS, 13);
    bytes.writeUInt32LE(this.packed.length, 17);
    this.packed.forEach((value, index) => {
      const at = HEADER_BYTES + index * RECORD_BYTES;
      bytes.writeUInt32LE(Math.floor(value / 2), at);
      bytes.writeUInt8(value % 2, at + 4);
    });
    return bytes;
  }

  /** A door's ring from the history file, or undefined when its bytes do not hold one exactly (that door starts fresh). */
  static fromBytes(bytes: Buffer, capacity: number): EveRing | undefined {
    if (bytes.length < HEADER_BYTES || bytes.readUInt8(0) !== FORMAT_VERSION) return undefined;
    const count = bytes.readUInt32LE(17);
    const firstNumber = bytes.readUInt32LE(5);
    if (bytes.length !== HEADER_BYTES + count * RECORD_BYTES || firstNumber < 2) return undefined;
    const ring = new EveRing(bytes.readUInt32LE(1), capacity, firstNumber, bytes.readUInt32LE(9), bytes.readUInt32LE(13));
    let previous = ring.referenceS;
    for (let index = 0; index < count; index += 1) {
      const at = HEADER_BYTES + index * RECORD_BYTES;
      const timeS = bytes.readUInt32LE(at);
      const status = bytes.readUInt8(at + 4);
      // Out of order or not a status: not a file this plugin wrote whole.
      if (timeS < previous || status > 1) return undefined;
      previous = timeS;
      ring.packed.push(timeS * 2 + status);
    }
    // A smaller capacity since the file was written keeps the newest records, their numbers as they were.
    while (ring.packed.length > capacity) {
      ring.packed.shift();
      ring.firstNumber += 1;
    }
    return ring;
  }
}

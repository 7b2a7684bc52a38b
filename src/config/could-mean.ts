// Which ids of the account a text that names none of them exactly could mean: the same once look-alike letters are
// mapped (Unicode's confusables skeleton), a few edits away, or held in it (a list written as one id, an id inside a
// value the plugin does not read). An index of the account's ids answers each text without comparing it to every id.
import { canonicalId, uncasedId } from '../util/canonical-id.js';
import { editDistance } from '../util/near-miss.js';
import type { Skeleton } from '../util/skeleton.js';

/** An id of this many characters may be mistyped by one edit, twice as long by two (a UUID of 36 by three, at most). */
export const CHARS_PER_EDIT = 8;
/** The most edits an id may be from the account's id it could mean. */
export const MAX_COULD_MEAN_EDITS = 3;
/** Longest text read for the ids it holds: a value of 50,000 characters is read up to here. */
export const MAX_SCANNED_CHARS = 4096;

/** How many edits from an account id of `length` characters a text may be and still mean it. */
export const editsAllowed = (length: number): number => Math.min(MAX_COULD_MEAN_EDITS, Math.floor(length / CHARS_PER_EDIT));

/** Within this many edits of an id (up to 3, one per 4 characters, at least 1) a text is told "the closest id is …". */
const MAX_HINT_EDITS = 3;
const hintEdits = (length: number): number => Math.min(MAX_HINT_EDITS, Math.max(1, Math.floor(length / 4)));

/** Why a text could mean an id: its look-alike letters, a few edits, or the id written inside it. */
export type Likeness = 'look-alike' | 'edits' | 'held' | 'letters and digits';

export interface CouldMean {
  /** The account's id, canonical. */
  id: string;
  how: Likeness;
}

/**
 * What separates the ids of a list written as one text, and an id from the words around it: white space, separators,
 * controls and punctuation, but for the hyphen, underscore, dot and colon an id may hold. A symbol stays: it may be a
 * look-alike of a letter ("⍺", "🝌").
 */
const BETWEEN_IDS = /(?:(?![-_.:])[\p{White_Space}\p{Z}\p{Cc}\p{P}])+/u;

/** The ids a text may hold: its parts between separators, canonical, without empty ones. */
export function partsOf(text: string): string[] {
  return text
    .slice(0, MAX_SCANNED_CHARS)
    .split(BETWEEN_IDS)
    .map(canonicalId)
    .filter((part) => part !== '');
}

/** Fewer letters and digits than this name no door by being held in its id: a part of an id must be at least this long. */
export const MIN_CORE_PART = 8;

/** What is not a letter or a digit: an id's core is what is left. */
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/** An id by its letters and digits alone, canonical: "urn:uuid:3F1C-…" and "3f1c…" have one core. */
export function coreOf(text: string): string {
  return canonicalId(text).replace(NOT_LETTER_OR_DIGIT, '');
}

/** No candidate: shared, never added to. */
const NONE: ReadonlySet<string> = new Set();

/** A character outside the Basic Multilingual Plane (two UTF-16 units). */
const ASTRAL = /[\ud800-\udbff][\udc00-\udfff]/g;

/** One slice of an account id, for finding the ids a text is a few edits from (see IdIndex). */
interface Slice {
  id: string;
  offset: number;
  text: string;
  /** How far from `offset` a text within the id's edits may hold it: hintEdits of the id's length. */
  reach: number;
}

/**
 * The rolling hash of the windows of a text (a polynomial mod 2^32), kept to 30 bits: a small integer V8 holds without
 * allocating, where a full 32-bit one would be a heap number at every window and every key of the index.
 */
const HASH_BASE = 0x01000193;
const SMALL_INTEGER = 0x3fffffff;
/** Bits of a slice's hash the index's bit set is keyed by (2^20 bits: 128 KiB): most windows miss it without a lookup. */
const BLOOM_BITS = 20;
const BLOOM_MASK = (1 << BLOOM_BITS) - 1;

/** The hash of a whole text, as the windows of that length are hashed in candidates(). */
function hashOf(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i += 1) hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(i)) | 0;
  return hash & SMALL_INTEGER;
}

/**
 * The account's ids, indexed three ways: as they are, by skeleton (when the confusables data is loaded), and
 * by slices. An id allowed k edits is cut into k + 1 slices; a text within k edits of it holds one of them unchanged,
 * at most k characters from where the id has it (the pigeonhole principle). So a text is compared in full only with
 * the ids one of whose slices it holds: a few, whatever the size of the account.
 */
export class IdIndex {
  private readonly ids: ReadonlySet<string>;
  private readonly bySkeleton = new Map<string, string[]>();
  /** The slices of the ids, by the hash of their text (a text's windows are hashed in one pass, not cut out one by one). */
  private readonly slices = new Map<number, Slice | Slice[]>();
  private readonly sliceLengths = new Set<number>();
  /** One bit per slice hash (its low BLOOM_BITS bits): a window whose bit is clear is no slice, and is not looked up. */
  private readonly bloom = new Uint32Array((1 << BLOOM_BITS) >>> 5);
  private lastCandidates: { text: string; ids: ReadonlySet<string> } | undefined;

  /** `ids`: as the service sends them; the index answers with their canonical form. */
  constructor(
    ids: Iterable<string>,
    private readonly skeleton?: Skeleton,
  ) {
    const canonical = new Set<string>();
    for (const raw of ids) {
      const id = canonicalId(raw);
      if (skeleton) {
        const key = skeleton(uncasedId(raw));
        if (!this.bySkeleton.get(key)?.includes(id)) push(this.bySkeleton, key, id);
      }
      if (canonical.has(id)) continue;
      canonical.add(id);
      this.indexCore(id);
      // Sliced for the hint's wider reach: a text within an id's allowed edits holds one of these slices all the more.
      const edits = hintEdits(id.length);
      const size = Math.floor(id.length / (edits + 1));
      for (let part = 0; part <= edits; part += 1) {
        const offset = part * size;
        const slice = id.slice(offset, part === edits ? id.length : offset + size);
        // Most hashes hold one slice: it is kept alone, not in a list (an account of 2,000 ids has 8,000 slices).
        const hash = hashOf(slice);
        const entry: Slice = { id, offset, text: slice, reach: edits };
        const bit = hash & BLOOM_MASK;
        this.bloom[bit >>> 5] = (this.bloom[bit >>> 5] ?? 0) | (1 << (bit & 31));
        const held = this.slices.get(hash);
        this.slices.set(hash, held === undefined ? entry : Array.isArray(held) ? [...held, entry] : [held, entry]);
        this.sliceLengths.add(slice.length);
      }
    }
    this.ids = canonical;
  }

  /** Each id's core, and the ids by their core and by each MIN_CORE_PART characters of it (for byCore). */
  private readonly coreOfId = new Map<string, string>();
  private readonly byCoreText = new Map<string, string[]>();
  private byCorePart: Map<string, string[]> | undefined;
  private readonly coreLengths = new Set<number>();
  private longestCore = 0;

  private indexCore(id: string): void {
    const core = coreOf(id);
    if (core === '') return;
    this.coreOfId.set(id, core);
    push(this.byCoreText, core, id);
    this.coreLengths.add(core.length);
    this.longestCore = Math.max(this.longestCore, core.length);
  }

  /** The ids by each MIN_CORE_PART characters of their core: made the first time a part of an id is looked up (rare). */
  private partIndex(): Map<string, string[]> {
    if (this.byCorePart) return this.byCorePart;
    const parts = new Map<string, string[]>();
    for (const [id, core] of this.coreOfId) {
      for (let start = 0; start + MIN_CORE_PART <= core.length; start += 1) {
        const part = core.slice(start, start + MIN_CORE_PART);
        if (parts.get(part)?.at(-1) !== id) push(parts, part, id);
      }
    }
    this.byCorePart = parts;
    return parts;
  }

  /** Whether the account has this id (canonical). */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Whether the skeleton was given: without it, look-alike letters are not looked for. */
  get knowsLookAlikes(): boolean {
    return this.skeleton !== undefined;
  }

  /**
   * The account's ids a text could mean, when it names none exactly: each id once, the likeliest reason first (an exact
   * id among its parts is "held"). Empty when it is an id of the account, or near none.
   */
  couldMean(text: string): CouldMean[] {
    const written = uncasedId(text.slice(0, MAX_SCANNED_CHARS));
    const whole = canonicalId(written);
    if (whole === '' || this.ids.has(whole)) return [];
    const like = this.like(written, whole);
    // Only a text with a separator in it may hold other ids (a UUID has none): most texts end here.
    if (!BETWEEN_IDS.test(written)) return like;
    const found = new Map<string, Likeness>();
    for (const id of like) found.set(id.id, id.how);
    const parts = written
      .split(BETWEEN_IDS)
      .map(uncasedId)
      .filter((part) => part !== '');
    if (parts.length > 1 || (parts.length === 1 && parts[0] !== written)) {
      for (const part of parts) {
        const id = canonicalId(part);
        if (this.ids.has(id)) found.set(id, 'held');
        else for (const near of this.like(part, id)) if (!found.has(near.id)) found.set(near.id, 'held');
      }
    }
    return [...found].map(([id, how]) => ({ id, how }));
  }

  /**
   * The ids one text looks like, or else those it is a few edits from. A look-alike is the id it shows, letter for letter:
   * the ids a few edits away are not added to it (the account's ids may differ from each other by a character or two).
   */
  private like(written: string, text: string): CouldMean[] {
    const alike = this.skeleton ? this.bySkeleton.get(this.skeleton(written)) : undefined;
    if (alike !== undefined) return alike.filter((id) => id !== text).map((id) => ({ id, how: 'look-alike' }));
    const candidates = this.candidates(text);
    if (candidates.size === 0) return [];
    // Only the nearest (ties all): on an account of sequential or time-based ids, every id is within a few edits of a
    // typo, and protecting each of them would lock doors nobody named.
    let best = Number.POSITIVE_INFINITY;
    let nearest: string[] = [];
    for (const id of candidates) {
      const edits = editDistance(text, id, editsAllowed(id.length));
      if (edits > editsAllowed(id.length) || edits > best) continue;
      if (edits < best) [best, nearest] = [edits, []];
      nearest.push(id);
    }
    return nearest.map((id) => ({ id, how: 'edits' }));
  }

  /**
   * The account's ids a text names by its letters and digits alone (coreOf): each id whose core it holds, but for one
   * held only inside another it holds ("door12" holds door-12, not door-1 too), or else the one id whose core holds it,
   * when it has at least MIN_CORE_PART of them (half of an id split over two entries). Dashes, prefixes ("urn:uuid:",
   * "door:"), an id pasted twice: each names its door.
   */
  byCore(text: string): string[] {
    const core = coreOf(text.slice(0, MAX_SCANNED_CHARS));
    if (core === '') return [];
    const spans: { id: string; start: number; end: number }[] = [];
    for (const length of this.coreLengths) {
      for (let start = 0; start + length <= core.length; start += 1) {
        for (const id of this.byCoreText.get(core.slice(start, start + length)) ?? []) spans.push({ id, start, end: start + length });
      }
    }
    const held = spans.filter(
      (span) =>
        !spans.some(
          (other) =>
            other !== span && other.start <= span.start && other.end >= span.end && other.end - other.start > span.end - span.start,
        ),
    );
    if (held.length > 0) return [...new Set(held.map((span) => span.id))];
    // A core as long as the longest id's is held in none it is not (a whole UUID typed wrong ends here: most texts).
    if (core.length < MIN_CORE_PART || core.length >= this.longestCore) return [];
    const holding = [
      ...new Set((this.partIndex().get(core.slice(0, MIN_CORE_PART)) ?? []).filter((id) => this.coreOfId.get(id)?.includes(core))),
    ];
    return holding.length === 1 ? holding : [];
  }

  /**
   * The account's id closest to a text that could mean none of them, when one is near enough to be named as a hint
   * ("the closest id is …"): a hint, never a protection.
   */
  closest(text: string): string | undefined {
    const whole = canonicalId(text.slice(0, MAX_SCANNED_CHARS));
    let best: { id: string; edits: number } | undefined;
    for (const id of this.candidates(whole)) {
      const edits = editDistance(whole, id, hintEdits(id.length));
      if (edits <= hintEdits(id.length) && (best === undefined || edits < best.edits)) best = { id, edits };
    }
    return best?.id;
  }

  /** The ids one of whose slices the text holds near where the id has it (the last text's, kept: closest() asks again). */
  private candidates(written: string): ReadonlySet<string> {
    if (this.lastCandidates?.text === written) return this.lastCandidates.ids;
    // Made at the first candidate: most texts (an id of no door, at every sync) have none, and allocate nothing.
    let ids: Set<string> | undefined;
    // One unit per character, so an edit is one position (a character of two UTF-16 units matches no slice anyway).
    const text = written.replace(ASTRAL, '\ufffd');
    for (const length of this.sliceLengths) {
      if (text.length < length) continue;
      // The windows' hashes in one pass (windowHashes, inlined: this runs for every id of the settings at every sync).
      let top = 1;
      for (let i = 1; i < length; i += 1) top = Math.imul(top, HASH_BASE);
      let hash = 0;
      for (let i = 0; i < text.length; i += 1) {
        if (i >= length) hash = (hash - Math.imul(text.charCodeAt(i - length), top)) | 0;
        hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(i)) | 0;
        if (i < length - 1) continue;
        const bit = hash & BLOOM_MASK;
        if (((this.bloom[bit >>> 5] ?? 0) & (1 << (bit & 31))) === 0) continue;
        const hits = this.slices.get(hash & SMALL_INTEGER);
        if (hits === undefined) continue;
        const start = i - length + 1;
        for (const slice of Array.isArray(hits) ? hits : [hits]) {
          if (Math.abs(start - slice.offset) <= slice.reach && text.startsWith(slice.text, start)) (ids ??= new Set()).add(slice.id);
        }
      }
    }
    this.lastCandidates = { text: written, ids: ids ?? NONE };
    return ids ?? NONE;
  }
}

function push<K, T>(map: Map<K, T[]>, key: K, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

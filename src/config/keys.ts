// The keys of one block of config.json as the plugin reads them: each known, read as the known key it nearly is (with a
// warning naming both), or named as unknown with the known key it is closest to. Nothing is dropped or guessed in silence,
// and a key that falls between a setting that protects a door and one that does not is read as the one that protects.
import { closestAll, nearMisses } from '../util/near-miss.js';
import { typed } from './redacted.js';

export interface KeyRules {
  /** The keys the block may hold. */
  known: readonly string[];
  /** Keys that belong to someone else (Homebridge's platform and _bridge): kept, never named. */
  others?: readonly string[];
  /** One value for a key written several ways with different values; undefined: the exact key's (or the first) wins. */
  combine?: (key: string, values: unknown[]) => Combined | undefined;
  /**
   * What an unknown key closest to a protective key leads to ("this door is read-only until it is fixed"), or
   * undefined when that known key protects nothing with this value; the caller applies it. It also tells a protective
   * key from the others where a typed key is as near to two.
   */
  doubt?: (key: string, value: unknown) => string | undefined;
  /**
   * Whether a known key narrows what Home may do (read-only, a filter): a key as near to two such keys is read as both,
   * and one as near to such a key as to another is read as the one that narrows. Left out: the keys `doubt` speaks for.
   */
  narrowing?: (key: string, value: unknown) => boolean;
  /** Whether a key that is a note by its shape (isNote) is read as nothing: the top level and door entries. */
  notes?: boolean;
  /** What an unknown key (no near miss) still does, said after "is not a setting the plugin knows"; undefined: nothing. */
  unknown?: (key: string, value: unknown) => string | undefined;
}

/** How several spellings of one key were read as one value. */
export interface Combined {
  value: unknown;
  /** What was made of them, after "… differ, so". */
  how: string;
  /** They cannot be read as one without doubt: the caller fails closed as for a doubt. */
  doubt?: true;
}

export interface ReadKeys {
  /** The block under known keys, with unknown ones kept as written (a later version's setting is not lost on a save). */
  block: Record<string, unknown>;
  /** One sentence for each near miss, each unknown key, each key written twice, with the key as written; the caller says where the block is. */
  sentences: { key: string; sentence: string }[];
  /** Protective keys an unknown key may have meant, with that key's value. */
  doubts: { key: string; value: unknown }[];
  /** Each known key written another way, with the ways it was written ("readonly" for readOnly): what a fix rewrites. */
  aliases: Map<string, string[]>;
  /** Keys that are notes by their shape (isNote): kept as written, read as nothing. */
  notes: string[];
}

/** A key that is a note by its shape: "_comment" (not "__proto__"), "//", "# garage", "comments", "note", "description", in any case. */
const NOTE_KEY = /^(?:_(?!_)|\/\/|#)|^(?:comments?|notes?|description)$/iu;

/** Whether a key is a note the user left (it names no door and changes nothing), not a setting. */
export const isNote = (key: string): boolean => NOTE_KEY.test(key.trim());

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A record with no prototype: a key "__proto__" or "constructor" in config.json is a key like any other here. */
function plainRecord(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Reads the keys of one block (see the file's comment). */
export function readKeys(raw: Record<string, unknown>, rules: KeyRules): ReadKeys {
  const sentences: { key: string; sentence: string }[] = [];
  const doubts: { key: string; value: unknown }[] = [];
  const notes: string[] = [];
  const block = plainRecord();
  /** Every way a known key was written, the exact one first. */
  const written = new Map<string, { as: string; value: unknown }[]>();
  for (const [key, value] of Object.entries(raw)) {
    if (rules.known.includes(key)) {
      written.set(key, [{ as: key, value }, ...(written.get(key) ?? [])]);
      continue;
    }
    if (rules.others?.includes(key)) {
      block[key] = value;
      continue;
    }
    // A note is kept for the next save and read as nothing: the ids in it protect no door, and no line asks for a fix.
    if (rules.notes === true && isNote(key)) {
      block[key] = value;
      notes.push(key);
      continue;
    }
    const shown = typed(key);
    const protects = (near: string): boolean => (rules.narrowing ? rules.narrowing(near, value) : rules.doubt?.(near, value) !== undefined);
    const nearly = nearMisses(key, rules.known);
    // Between two as near, the ones that narrow: read as the other, a typo would open what the user meant to close; as
    // near to two that narrow, it is read as both (an exclusion and a read-only both hold), never as one of them.
    const narrowing = nearly.filter(protects);
    const meant = nearly.length === 1 ? nearly : narrowing;
    if (meant.length > 0) {
      const others = nearly.filter((word) => !meant.includes(word));
      const why =
        meant.length > 1
          ? ` (as near to each, and each of them narrows what Home may do)`
          : others.length === 0
            ? ''
            : ` (as near to ${others.join(' and ')}; of these, ${meant.join('')} protects a door)`;
      sentences.push({ key, sentence: `${shown} is read as ${meant.join(' and as ')}${why}` });
      for (const each of meant) written.set(each, [...(written.get(each) ?? []), { as: key, value }]);
      continue;
    }
    block[key] = value;
    const candidates = closestAll(key, rules.known);
    const near = candidates.find(protects) ?? candidates[0];
    const consequence = near === undefined ? undefined : rules.doubt?.(near, value);
    if (near !== undefined && consequence !== undefined) doubts.push({ key: near, value });
    const hint = near === undefined ? '' : `; the closest setting is ${near}`;
    const still = consequence === undefined ? rules.unknown?.(key, value) : undefined;
    sentences.push({
      key,
      sentence:
        `${shown} is not a setting the plugin knows, so it is ignored${hint}` +
        (consequence !== undefined ? `, and as it may mean ${near}, ${consequence}` : still !== undefined ? `; ${still}` : ''),
    });
  }
  const aliases = new Map<string, string[]>();
  for (const [key, ways] of written) {
    const others = ways.filter((way) => way.as !== key).map((way) => way.as);
    if (others.length > 0) aliases.set(key, others);
    const [first, ...rest] = ways;
    if (first === undefined) continue;
    block[key] = first.value;
    if (rest.length === 0 || rest.every((way) => same(way.value, first.value))) continue;
    const names = ways.map((way) => (way.as === key ? key : typed(way.as)));
    const combined = rules.combine?.(
      key,
      ways.map((way) => way.value),
    );
    if (combined !== undefined) {
      block[key] = combined.value;
      if (combined.doubt) doubts.push({ key, value: combined.value });
      sentences.push({ key, sentence: `${names.join(' and ')} are all read as ${key} and differ, so ${combined.how}` });
    } else {
      sentences.push({
        key,
        sentence: `${names.join(' and ')} are all read as ${key} and differ, so the first, ${names[0] ?? key}, is used`,
      });
    }
  }
  return { block, sentences, doubts, aliases, notes };
}

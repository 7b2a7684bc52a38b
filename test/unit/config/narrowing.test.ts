// A key typed between a setting that narrows what Home may open and one that does not is read as the narrowing one, for
// every such pair of the catalog (issue 36): the walk builds, for each pair, the key halfway along the edits from the
// widening key to the narrowing one, and checks the door the narrowing setting protects does not open.
import { describe, expect, it } from 'vitest';

import { configSchema, parseConfig } from '../../../src/config/index.js';
import { protectionFor } from '../../../src/config/protection.js';
import { skeleton } from '../../../src/util/skeleton.js';
import type { PluginConfig } from '../../../src/config/index.js';
import { OPTIONS, perDoor } from '../../../src/option-catalog.js';
import { doorOptions, exclusionReason, guarded } from '../../../src/config/door-options.js';
import { closestAll, editDistance, fold, nearMisses } from '../../../src/util/near-miss.js';

const valid = { accessToken: 'ac_live_4f9b8e2d7c1a6b3f', baseUrl: 'https://api.example.com' };
const A = '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c';
const B = 'a7c9e1f3-5b2d-4c8e-9f1a-3b5d7e9f1a2c';

/** The word `from` turned `steps` edits of the way into `to` (a shortest edit path, from the end of both). */
function partWay(from: string, to: string, steps: number): string {
  const rows = Array.from({ length: from.length + 1 }, (_, i) =>
    Array.from({ length: to.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= from.length; i += 1) {
    for (let j = 1; j <= to.length; j += 1) {
      const cost = from[i - 1] === to[j - 1] ? 0 : 1;
      (rows[i] ?? [])[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
    }
  }
  let [i, j, word, left] = [from.length, to.length, from, steps];
  while (left > 0 && (i > 0 || j > 0)) {
    const here = at(i, j);
    if (i > 0 && j > 0 && from[i - 1] === to[j - 1] && at(i - 1, j - 1) === here) {
      [i, j] = [i - 1, j - 1];
    } else if (i > 0 && j > 0 && at(i - 1, j - 1) === here - 1) {
      word = word.slice(0, i - 1) + to.charAt(j - 1) + word.slice(i);
      [i, j, left] = [i - 1, j - 1, left - 1];
    } else if (i > 0 && at(i - 1, j) === here - 1) {
      word = word.slice(0, i - 1) + word.slice(i);
      [i, left] = [i - 1, left - 1];
    } else {
      word = word.slice(0, i) + to.charAt(j - 1) + word.slice(i);
      [j, left] = [j - 1, left - 1];
    }
  }
  return word;
}

/** The keys are plain ASCII: reversing their UTF-16 units is reversing their letters. */
const reverse = (word: string): string => word.split('').reverse().join('');

/**
 * Keys typed halfway between a widening and a narrowing key (or nearer the narrowing one), along edit paths taken from
 * either end of the words, that read as near both and are neither.
 */
function between(widening: string, narrowing: string, known: readonly string[]): string[] {
  const [w, n] = [fold(widening), fold(narrowing)];
  const d = editDistance(w, n);
  const typed = new Set([
    partWay(w, n, Math.ceil(d / 2)),
    reverse(partWay(reverse(w), reverse(n), Math.ceil(d / 2))),
    partWay(n, w, Math.floor(d / 2)),
    reverse(partWay(reverse(n), reverse(w), Math.floor(d / 2))),
  ]);
  return [...typed].filter((key) => {
    if (known.some((word) => fold(word) === key)) return false;
    const near = nearMisses(key, known);
    const candidates = near.length > 0 ? near : closestAll(key, known);
    return candidates.includes(widening) && candidates.includes(narrowing);
  });
}

const read = (raw: Record<string, unknown>): PluginConfig => {
  const result = parseConfig({ ...valid, ...raw });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
};
/** Whether the door opens from Home in an account of A (controller dev-1) and B (dev-2): what it names read with it. */
function opens(config: PluginConfig, door = A, controller = 'dev-1'): boolean {
  const protection = protectionFor(
    config,
    {
      doors: [
        { id: A, deviceId: 'dev-1' },
        { id: B, deviceId: 'dev-2' },
      ],
    },
    skeleton,
  );
  return (
    exclusionReason(config, { id: door, relationship: 'owner' }, controller, protection) === undefined &&
    !doorOptions(config, door, controller).readOnly &&
    !guarded(protection, door)
  );
}

/** The top-level settings that narrow, each with a value that protects door A and how to tell it held. */
const TOP_NARROWING: Record<string, unknown> = {
  readOnly: true,
  excludeDoorIds: [A],
  excludeDeviceIds: ['dev-1'],
  includeDoorIds: [B],
  includeDeviceIds: ['dev-2'],
};
/** A door entry's settings that narrow, with a value that protects that door. */
const DOOR_NARROWING: Record<string, unknown> = { readOnly: true, hide: true };

const TOP_KEYS = Object.keys(configSchema.shape);
const DOOR_KEYS = ['id', 'name', ...OPTIONS.filter(perDoor).map((option) => option.key)];

const pairs = (known: readonly string[], narrowing: Record<string, unknown>) =>
  Object.keys(narrowing).flatMap((n) =>
    known.filter((w) => !(w in narrowing)).flatMap((w) => between(w, n, known).map((typed) => ({ widening: w, narrowing: n, typed }))),
  );

describe('a key between a widening and a narrowing setting', () => {
  const top = pairs(TOP_KEYS, TOP_NARROWING);
  const door = pairs(DOOR_KEYS, DOOR_NARROWING);

  it('is found for some pairs of the catalog (the walk is not empty)', () => {
    expect(top.map((pair) => pair.typed)).toContain('excludedoors');
    expect(top.map((pair) => pair.typed)).toContain('includedooris');
  });

  it.each(top)('top level: $typed (between $widening and $narrowing) keeps door A closed', ({ narrowing, typed }) => {
    expect(opens(read({ [typed]: TOP_NARROWING[narrowing] }))).toBe(false);
  });

  it.each(door)('door entry: $typed (between $widening and $narrowing) keeps that door closed', ({ narrowing, typed }) => {
    expect(opens(read({ doors: [{ id: A, [typed]: DOOR_NARROWING[narrowing] }] }))).toBe(false);
    expect(opens(read({ doors: [{ id: A, [typed]: DOOR_NARROWING[narrowing] }] }), B)).toBe(true);
  });
});

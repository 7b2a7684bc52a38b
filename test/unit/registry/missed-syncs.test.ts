// A door in Home leaves only when SYNCS_MISSING_BEFORE_REMOVAL complete syncs in a row did not list it: each door counted
// on its own, and its count starting over once it is listed again (forgotten).
import { describe, expect, it } from 'vitest';

import { MissedSyncs } from '../../../src/registry/missed-syncs.js';
import { SYNCS_MISSING_BEFORE_REMOVAL } from '../../../src/settings.js';

const inHome = new Map([
  ['u1', 'Gate 1'],
  ['u2', 'Gate 2'],
  ['u3', 'Gate 3'],
]);

/** The doors gone after each of `syncs` complete syncs that listed `seen`. */
const goneAfter = (missed: MissedSyncs, syncs: number, seen: string[]): string[][] =>
  Array.from({ length: syncs }, () => missed.gone(inHome, new Set(seen)));

describe('MissedSyncs', () => {
  it(`says a door is gone after ${SYNCS_MISSING_BEFORE_REMOVAL} complete syncs in a row without it, not before`, () => {
    const missed = new MissedSyncs();
    const runs = goneAfter(missed, SYNCS_MISSING_BEFORE_REMOVAL, ['u1', 'u3']);
    expect(runs.slice(0, -1).flat()).toEqual([]);
    expect(runs.at(-1)).toEqual(['Gate 2']);
  });

  it('counts each door on its own', () => {
    const missed = new MissedSyncs();
    goneAfter(missed, SYNCS_MISSING_BEFORE_REMOVAL - 1, ['u1', 'u3']);
    expect(missed.gone(inHome, new Set(['u1']))).toEqual(['Gate 2']);
    expect(goneAfter(missed, SYNCS_MISSING_BEFORE_REMOVAL - 2, ['u1']).flat()).toEqual([]);
    expect(missed.gone(inHome, new Set(['u1']))).toEqual(['Gate 2', 'Gate 3']);
  });

  it('starts a door over once it is forgotten (listed again, or out of Home)', () => {
    const missed = new MissedSyncs();
    goneAfter(missed, SYNCS_MISSING_BEFORE_REMOVAL - 1, ['u1', 'u3']);
    missed.forget('u2');
    expect(goneAfter(missed, SYNCS_MISSING_BEFORE_REMOVAL - 1, ['u1', 'u3']).flat()).toEqual([]);
    expect(missed.gone(inHome, new Set(['u1', 'u3']))).toEqual(['Gate 2']);
  });
});

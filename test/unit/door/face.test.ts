// The door kinds' table (src/door/face.ts): one row per "Show in Home as" value, checked by the compiler (a missing or
// unknown kind is a type error, proven below with @ts-expect-error, which `npm run typecheck` checks), and what reads it.
import * as hap from 'hap-nodejs';
import type { HAP } from 'homebridge';
import { describe, expect, it } from 'vitest';

import { cachedKind, FACES, findKindService, mainServiceOf, siriPhrases, strayKindServices } from '../../../src/door/face.js';
import type { FaceSpec, FaceTable } from '../../../src/door/face.js';
import { SHOW_AS_KINDS } from '../../../src/option-catalog.js';
import type { ShowAs } from '../../../src/option-catalog.js';
import { frontGateAccessory } from '../../support/door-fixtures.js';

const H = hap as unknown as HAP;
const { Service: S } = hap;

describe('the door kinds table', () => {
  it('has exactly one row per "Show in Home as" value of the option catalog, in its order', () => {
    expect(Object.keys(FACES)).toEqual([...SHOW_AS_KINDS]);
  });

  it('does not compile without a row for every kind, nor with a row of no kind', () => {
    const garage: FaceSpec = FACES['garage-door'];
    // @ts-expect-error a table without the lock's row is not a FaceTable
    const missing: FaceTable = { 'garage-door': garage };
    // @ts-expect-error a row for a kind the catalog does not offer
    const unknown: FaceTable = { ...FACES, gate: garage };
    expect([missing, unknown]).toHaveLength(2);
  });

  it('gives each kind its own HomeKit service, its words in the log and its Siri phrases', () => {
    expect(mainServiceOf(H, 'garage-door')).toBe(S.GarageDoorOpener);
    expect(mainServiceOf(H, 'lock')).toBe(S.LockMechanism);
    expect(new Set(SHOW_AS_KINDS.map((kind) => mainServiceOf(H, kind).UUID)).size).toBe(SHOW_AS_KINDS.length);
    expect([FACES['garage-door'].words, FACES.lock.words]).toEqual(['a garage door', 'a lock']);
    // Every kind's words tell it apart in the kind-change warning, a new kind's too.
    expect(new Set(SHOW_AS_KINDS.map((kind) => FACES[kind].words)).size).toBe(SHOW_AS_KINDS.length);
    expect(siriPhrases('garage-door', 'Front Gate')).toEqual({ open: 'Open the Front Gate', close: 'Close the Front Gate' });
    expect(siriPhrases('lock', 'Front Gate')).toEqual({ open: 'Unlock the Front Gate', close: 'Lock the Front Gate' });
  });
});

describe('the kind a cached accessory shows', () => {
  it('is none for a new accessory, and the kind of the door-kind service it holds', () => {
    const accessory = frontGateAccessory();
    expect(cachedKind(H, accessory)).toBeUndefined();
    accessory.addService(S.LockMechanism, 'Front Gate');
    expect(cachedKind(H, accessory)).toBe('lock');
    expect(cachedKind(H, accessory, 'garage-door')).toBe('lock');
  });

  it("is the kind the settings want when a cache holds several, else the table's first; the others are strays", () => {
    const accessory = frontGateAccessory();
    accessory.addService(S.LockMechanism, 'Front Gate');
    accessory.addService(S.GarageDoorOpener, 'Front Gate');
    expect(cachedKind(H, accessory, 'lock')).toBe('lock');
    expect(cachedKind(H, accessory, 'garage-door')).toBe('garage-door');
    expect(cachedKind(H, accessory)).toBe('garage-door');
    const straysBeside = (kind: ShowAs) =>
      strayKindServices(H, accessory, findKindService(H, accessory, kind)).map((service) => service.UUID);
    expect(straysBeside('lock')).toEqual([S.GarageDoorOpener.UUID]);
    expect(straysBeside('garage-door')).toEqual([S.LockMechanism.UUID]);
  });
});

// After a one-click fix the keyboard goes on to the next fix still offered, or (none left) to the check's summary.
import { describe, expect, it } from 'vitest';

import { fixAfter, fixKey } from '../../../../src/ui/page/fix-order.js';
import type { KeyFix } from '../../../../src/ui/shared/messages.js';

const top: KeyFix = { parent: '', written: 'readonly', key: 'readOnly' };
const topAgain: KeyFix = { parent: '', written: 'ReadOnly', key: 'readOnly' };
const door: KeyFix = { parent: 'doors.0', written: 'Readonly', key: 'readOnly' };
const hook: KeyFix = { parent: 'webhook', written: 'Port', key: 'port' };

/** The check after a fix: new objects for the fixes still offered (each check builds its own). */
const recheck = (fixes: KeyFix[]): KeyFix[] => fixes.map((fix) => ({ ...fix }));

describe('the fix the keyboard goes on to', () => {
  it('is the one after the fix applied, else the one before it, else none', () => {
    const all = [top, topAgain, door, hook];
    expect(fixAfter(all, topAgain, recheck([top, door, hook]))).toEqual(door);
    expect(fixAfter(all, hook, recheck([top, topAgain, door]))).toEqual(door);
    expect(fixAfter([door], door, [])).toBeUndefined();
    // Skips a fix the applied one took along (two spellings of one key rewritten together), by identity, not by object.
    expect(fixAfter(all, top, recheck([door, hook]))).toEqual(door);
    // A fix offered only now (not in the list as it was) still takes the keyboard before the summary does.
    expect(fixAfter([top], top, recheck([hook]))).toEqual(hook);
  });

  it('tells fixes apart by where they are and how the key was written', () => {
    expect(new Set([top, topAgain, door, hook].map(fixKey)).size).toBe(4);
    expect(fixKey({ ...top })).toBe(fixKey(top));
  });
});

// Names Siri cannot tell apart: equal after case, spaces and punctuation; each pair once.
import { describe, expect, it } from 'vitest';

import { soundAlikePairs, spokenForm } from '../../../src/door/spoken-names.js';

describe('names Siri cannot tell apart', () => {
  it('sets aside case, spaces and punctuation, and nothing else', () => {
    expect(spokenForm('Front-Gate ')).toBe(spokenForm('front gate'));
    expect(spokenForm("Ada's Garage")).toBe(spokenForm('Adas garage'));
    expect(spokenForm('Gate 1')).not.toBe(spokenForm('Gate 2'));
    expect(spokenForm('Garage')).not.toBe(spokenForm('Garage Door'));
  });

  it('names every pair once, in the order the doors came', () => {
    const doors = [
      { id: 'a', name: 'Gate' },
      { id: 'b', name: 'Garage' },
      { id: 'c', name: 'gate.' },
      { id: 'd', name: 'G A T E' },
    ];
    expect(soundAlikePairs(doors).map(([x, y]) => `${x.id}${y.id}`)).toEqual(['ac', 'ad', 'cd']);
    expect(soundAlikePairs([{ id: 'a', name: 'Gate' }])).toEqual([]);
  });
});

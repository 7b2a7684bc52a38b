// A door's name and serial number on Matter, which caps both at 32 characters.
import { describe, expect, it } from 'vitest';

import { matterName, matterSerial } from '../../../src/matter/matter-doors.js';

describe('matterName', () => {
  it('keeps a name that fits', () => {
    expect(matterName('Front Gate')).toBe('Front Gate');
  });

  it('cuts a longer name to 32 characters between two characters as the user sees them, and trims the end', () => {
    expect(matterName('Tiefgarage Nordflügel Einfahrt g\u0308ate')).toBe('Tiefgarage Nordflügel Einfahrt');
    expect(matterName('A'.repeat(31) + '🚗 Gate')).toBe('A'.repeat(31));
    expect(matterName('B'.repeat(40))).toBe('B'.repeat(32));
  });
});

describe('matterSerial', () => {
  it('is the door id when it fits', () => {
    expect(matterSerial('door-17')).toBe('door-17');
  });

  it('is a UUID without its dashes (exactly 32 characters)', () => {
    expect(matterSerial('3f1c6a52-8d0e-4c1b-9a57-0c2f4d6e8a01')).toBe('3f1c6a528d0e4c1b9a570c2f4d6e8a01');
  });

  it('keeps two long ids with the same start apart, within 32 characters', () => {
    const a = matterSerial('x'.repeat(40) + 'a');
    const b = matterSerial('x'.repeat(40) + 'b');
    expect(a).not.toBe(b);
    expect(Math.max(a.length, b.length)).toBeLessThanOrEqual(32);
  });
});

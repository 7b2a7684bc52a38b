// The service's times read exactly or not at all: the contract's YYYY-MM-DD with or without a time, ISO 8601 in either
// form with a fraction and a zone; days, hours and zones that do not exist refused (issue 43).
import { describe, expect, it } from 'vitest';

import { readServiceTime, sameMomentInSomeZone, serviceTimeMs } from '../../../src/people/service-time.js';

describe('reading the service’s times', () => {
  it('reads a day, a time without seconds, a zone; refuses anything else', () => {
    expect(readServiceTime('2026-11-21')).toEqual({ day: '2026-11-21' });
    expect(readServiceTime('2026-11-21 10:05')?.wallMs).toBe(Date.parse('2026-11-21T10:05:00Z'));
    expect(readServiceTime('2026-11-21T11:05:00+01:00')).toEqual({
      day: '2026-11-21',
      wallMs: Date.parse('2026-11-21T11:05:00Z'),
      instantMs: Date.parse('2026-11-21T10:05:00Z'),
    });
    expect(readServiceTime('21/11/2026')).toBeUndefined();
    expect(readServiceTime('2026-13-45')).toBeUndefined();
    expect(readServiceTime(undefined)).toBeUndefined();
  });

  it('reads ISO 8601 in its basic form, with a comma fraction and in lower case; refuses days, hours and zones that do not exist', () => {
    const at = Date.parse('2026-11-21T10:05:54.500Z');
    expect(readServiceTime('20261121T110554,5+0100')).toEqual({ day: '2026-11-21', wallMs: at + 3_600_000, instantMs: at });
    expect(readServiceTime('2026-11-21t10:05:54.5z')?.instantMs).toBe(at);
    expect(readServiceTime('20261121')).toEqual({ day: '2026-11-21' });
    expect(readServiceTime('2026-11-21T10:05:54-05:30')?.instantMs).toBe(Date.parse('2026-11-21T15:35:54Z'));
    for (const wrong of [
      '2026-02-30',
      '2026-02-29 10:00:00',
      '2026-11-21T24:00:00Z',
      '2026-11-21T23:59:60Z',
      '2026-11-21T10:60:00',
      '2026-11-21T10:00:00+25:00',
      '2026-11-21T10:00:00+01:75',
      '27/11/2026 11:05:54',
      '2026-11-21 11:05:54 PM',
      'Sat, 21 Nov 2026 10:05:54 GMT',
      '1795305954',
      '2026-11-21T10',
    ]) {
      expect(readServiceTime(wrong), wrong).toBeUndefined();
    }
  });

  it('takes two times as one moment when a zone apart, within a second or two', () => {
    const at = Date.parse('2026-11-21T10:00:40Z');
    expect(sameMomentInSomeZone(at, at + 5.5 * 3_600_000 + 1000)).toBe(true);
    expect(sameMomentInSomeZone(at, at + 30_000)).toBe(false);
    expect(sameMomentInSomeZone(at, at + 15 * 3_600_000)).toBe(false);
  });

  it('gives a time of day in ms (the instant when zoned), and nothing for a day alone or what it cannot read', () => {
    expect(serviceTimeMs('2026-11-21 12:00:05')).toBe(Date.parse('2026-11-21T12:00:05Z'));
    expect(serviceTimeMs('2026-11-21T12:00:05+01:00')).toBe(Date.parse('2026-11-21T11:00:05Z'));
    expect(serviceTimeMs('20261121T120005Z')).toBe(Date.parse('2026-11-21T12:00:05Z'));
    expect(serviceTimeMs('2026-11-21 12:05')).toBe(Date.parse('2026-11-21T12:05:00Z'));
    expect(serviceTimeMs('2026-11-21')).toBeUndefined();
    expect(serviceTimeMs('21/11/2026 12:00:05')).toBeUndefined();
    expect(serviceTimeMs(undefined)).toBeUndefined();
  });
});

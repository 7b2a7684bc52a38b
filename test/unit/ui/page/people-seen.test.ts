// "People and activity": the people the history names grouped across doors, e-mails only where names are shared, and the tick's lossless edit of `people`.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../../src/config/index.js';
import { peopleCounted } from '../../../../src/ui/server/activity-entries.js';
import { checkBlock } from '../../../../src/ui/shared/check-config.js';
import { listingOf, peopleSeen, setPersonListed, sharedNames } from '../../../../src/ui/page/people-seen.js';
import type { Block } from '../../../../src/ui/shared/block.js';
import type { ActivityEntry, DoorActivity, PersonSeen } from '../../../../src/ui/shared/messages.js';

const GRACE: PersonSeen = { name: 'Grace Hopper', email: 'grace@example.com' };
const ALAN: PersonSeen = { name: 'Alan Turing', email: 'alan@example.com' };
const ALEX_1: PersonSeen = { name: 'Alex Kim', email: 'alex.kim@example.com' };
const ALEX_2: PersonSeen = { name: 'alex  KIM', email: 'akim@example.org' };

const entry = (person: PersonSeen | undefined, outcome: ActivityEntry['outcome'] = 'done'): ActivityEntry => ({
  at: '2026-11-20 10:00:00',
  atMs: Date.UTC(2026, 10, 20, 10),
  state: 'OPEN',
  outcome,
  channel: 'Keypad',
  person,
});
const door = (doorId: string, ...entries: ActivityEntry[]): DoorActivity => ({
  doorId,
  ok: true,
  entries,
  more: 0,
  total: entries.length,
  refused: entries.filter((e) => e.outcome === 'refused' || e.outcome === 'unauthorized').length,
  people: peopleCounted(entries),
});
const NAMES: Record<string, string> = { front: 'Front Gate', garage: 'Garage Door', shared: 'Shared Gate' };
const nameOf = (id: string): string => NAMES[id] ?? id;

describe('peopleSeen', () => {
  it('groups one person across doors by e-mail (any case): how many times, how many refused, and where', () => {
    const people = peopleSeen(
      [
        door('front', entry(GRACE), entry(ALAN, 'refused'), entry(undefined)),
        door('garage', entry({ name: 'Grace Hopper', email: 'GRACE@Example.com' }), entry(GRACE, 'unauthorized')),
        { doorId: 'shared', ok: false, message: 'refused' },
      ],
      nameOf,
    );
    expect(people).toEqual([
      { ...GRACE, key: 'grace@example.com', times: 3, refused: 1, doors: ['Front Gate', 'Garage Door'], showEmail: false },
      { ...ALAN, key: 'alan@example.com', times: 1, refused: 1, doors: ['Front Gate'], showEmail: false },
    ]);
  });

  it('shows e-mails only for people who share a name (case and spaces aside); one person seen twice shares with nobody', () => {
    const people = peopleSeen([door('front', entry(ALEX_1), entry(ALEX_2), entry(GRACE), entry(GRACE), entry(ALEX_1))], nameOf);
    expect(people.map((person) => [person.email, person.showEmail])).toEqual([
      ['alex.kim@example.com', true],
      ['grace@example.com', false],
      ['akim@example.org', true],
    ]);
    expect(sharedNames([GRACE, GRACE, ALAN])).toEqual(new Set());
    expect(sharedNames([ALEX_1, ALEX_2, GRACE])).toEqual(new Set(['alexkim']));
  });

  it('tells apart a person without an e-mail by name, and never shows an e-mail that is not there', () => {
    const noMail: PersonSeen = { name: 'Alex Kim', email: undefined };
    const people = peopleSeen([door('front', entry(noMail), entry(ALEX_1))], nameOf);
    expect(people.map((person) => [person.key, person.showEmail])).toEqual([
      ['alex.kim@example.com', true],
      ['name:alexkim', false],
    ]);
  });
});

describe('the tick of a person: setPersonListed', () => {
  const written: Block = {
    platform: 'AccessControl',
    baseUrl: 'https://api.example.com',
    accessToken: 'token',
    pollInterval: 30,
    people: [{ name: 'Kids', user: 'Alan@Example.com', doors: ['door-3'] }, { name: 'Someone Else', user: '*' }, 'odd but kept'],
    unknownKey: { kept: true },
  };

  it('adds exactly { name, user: e-mail } at the end, and every other key and entry stays as written', () => {
    const next = setPersonListed(written, GRACE, true);
    expect(next).toEqual({ ...written, people: [...(written.people as unknown[]), { name: 'Grace Hopper', user: 'grace@example.com' }] });
    expect(written.people).toHaveLength(3);
    expect(listingOf(next, GRACE)).toBe('email');
    expect(setPersonListed(next, GRACE, true)).toBe(next);
  });

  it('untick removes only the entries whose user is their e-mail as userKey reads it (case and spaces aside)', () => {
    expect(listingOf(written, ALAN)).toBe('email');
    expect(setPersonListed(written, ALAN, false)).toEqual({
      ...written,
      people: [{ name: 'Someone Else', user: '*' }, 'odd but kept'],
    });
  });

  it('starts the list when there is none, and drops the list it empties', () => {
    const bare: Block = { platform: 'AccessControl', baseUrl: 'https://api.example.com', accessToken: 'token' };
    const added = setPersonListed(bare, GRACE, true);
    expect(added).toEqual({ ...bare, people: [{ name: 'Grace Hopper', user: 'grace@example.com' }] });
    expect(setPersonListed(added, GRACE, false)).toEqual(bare);
  });

  it("passes the page's check and the plugin's parser, which reads the new person", () => {
    const next = setPersonListed(written, GRACE, true);
    const check = checkBlock(next, undefined);
    expect(check.problems).toEqual([]);
    // Only what was there before: the entry kept as written that the plugin cannot read.
    expect(check.ignored).toEqual(checkBlock(written, undefined).ignored);
    expect(check.ignored).toHaveLength(1);
    const parsed = parseConfig(next);
    expect(parsed.ok && parsed.config.people).toContainEqual({ name: 'Grace Hopper', user: 'grace@example.com' });
  });

  it('changes nothing for a person without an e-mail, a people that is not a list, or a person listed only by name', () => {
    expect(setPersonListed(written, { name: 'Eve', email: undefined }, true)).toBe(written);
    const notList: Block = { ...written, people: 'Grace' };
    expect(setPersonListed(notList, GRACE, true)).toBe(notList);
    const byName: Block = { ...written, people: [{ name: 'Grace', user: 'grace hopper' }] };
    expect(listingOf(byName, GRACE)).toBe('name');
    expect(listingOf(byName, ALAN)).toBe('none');
    expect(setPersonListed(byName, GRACE, false)).toBe(byName);
  });

  it('writes a name HomeKit takes', () => {
    const next = setPersonListed({}, { name: '«Grace» Hopper!', email: 'grace@example.com' }, true);
    expect(next.people).toEqual([{ name: 'Grace Hopper', user: 'grace@example.com' }]);
  });
});

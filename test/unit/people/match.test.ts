import { describe, expect, it } from 'vitest';

import { PeopleDirectory, detectsFor, names, userKey } from '../../../src/people/match.js';

const grace = { email: 'Grace@Example.com', firstName: 'Grace', lastName: 'Hopper' };
const alan = { email: 'alan@example.com', firstName: 'Alan', lastName: 'Turing' };

describe('who a person entry names', () => {
  it('matches the e-mail address case-insensitively and trimmed', () => {
    expect(names({ user: ' grace@EXAMPLE.com ' }, grace)).toBe(true);
    expect(names({ user: 'grace@example.org' }, grace)).toBe(false);
  });

  it('matches "First Last" as the service spells it, case and spaces ignored', () => {
    expect(names({ user: 'grace hopper' }, grace)).toBe(true);
    expect(names({ user: 'GraceHopper' }, grace)).toBe(true);
    expect(names({ user: 'Grace' }, grace)).toBe(false);
    expect(names({ user: 'Ada Lovelace' }, { name: 'Ada  Lovelace' })).toBe(true);
  });

  it('never takes a name for an e-mail address, nor "*" for a person', () => {
    expect(names({ user: 'grace@example.com' }, { name: 'grace@example.com' })).toBe(false);
    expect(names({ user: '*' }, grace)).toBe(false);
    expect(userKey(' A@B.C ')).toBe('a@b.c');
  });
});

describe('whose sensors a move makes detect', () => {
  const people = [{ user: 'grace@example.com' }, { user: 'Alan Turing', doors: ['gate'] }, { user: '*', doors: ['gate', 'garage'] }];

  it('detects for the person named, on their doors only', () => {
    expect(detectsFor(people, { doorId: 'gate', user: grace })).toEqual([0]);
    expect(detectsFor(people, { doorId: 'gate', user: alan })).toEqual([1]);
    expect(detectsFor(people, { doorId: 'garage', user: alan })).toEqual([]);
  });

  it('gives anyone not listed to the "*" entry, on its doors only', () => {
    const mallory = { email: 'mallory@example.com', firstName: 'Mallory', lastName: 'Doe' };
    expect(detectsFor(people, { doorId: 'garage', user: mallory })).toEqual([2]);
    expect(detectsFor(people, { doorId: 'side', user: mallory })).toEqual([]);
  });

  it('detects for nobody when the move names nobody', () => {
    expect(detectsFor(people, { doorId: 'gate', user: undefined })).toEqual([]);
    expect(detectsFor(people, { doorId: 'gate', user: {} })).toEqual([]);
    expect(detectsFor(people, { doorId: 'gate', user: { firstName: '  ' } })).toEqual([]);
  });
});

describe('a user named one way alone (issue 37)', () => {
  const byEmail = [{ user: 'grace@example.com' }, { user: '*' }];
  const byName = [{ user: 'Grace Hopper' }, { user: '*' }];
  const paired = (): PeopleDirectory => {
    const directory = new PeopleDirectory();
    directory.learn(grace);
    directory.learn(alan);
    return directory;
  };

  it('detects for a person listed by e-mail and named by name alone, when the history pairs the two', () => {
    const named = { firstName: 'Grace', lastName: 'Hopper' };
    expect(detectsFor(byEmail, { doorId: 'gate', user: named }, paired())).toEqual([0]);
    // Without the pair, the plugin cannot tell whether she is listed: nobody, never "*".
    expect(detectsFor(byEmail, { doorId: 'gate', user: named })).toEqual([]);
  });

  it('detects for a person listed by name and named by e-mail alone, when the history pairs the two', () => {
    expect(detectsFor(byName, { doorId: 'gate', user: { email: 'GRACE@example.com' } }, paired())).toEqual([0]);
    expect(detectsFor(byName, { doorId: 'gate', user: { email: 'grace@example.com' } })).toEqual([]);
  });

  it('gives "*" only to a user surely not listed: a name no listed person carries, an e-mail no entry lists', () => {
    expect(detectsFor(byEmail, { doorId: 'gate', user: { firstName: 'Alan', lastName: 'Turing' } }, paired())).toEqual([1]);
    expect(detectsFor(byEmail, { doorId: 'gate', user: { email: 'alan@example.com' } })).toEqual([1]);
    expect(detectsFor(byName, { doorId: 'gate', user: { email: 'alan@example.com' } }, paired())).toEqual([1]);
    expect(detectsFor(byName, { doorId: 'gate', user: { email: 'mallory@example.com' } }, paired())).toEqual([]);
  });

  it('detects for nobody when two e-mails carry the name', () => {
    const directory = paired();
    directory.learn({ email: 'grace.h@example.org', firstName: 'Grace', lastName: 'Hopper' });
    expect(detectsFor(byEmail, { doorId: 'gate', user: { firstName: 'Grace', lastName: 'Hopper' } }, directory)).toEqual([]);
  });
});

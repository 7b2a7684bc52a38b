// The settings page's state: the doors it lists are the doors Home shows, each once and keyed as the plugin keys them;
// a sign-in's answer speaks only for the entry, address and token it tried.
import { describe, expect, it } from 'vitest';

import { checkBlock } from '../../../../src/ui/shared/check-config.js';
import { removeDoorEntry, setField } from '../../../../src/ui/shared/block.js';
import type { Block } from '../../../../src/ui/shared/block.js';
import { Store } from '../../../../src/ui/page/store.js';
import type { AccountSummary, PageInfo, SignInAnswer } from '../../../../src/ui/shared/messages.js';
import { parseConfig } from '../../../../src/config/index.js';
import { pageDoor } from '../../../support/door-fixtures.js';

const door = pageDoor;
const INFO = { platform: 'AccessControl' } as PageInfo;
const entryA: Block = { platform: 'AccessControl', name: 'A', baseUrl: 'https://a.example.com', accessToken: 'token-a' };
const entryB: Block = { platform: 'AccessControl', name: 'B', baseUrl: 'https://b.example.com', accessToken: 'token-b' };

const controller = (id: string) => ({ id, owner: 'Ada', active: true, softwareVersion: undefined });
const accountOf = (...doorIds: string[]): AccountSummary => ({
  controllers: [controller('ctl-a')],
  doors: doorIds.map((id) => door(id)),
  unreadable: [],
});
const answer = (account: AccountSummary): SignInAnswer => ({ ok: true, account });

/** A store signed in with entry `index` (shown first) to `account`. */
function signedIn(entries: Block[], account: AccountSummary, index = 0): Store {
  const store = new Store(
    entries.map((entry) => structuredClone(entry)),
    INFO,
  );
  store.showEntry(index);
  expect(store.finishSignIn(store.beginSignIn(), answer(account))).toBe(true);
  return store;
}

describe('the page store', () => {
  it('lists a door two controllers list once, under the first, as Home shows it once', () => {
    const account: AccountSummary = {
      controllers: [controller('ctl-a'), controller('ctl-b')],
      doors: [door('gate', 'ctl-a'), door('side', 'ctl-a'), door('gate', 'ctl-b'), door('back', 'ctl-b')],
      unreadable: [],
    };
    const store = signedIn([entryA], account);
    expect(store.doors.map((listed) => `${listed.id}@${listed.controllerId}`)).toEqual(['gate@ctl-a', 'side@ctl-a', 'back@ctl-b']);
    // The account keeps every listing: the controller filter counts each controller's doors.
    expect(account.doors).toHaveLength(4);
  });

  it('draws one row per door whatever case or marks the service or the entry writes its id in; an id naming no door gets its own', () => {
    // The service sends ids in upper case; the entries are written in lower case, one with a zero-width space and a
    // direction mark pasted along: each is the door's own row, never a second one.
    const gate = 'A1B2C3D4-0000-4000-8000-00000000000A';
    const side = 'A1B2C3D4-0000-4000-8000-00000000000B';
    const block: Block = {
      ...entryA,
      doors: [
        { id: gate.toLowerCase(), readOnly: true },
        { id: `\u200b${side.toLowerCase()}\u200e`, name: 'Side door' },
        { id: 'gone-door', hide: true },
      ],
    };
    const store = signedIn([block], accountOf(gate, side, 'plain-door'));
    expect(store.rows.map((row) => row.id)).toEqual([gate, side, 'plain-door', 'gone-door']);
    // Two ids that differ only in case are two doors in Home (both read-only, src/config/protection.ts): two rows, as the
    // count says; the same id listed twice (under two controllers) is one door, one row.
    const twins: AccountSummary = {
      controllers: [controller('ctl-a')],
      doors: [door(gate), door(side), door(gate.toLowerCase()), door(side)],
      unreadable: [],
    };
    const twinStore = signedIn([block], twins);
    expect(twinStore.rows.map((row) => row.id)).toEqual([gate, side, gate.toLowerCase(), 'gone-door']);
    const check = checkBlock(twinStore.block, twinStore.account);
    expect(check.shown?.total).toBe(3);
    expect([...(check.guarded?.keys() ?? [])].sort()).toEqual([gate, gate.toLowerCase()].sort());
    // "Back to all-doors settings" of the side door's row removes its entry, and leaves the gate's read-only as written.
    const back = removeDoorEntry(store.block, side);
    expect(back.doors).toEqual([
      { id: gate.toLowerCase(), readOnly: true },
      { id: 'gone-door', hide: true },
    ]);
    const parsed = parseConfig(back);
    expect(parsed.ok && parsed.config.doors.find((entry) => entry.id === gate.toLowerCase())?.readOnly).toBe(true);
  });

  it('discards a sign-in when another entry is chosen while it runs: no doors, no "signed in", and the check names no id of its account', () => {
    // B's own read-only door is one character from A's door: a hint from A's account would name A's door.
    const store = new Store([entryA, { ...entryB, doors: [{ id: 'gate-b1', readOnly: true }] }], INFO);
    const ticket = store.beginSignIn();
    expect(store.signInState).toEqual({ kind: 'signing-in' });
    store.showEntry(1);
    expect(store.signingIn).toBe(false);
    expect(store.signInState).toEqual({ kind: 'abandoned', by: 'entry' });
    // A's answer comes while B is on screen: it is not B's, and it is dropped.
    expect(store.finishSignIn(ticket, answer(accountOf('gate-a1')))).toBe(false);
    expect(store.account).toBeUndefined();
    expect(store.signIn).toBeUndefined();
    expect(store.doors).toEqual([]);
    expect(store.rows.map((row) => row.id)).toEqual(['gate-b1']);
    expect(checkBlock(store.block, store.account).warnings.join(' ')).not.toMatch(/gate-a1/);
    expect(store.signInState).toEqual({ kind: 'abandoned', by: 'entry' });
    // Back on A, the answer was not kept either: A says to sign in again.
    store.showEntry(0);
    expect(store.account).toBeUndefined();
    // B's own sign-in: its account, and the hint from its own account only.
    store.showEntry(1);
    expect(store.finishSignIn(store.beginSignIn(), answer(accountOf('gate-b2')))).toBe(true);
    expect(store.signInState).toEqual({ kind: 'answered', result: answer(accountOf('gate-b2')) });
    const warnings = checkBlock(store.block, store.account).warnings.join(' ');
    expect(warnings).toMatch(/"gate-b1", which the account does not have/);
    expect(warnings).toMatch(/closest door id is "gate-b2"/);
    expect(warnings).not.toMatch(/gate-a1/);
  });

  it('discards a sign-in whose address or token is edited while it runs; an edit of any other field keeps it', () => {
    const store = new Store([entryA], INFO);
    const kept = store.beginSignIn();
    store.set(setField(store.block, 'pollInterval', 30));
    expect(store.signInState).toEqual({ kind: 'signing-in' });
    expect(store.finishSignIn(kept, answer(accountOf('gate-a1')))).toBe(true);
    expect(store.account?.doors.map((listed) => listed.id)).toEqual(['gate-a1']);

    const tried = store.beginSignIn();
    store.set(setField(store.block, 'accessToken', 'token-a-typed-on'));
    expect(store.signInState).toEqual({ kind: 'abandoned', by: 'edit' });
    expect(store.finishSignIn(tried, answer(accountOf('gate-a2')))).toBe(false);
    // Never tried with this token: no account, no "signed in" (the earlier answer was for token-a).
    expect(store.account).toBeUndefined();
    expect(store.signIn).toBeUndefined();
    // Typed back to the token tried first: that first answer speaks again; the discarded one never does.
    store.set(setField(store.block, 'accessToken', 'token-a'));
    expect(store.account?.doors.map((listed) => listed.id)).toEqual(['gate-a1']);

    // Edited and typed back while it runs: discarded all the same, and a later sign-in's answer is the one kept.
    const first = store.beginSignIn();
    store.set(setField(store.block, 'baseUrl', 'https://a.example.com/x'));
    store.set(setField(store.block, 'baseUrl', 'https://a.example.com'));
    const second = store.beginSignIn();
    expect(store.finishSignIn(first, answer(accountOf('gate-a3')))).toBe(false);
    expect(store.finishSignIn(second, answer(accountOf('gate-a4')))).toBe(true);
    expect(store.account?.doors.map((listed) => listed.id)).toEqual(['gate-a4']);
  });

  it('an answered sign-in speaks only for the entry it was made for: never another, even with the same address and token', () => {
    const store = signedIn([entryA, { ...entryA, name: 'A, second bridge' }, entryB], accountOf('gate-a1'));
    store.showEntry(1);
    expect(store.account).toBeUndefined();
    expect(store.signInState).toEqual({ kind: 'stale', by: 'entry' });
    store.showEntry(0);
    expect(store.account?.doors.map((listed) => listed.id)).toEqual(['gate-a1']);
    store.showEntry(2);
    expect(store.account).toBeUndefined();
    expect(store.signInState).toEqual({ kind: 'stale', by: 'entry' });
    store.showEntry(0);
    store.set(setField(store.block, 'accessToken', 'token-other'));
    expect(store.signInState).toEqual({ kind: 'stale', by: 'edit' });
    expect(store.doors).toEqual([]);
  });

  it('lists a cached door under the entry that showed it only: never under another entry, nor under one of two of the same name', () => {
    const cached = [
      { entry: 'A', door: door('gate-a1') },
      { entry: 'B', door: door('gate-b1') },
      { entry: undefined, door: door('older-cache') },
    ];
    const store = new Store([structuredClone(entryA), structuredClone(entryB)], INFO);
    store.cached = cached;
    expect(store.doors.map((listed) => listed.id)).toEqual(['gate-a1']);
    store.showEntry(1);
    expect(store.doors.map((listed) => listed.id)).toEqual(['gate-b1']);
    // Two entries named alike: which one showed the door cannot be told, so neither lists it.
    const same = new Store([structuredClone(entryA), { ...structuredClone(entryB), name: 'A' }], INFO);
    same.cached = cached;
    expect(same.doors).toEqual([]);
    // One entry: a door of an older cache (no entry marked) is its own; an entry without a name is the plugin's default.
    const one = new Store([{ platform: 'AccessControl' }], { ...INFO, defaults: { name: 'Access Control' } });
    one.cached = [...cached, { entry: 'Access Control', door: door('default-named') }];
    expect(one.doors.map((listed) => listed.id)).toEqual(['older-cache', 'default-named']);
  });
});

// The settings page's state: the doors it lists are the doors Home shows, each once and keyed as the plugin keys them.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../../src/config/index.js';
import { removeDoorEntry } from '../../../../src/ui/page/model.js';
import type { Block } from '../../../../src/ui/page/model.js';
import { Store } from '../../../../src/ui/page/store.js';
import type { AccountView, PageInfo } from '../../../../src/ui/page/views.js';
import { pageDoor } from '../../../support/door-fixtures.js';

const door = pageDoor;
const INFO = { platform: 'AccessControl' } as PageInfo;
const entryA: Block = { platform: 'AccessControl', name: 'A', baseUrl: 'https://a.example.com', accessToken: 'token-a' };

const controller = (id: string) => ({ id, owner: 'Ada', active: true, softwareVersion: undefined });
const accountOf = (...doorIds: string[]): AccountView => ({
  controllers: [controller('ctl-a')],
  doors: doorIds.map((id) => door(id)),
  unreadable: [],
});

/** A store on `entries` with `account` read. */
function signedIn(entries: Block[], account: AccountView): Store {
  const store = new Store(
    entries.map((entry) => structuredClone(entry)),
    INFO,
  );
  store.account = account;
  return store;
}

describe('the page store', () => {
  it('lists a door two controllers list once, under the first, as Home shows it once', () => {
    const account: AccountView = {
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
    // A door listed by the service in two spellings (under two controllers) is one door to the plugin: one row.
    const twice: AccountView = {
      controllers: [controller('ctl-a')],
      doors: [door(gate), door(side), door(gate.toLowerCase())],
      unreadable: [],
    };
    expect(signedIn([block], twice).rows.map((row) => row.id)).toEqual([gate, side, 'gone-door']);
    // "Back to all-doors settings" of the side door's row removes its entry, and leaves the gate's read-only as written.
    const back = removeDoorEntry(store.block, side);
    expect(back.doors).toEqual([
      { id: gate.toLowerCase(), readOnly: true },
      { id: 'gone-door', hide: true },
    ]);
    const parsed = parseConfig(back);
    expect(parsed.ok && parsed.config.doors.find((entry) => entry.id === gate.toLowerCase())?.readOnly).toBe(true);
  });
});

// The settings page's state: the doors it lists are the doors Home shows, each once.
import { describe, expect, it } from 'vitest';

import { Store } from '../../../../src/ui/page/store.js';
import type { AccountView, PageInfo } from '../../../../src/ui/page/views.js';
import { pageDoor } from '../../../support/door-fixtures.js';

const door = pageDoor;

describe('the page store', () => {
  it('lists a door two controllers list once, under the first, as Home shows it once', () => {
    const store = new Store([], { platform: 'AccessControl' } as PageInfo);
    const account: AccountView = {
      controllers: [
        { id: 'ctl-a', owner: 'Ada', active: true, softwareVersion: undefined },
        { id: 'ctl-b', owner: 'Ada', active: true, softwareVersion: undefined },
      ],
      doors: [door('gate', 'ctl-a'), door('side', 'ctl-a'), door('gate', 'ctl-b'), door('back', 'ctl-b')],
      unreadable: [],
    };
    store.account = account;
    expect(store.doors.map((listed) => `${listed.id}@${listed.controllerId}`)).toEqual(['gate@ctl-a', 'side@ctl-a', 'back@ctl-b']);
    // The account keeps every listing: the controller filter counts each controller's doors.
    expect(account.doors).toHaveLength(4);
  });
});

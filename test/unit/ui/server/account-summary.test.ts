// What the settings page gets of an account: the service's names without direction marks, ids exactly as given.
import { describe, expect, it } from 'vitest';

import type { Account } from '../../../../src/client/types.js';
import { accountSummary } from '../../../../src/ui/server/account-summary.js';

const RLO = '\u202e';

describe('accountSummary', () => {
  it("takes the direction marks out of every name, so none can turn the page's words around it (issue 38)", () => {
    const account = {
      devices: [
        {
          id: `ctrl${RLO}1`,
          ownerName: `${RLO}Ana\u2066 Ruiz\u200f`,
          softwareVersion: `1.2${RLO}`,
          active: true,
          doors: [
            {
              id: `door${RLO}7`,
              name: `Front ${RLO}etag`,
              state: 'CLOSED',
              active: true,
              relationship: `${RLO}Owner`,
              hasBluetoothSensor: false,
            },
          ],
        },
      ],
      unreadable: [],
    } as unknown as Account;
    const view = accountSummary(account);
    expect(view.controllers).toEqual([{ id: `ctrl${RLO}1`, owner: 'Ana Ruiz', softwareVersion: '1.2', active: true }]);
    expect(view.doors[0]).toMatchObject({
      id: `door${RLO}7`,
      name: 'Front etag',
      relationship: 'Owner',
      owned: true,
      controllerId: `ctrl${RLO}1`,
    });
  });
});

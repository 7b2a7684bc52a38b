// Two platform blocks of one account (issue 49, item 6): the later one refuses to start, with a line naming both blocks.
import { describe, expect, it } from 'vitest';

import { instanceOf, sameAccountRefusal } from '../../../src/config/same-account.js';
import { PLATFORM_NAME } from '../../../src/settings.js';

const block = (name: string, extra: Record<string, unknown> = {}) => ({
  platform: PLATFORM_NAME,
  name,
  accessToken: 'ac_live_same_account_3c9d',
  baseUrl: 'https://api.example.com',
  ...extra,
});
const config = (...platforms: unknown[]) => ({ bridge: {}, platforms });

describe('a second block of one account', () => {
  it('refuses to start, naming itself and the earlier block', () => {
    const [first, second] = [block('Gates'), block('Gates again', { excludeDoorIds: [] })];
    const all = config({ platform: 'Other' }, first, second);
    expect(sameAccountRefusal(all, first, 0)).toBeUndefined();
    expect(sameAccountRefusal(all, second, 0)).toBe(
      'This platform block, platforms[2] ("Gates again"), reads the same account and the same share of its doors (the same address, access token and filters) as platforms[1] ("Gates"), so it does not start: two blocks of one account would each show and open the doors the other keeps out. Merge the two into one block, or remove this one (docs/configuration.md, "One block per account").',
    );
  });

  it('tells an exact copy from the block by which instance it is, and the address by how the plugin reads it', () => {
    const copy = block('Gates');
    const all = config(copy, { ...copy, baseUrl: 'https://api.example.com/' });
    expect(sameAccountRefusal(config(copy, copy), copy, 0)).toBeUndefined();
    expect(sameAccountRefusal(config(copy, copy), copy, 1)).toMatch(
      /^This platform block, platforms\[1\] \("Gates"\), reads the same account/,
    );
    expect(sameAccountRefusal(all, all.platforms[1], 0)).toMatch(/as platforms\[0\]/);
  });

  it('lets blocks that split one account with other filters start, as docs/limits.md tells users to', () => {
    const [a, b] = [block('Gates A', { includeDeviceIds: ['dev-1'] }), block('Gates B', { excludeDeviceIds: ['dev-1'] })];
    expect(sameAccountRefusal(config(a, b), b, 0)).toBeUndefined();
    expect(sameAccountRefusal(config(a, { ...a, name: 'Gates A again' }), { ...a, name: 'Gates A again' }, 0)).toMatch(/as platforms\[0\]/);
  });

  it('lets blocks of other accounts start, and refuses nothing when config.json cannot be read or lacks the block', () => {
    const [first, other] = [block('Gates'), block('Other account', { accessToken: 'ac_live_other_account_77' })];
    expect(sameAccountRefusal(config(first, other), other, 0)).toBeUndefined();
    expect(sameAccountRefusal(undefined, first, 1)).toBeUndefined();
    expect(sameAccountRefusal(config(first), block('Not in the file'), 0)).toBeUndefined();
  });

  it('counts the instances of one exact block in this process, and forgets one at its shutdown', () => {
    const copy = block('Counted');
    const one = instanceOf(copy);
    const two = instanceOf(copy);
    expect([one.ordinal, two.ordinal]).toEqual([0, 1]);
    two.release();
    one.release();
    expect(instanceOf(copy).ordinal).toBe(0);
  });
});

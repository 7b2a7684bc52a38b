// Two platform blocks of one account (issue 49, item 6): the later one refuses to start, with a line naming both blocks.
import { PlatformAccessory } from 'homebridge/lib/platformAccessory.js';
import { describe, expect, it } from 'vitest';

import { claimAccount, handOver, instanceOf, sameAccountRefusal } from '../../../src/config/same-account.js';
import { PLATFORM_NAME } from '../../../src/settings.js';

const block = (name: string, extra: Record<string, unknown> = {}) => ({
  platform: PLATFORM_NAME,
  name,
  accessToken: 'ac_live_same_account_3c9d',
  baseUrl: 'https://api.example.com',
  ...extra,
});
/** A cached accessory's UUID (HAP refuses one that is not a UUID). */
const GATE_UUID = '5f0c6d2a-8b1e-4c3d-9a7f-2e6b1d0c4a93';
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

  it('claims the account for the first block, which then takes the second one’s cached accessories until it shuts down', () => {
    const [first, second] = [block('Claimed'), block('Claimed again', { excludeDoorIds: [] })];
    const all = config(first, second);
    const taken: string[] = [];
    const firstClaim = claimAccount(all, first, (accessory) => taken.push(accessory.UUID));
    const secondClaim = claimAccount(all, second, () => {
      throw new Error('a refused block takes nothing');
    });
    expect(firstClaim.refusal).toBeUndefined();
    expect(secondClaim.refusal).toMatch(/^This platform block, platforms\[1\] \("Claimed again"\), reads the same account/);
    const cached = new PlatformAccessory('Gate', GATE_UUID);
    expect(handOver(second, cached)).toBe(true);
    expect(taken).toEqual([GATE_UUID]);
    secondClaim.release();
    firstClaim.release();
    expect(handOver(second, cached)).toBe(false);
    expect(instanceOf(first).ordinal).toBe(0);
  });
});

// Two platform blocks of this plugin on one account and one share of it (a copy, or the same name twice; blocks that split
// the account with other filters are the way past 149 doors): the later one refuses to start. Two readings of the
// settings would each show and open the doors the other keeps out, under the same accessory ids.
import type { PlatformAccessory } from 'homebridge';

import { PLATFORM_NAME, PLUGIN_NAME } from '../settings.js';
import { oneLine } from '../util/log-text.js';
import { parseConfig } from './index.js';
import { isRecord } from './values.js';

/** How many instances of each exact block this process has made: a copy of a block is told from the block by its place. */
const made = new Map<string, number>();

/** Counts one more instance of `block` in this process; `release` is to be called at its shutdown. */
export function instanceOf(block: unknown): { ordinal: number; release: () => void } {
  const key = JSON.stringify(block ?? null);
  const ordinal = made.get(key) ?? 0;
  made.set(key, ordinal + 1);
  return { ordinal, release: () => made.set(key, Math.max(0, (made.get(key) ?? 1) - 1)) };
}

/** The first block of each account running in this process, by account: a later block hands it the cached accessories. */
const firstOfAccount = new Map<string, (accessory: PlatformAccessory) => void>();

/**
 * This process's block that runs `block`'s account takes each cached accessory from now on; the returned function ends
 * that (at its shutdown). Homebridge hands the cache of a platform configured twice to the instance made last.
 */
export function takeCacheFor(block: unknown, take: (accessory: PlatformAccessory) => void): () => void {
  const account = accountOf(block);
  if (account === undefined || firstOfAccount.has(account)) return () => undefined;
  firstOfAccount.set(account, take);
  return () => {
    if (firstOfAccount.get(account) === take) firstOfAccount.delete(account);
  };
}

/**
 * This instance's claim on `block`'s account, at its start: `refusal` says why it must not start (an earlier block of
 * config.json, `homebridgeConfig`, reads the same account and share), else it takes the account's cached accessories from
 * now on (`take`). `release` ends the claim at its shutdown, either way.
 */
export function claimAccount(
  homebridgeConfig: unknown,
  block: unknown,
  take: (accessory: PlatformAccessory) => void,
): { refusal: string | undefined; release: () => void } {
  const instance = instanceOf(block);
  const refusal = sameAccountRefusal(homebridgeConfig, block, instance.ordinal);
  if (refusal !== undefined) return { refusal, release: instance.release };
  const endTaking = takeCacheFor(block, take);
  return {
    refusal,
    release: () => {
      instance.release();
      endTaking();
    },
  };
}

/** Hands a cached accessory to the block of this process that runs `block`'s account; false when none does here. */
export function handOver(block: unknown, accessory: PlatformAccessory): boolean {
  const account = accountOf(block);
  const take = account === undefined ? undefined : firstOfAccount.get(account);
  take?.(accessory);
  return take !== undefined;
}

/**
 * The account a block reads and its share of the doors: its address, access token and four filters as the plugin reads
 * them; undefined when it reads none. Blocks with other filters split the account (docs/limits.md) and both run.
 */
function accountOf(block: unknown): string | undefined {
  const parsed = parseConfig(block);
  if (!parsed.ok) return undefined;
  const { baseUrl, accessToken, includeDeviceIds, excludeDeviceIds, includeDoorIds, excludeDoorIds } = parsed.config;
  const share = [includeDeviceIds, excludeDeviceIds, includeDoorIds, excludeDoorIds].map((ids) => [...new Set(ids)].sort());
  return JSON.stringify([baseUrl, accessToken, share]);
}

const isOurs = (block: unknown): block is Record<string, unknown> =>
  isRecord(block) && (block.platform === PLATFORM_NAME || block.platform === `${PLUGIN_NAME}.${PLATFORM_NAME}`);

/**
 * Why this block must not start, or undefined: an earlier block of this plugin in config.json's `platforms` (`config`,
 * as read from disk) reads the same account. `mine` is the block Homebridge gave this instance, `ordinal` which of its
 * exact copies it is (instanceOf). A config.json that cannot be read, or that does not hold this block, refuses nothing.
 */
export function sameAccountRefusal(config: unknown, mine: unknown, ordinal: number): string | undefined {
  const platforms = isRecord(config) && Array.isArray(config.platforms) ? (config.platforms as unknown[]) : [];
  const text = JSON.stringify(mine);
  const copies = platforms.flatMap((block, index) => (isOurs(block) && JSON.stringify(block) === text ? [index] : []));
  const at = copies[ordinal];
  const account = accountOf(mine);
  if (at === undefined || account === undefined) return undefined;
  const earlier = platforms.findIndex((block, index) => index < at && isOurs(block) && accountOf(block) === account);
  if (earlier < 0) return undefined;
  const named = (index: number): string => {
    const name = (platforms[index] as Record<string, unknown>).name;
    return `platforms[${index}]${typeof name === 'string' && name.trim() !== '' ? ` ("${oneLine(name, 60)}")` : ''}`;
  };
  return (
    `This platform block, ${named(at)}, reads the same account and the same share of its doors (the same address, access token and filters) as ${named(earlier)}, ` +
    'so it does not start: two blocks of one account would each show and open the doors the other keeps out. ' +
    'Merge the two into one block, or remove this one (docs/configuration.md, "One block per account").'
  );
}

// The demo's sample account as the last run left it: each door in the state the plugin will restore from its own cache.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

import { isDoorContext } from '../../src/door/model/context.js';
import { sampleAccount } from '../simulator/server.js';
import type { SimDevice, SimDoorState } from '../simulator/server.js';

/**
 * The sample account with each door in the state Homebridge cached at the end of the last run, read by the plugin's own
 * test of a cached door (isDoorContext): the first sync then finds no door moved, which would cost the door's history
 * look and make the plugin explain a move nobody made. What the plugin would not restore (a cache of another version, a
 * file cut short by Ctrl+C, none at all) leaves the sample's states, which is where the plugin starts too.
 */
export async function accountAsCached(storageDir: string): Promise<SimDevice[]> {
  const devices = sampleAccount();
  let cached: unknown;
  try {
    cached = JSON.parse(await readFile(path.join(storageDir, 'accessories', 'cachedAccessories'), 'utf8'));
  } catch {
    return devices;
  }
  const states = new Map<string, SimDoorState>();
  for (const accessory of Array.isArray(cached) ? (cached as unknown[]) : []) {
    const context = typeof accessory === 'object' && accessory !== null ? (accessory as { context?: unknown }).context : undefined;
    if (isDoorContext(context)) states.set(context.doorId, context.state);
  }
  for (const door of devices.flatMap((device) => device.doors)) door.state = states.get(door.id) ?? door.state;
  return devices;
}

/** The doors of `devices` that are open: a run cut short left them so, and the tour closes them before it starts. */
export function doorsLeftOpen(devices: readonly SimDevice[]): string[] {
  return devices.flatMap((device) => device.doors.filter((door) => door.state === 'OPEN').map((door) => door.id));
}

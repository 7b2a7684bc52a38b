// Starts, side by side, the Homebridges of the scale, memory and idle measurements: 0, 1, 10 and 149 doors, and a webhook one.
import { MIN_POLL_INTERVAL_S } from '../../src/settings.js';
import type { Cleanup } from './cleanup.js';
import { startRig } from './rig.js';
import type { Rig } from './rig.js';
import { lastDoorId, scaleAccount } from './scale-account.js';

/** Account sizes whose sync is measured; 149 is the most one bridge holds. */
export const SCALE_DOOR_COUNTS = [1, 10, 149] as const;
/** Poll interval of the sized rigs: the shortest allowed, so a handful of polls fits in the bench. */
export const SCALE_POLL_INTERVAL_S = MIN_POLL_INTERVAL_S;

export interface ScaleRig {
  doorCount: number;
  rig: Rig;
}

export interface ScaleRigs {
  /** The plugin with an account of no doors, polling only, at its default interval (no `pollInterval` in the config). */
  bare: Rig;
  /** One per SCALE_DOOR_COUNTS, polling only, every SCALE_POLL_INTERVAL_S, tracking the account's last door. */
  sized: ScaleRig[];
  /** The sample account (3 doors) with webhooks on and every interval at its default (no `pollInterval`, no `reconcileInterval`). */
  webhookDefaults: Rig;
}

/** Boots all five at once, each with the memory probe; waits for every boot to end (each registered with `cleanup`) before failing on any. */
export async function startScaleRigs(cleanup: Cleanup): Promise<ScaleRigs> {
  const probe = { memoryProbe: true };
  const bare = startRig(cleanup, { ...probe, pollIntervalS: undefined, webhook: false, devices: scaleAccount(0), trackDoorIds: [], bridgeName: 'Bench 0 Doors' });
  const webhookDefaults = startRig(cleanup, { ...probe, pollIntervalS: undefined, webhook: true, bridgeName: 'Bench Webhook Defaults' });
  const sized = SCALE_DOOR_COUNTS.map(async (doorCount): Promise<ScaleRig> => {
    const devices = scaleAccount(doorCount);
    const tracked = lastDoorId(devices);
    const rig = await startRig(cleanup, {
      ...probe,
      pollIntervalS: SCALE_POLL_INTERVAL_S,
      webhook: false,
      devices,
      trackDoorIds: tracked === undefined ? [] : [tracked],
      bridgeName: `Bench ${doorCount} Doors`,
    });
    return { doorCount, rig };
  });
  // A barrier first: every boot ends (and registers what it started) before a failure is thrown.
  await Promise.allSettled([bare, webhookDefaults, ...sized]);
  return { bare: await bare, sized: await Promise.all(sized), webhookDefaults: await webhookDefaults };
}

// Makes webhooks "arrive" on a rig the way they do for a user: a door moved at the keypad, posted by the simulator's own webhook sender.
import { performance } from 'node:perf_hooks';

import { opposite } from './door-values.js';
import type { Rig } from './rig.js';

const CHANNEL = 'Keypad';

export interface FirstWebhook {
  /** performance.now() just before the change (the simulator posts its webhook at once). */
  sentAtMs: number;
  /** The listener's answer, or undefined when the delivery failed. */
  status: number | undefined;
}

export async function sendFirstWebhook(rig: Rig): Promise<FirstWebhook> {
  const door = rig.doors[0];
  if (!door) {
    throw new Error('the rig tracks no door');
  }
  const sentAtMs = performance.now();
  rig.sim.setDoorState(door.id, opposite(rig.sim.getDoor(door.id)?.state ?? 'CLOSED'), { channel: CHANNEL });
  await rig.sim.flushWebhooks();
  return { sentAtMs, status: rig.sim.webhookDeliveries.at(-1)?.status };
}

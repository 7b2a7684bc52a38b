// The ports Homebridge itself listens on, from its config.json: the webhook listener must never take one of them.
import { readFile } from 'node:fs/promises';

import * as z from './zod.js';

import { DEFAULT_HOMEBRIDGE_UI_PORT } from '../settings.js';

export interface ReservedPort {
  port: number;
  /** Whose port it is, completing "port N is …". */
  owner: string;
}

/** Only what is read here; everything else in config.json passes untouched. */
const portField = z.missingIfNot(z.number().check(z.int()));
const bridgeSchema = z.missingIfNot(z.looseObject({ port: portField }));
const blockSchema = z.looseObject({ platform: z.missingIfNot(z.string()), port: portField, _bridge: bridgeSchema });
const homebridgeConfigSchema = z.looseObject({
  bridge: bridgeSchema,
  platforms: z.missingIfNot(z.array(z.unknown())),
  accessories: z.missingIfNot(z.array(z.unknown())),
});

/**
 * The ports of the main bridge (`bridge.port`), of every child bridge (`_bridge.port`), and of the Homebridge UI.
 * Taking one first makes HAP-NodeJS (or the UI) fail with EADDRINUSE, which stops Homebridge, not just the listener.
 * `ownBlock` is this platform's block as Homebridge handed it over: in a child bridge, its `_bridge.port` is the
 * HomeKit port of this very process, known even when config.json cannot be read.
 */
export function reservedPorts(homebridgeConfig: unknown, ownBlock: unknown): ReservedPort[] {
  const reserved: ReservedPort[] = [];
  const own = blockSchema.safeParse(ownBlock);
  if (own.success && own.data._bridge?.port !== undefined) {
    reserved.push({ port: own.data._bridge.port, owner: "this child bridge's own HomeKit port (_bridge.port)" });
  }
  const parsed = homebridgeConfigSchema.safeParse(homebridgeConfig);
  if (!parsed.success) {
    return reserved;
  }
  if (parsed.data.bridge?.port !== undefined) {
    reserved.push({ port: parsed.data.bridge.port, owner: "the Homebridge bridge's own HomeKit port (bridge.port)" });
  }
  for (const raw of [...(parsed.data.platforms ?? []), ...(parsed.data.accessories ?? [])]) {
    const block = blockSchema.safeParse(raw);
    if (!block.success) {
      continue;
    }
    if (block.data._bridge?.port !== undefined) {
      reserved.push({
        port: block.data._bridge.port,
        owner: `the HomeKit port of the child bridge of ${block.data.platform ?? 'another plugin'} (_bridge.port)`,
      });
    }
    if (block.data.platform === 'config') {
      reserved.push({ port: block.data.port ?? DEFAULT_HOMEBRIDGE_UI_PORT, owner: "the Homebridge UI's port" });
    }
  }
  return reserved;
}

/**
 * Reads config.json at `configPath`. Undefined when it cannot be read: the ports it holds are then unknown, and the
 * caller must avoid racing the bridge for them another way. This platform's own `_bridge.port` is kept either way.
 */
export async function readReservedPorts(
  configPath: string | undefined,
  ownBlock: unknown,
): Promise<{ ports: ReservedPort[]; complete: boolean }> {
  let config: unknown;
  try {
    config = configPath === undefined ? undefined : (JSON.parse(await readFile(configPath, 'utf8')) as unknown);
  } catch {
    config = undefined;
  }
  return { ports: reservedPorts(config, ownBlock), complete: config !== undefined };
}

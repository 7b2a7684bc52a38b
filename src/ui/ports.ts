// "Is this webhook port free?" for the settings page: ports Homebridge itself uses, then a real bind to find other programs.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

import { z } from 'zod';

import { DEFAULT_HOMEBRIDGE_UI_PORT, PLATFORM_NAME } from '../settings.js';

export interface PortCheck {
  /** false: the listener would not start, or would take a port something else needs. */
  ok: boolean;
  message: string;
}

/** Only what this check reads of config.json; everything else passes. */
const portField = z.number().int().optional().catch(undefined);
const homebridgeConfigSchema = z.looseObject({
  bridge: z.looseObject({ port: portField }).optional().catch(undefined),
  platforms: z.array(z.unknown()).optional().catch(undefined),
  accessories: z.array(z.unknown()).optional().catch(undefined),
});
const blockSchema = z.looseObject({
  platform: z.string().optional().catch(undefined),
  port: portField,
  _bridge: z.looseObject({ port: portField }).optional().catch(undefined),
  webhook: z.looseObject({ port: portField, enabled: z.boolean().optional().catch(undefined) }).optional().catch(undefined),
});

/** Who already holds `port` according to Homebridge's config.json, if anyone. */
export function portOwner(config: unknown, port: number, entryIndex: number | undefined): string | undefined {
  const parsed = homebridgeConfigSchema.safeParse(config);
  if (!parsed.success) {
    return undefined;
  }
  if (parsed.data.bridge?.port === port) {
    return 'the Homebridge bridge itself (HomeKit); Homebridge would fail to start';
  }
  let ours = -1;
  for (const raw of [...(parsed.data.platforms ?? []), ...(parsed.data.accessories ?? [])]) {
    const block = blockSchema.safeParse(raw);
    if (!block.success) {
      continue;
    }
    if (block.data.platform === 'config' && (block.data.port ?? DEFAULT_HOMEBRIDGE_UI_PORT) === port) {
      return 'the Homebridge UI (this page)';
    }
    if (block.data._bridge?.port === port) {
      return `the child bridge of ${block.data.platform ?? 'another plugin'}`;
    }
    if (block.data.platform === PLATFORM_NAME) {
      ours += 1;
      if (ours !== entryIndex && block.data.webhook?.port === port && block.data.webhook.enabled !== false) {
        return 'the webhook listener of another entry of this plugin';
      }
    }
  }
  return undefined;
}

/** Binds the port for a moment: the only sure way to know whether another program has it. */
function tryBind(port: number, host: string | undefined): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(undefined)));
  });
}

export async function checkPort(
  port: number,
  host: string | undefined,
  options: { configPath: string | undefined; entryIndex: number | undefined; savedPort: number | undefined },
): Promise<PortCheck> {
  const config: unknown = options.configPath ? await readFile(options.configPath, 'utf8').then(JSON.parse).catch(() => undefined) : undefined;
  const owner = portOwner(config, port, options.entryIndex);
  if (owner) {
    return { ok: false, message: `Port ${port} is taken by ${owner}. Choose another port above 1024 that nothing else uses.` };
  }
  const error = await tryBind(port, host);
  if (!error) {
    return { ok: true, message: `Port ${port} is free.` };
  }
  if (error.code === 'EADDRINUSE') {
    return port === options.savedPort
      ? { ok: true, message: `Port ${port} is in use, most likely by this plugin's listener, which runs with the saved settings.` }
      : { ok: false, message: `Port ${port} is in use by another program. Choose another port.` };
  }
  if (error.code === 'EACCES') {
    return { ok: false, message: `Port ${port} needs administrator rights (ports below 1024 do). Choose a port above 1024.` };
  }
  if (error.code === 'EADDRNOTAVAIL') {
    return { ok: false, message: `${host ?? 'That address'} is not an address of this machine. Leave "Listen on address" empty to listen on every interface.` };
  }
  return { ok: false, message: `Port ${port} cannot be opened (${error.code ?? error.message}).` };
}

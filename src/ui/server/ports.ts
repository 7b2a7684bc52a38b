// "Is this webhook port free?" for the settings page: the ports Homebridge itself uses, other entries' listeners, then a real bind.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

import * as z from '../../util/zod.js';

import { reservedPorts } from '../../util/homebridge-ports.js';
import { PLATFORM_NAME } from '../../settings.js';
import type { Message } from '../shared/messages.js';

const portField = z.missingIfNot(z.number().check(z.int()));
const entrySchema = z.looseObject({
  platform: z.missingIfNot(z.string()),
  webhook: z.missingIfNot(z.looseObject({ port: portField, enabled: z.missingIfNot(z.boolean()) })),
});
const platformsSchema = z.looseObject({ platforms: z.missingIfNot(z.array(z.unknown())) });

/** Who already has `port` according to Homebridge's config.json, completing "Port N is …"; `entryIndex` is the entry being edited. */
export function portOwner(config: unknown, port: number, entryIndex: number | undefined): string | undefined {
  const reserved = reservedPorts(config, undefined).find((candidate) => candidate.port === port);
  if (reserved) {
    return reserved.owner;
  }
  const parsed = platformsSchema.safeParse(config);
  const ours = (parsed.success ? (parsed.data.platforms ?? []) : [])
    .map((raw) => entrySchema.safeParse(raw))
    .flatMap((entry) => (entry.success && entry.data.platform === PLATFORM_NAME ? [entry.data] : []));
  const clash = ours.findIndex((entry, index) => index !== entryIndex && entry.webhook?.port === port && entry.webhook.enabled !== false);
  return clash === -1 ? undefined : 'the webhook port of another entry of this plugin';
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
): Promise<Message> {
  const config: unknown = options.configPath
    ? await readFile(options.configPath, 'utf8').then(
        (text) => JSON.parse(text) as unknown,
        () => undefined,
      )
    : undefined;
  const owner = portOwner(config, port, options.entryIndex);
  if (owner) {
    return {
      ok: false,
      message: `Port ${port} is ${owner}: the listener would not start. Choose another port above 1024 that nothing else uses.`,
    };
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
    return {
      ok: false,
      message: `${host ?? 'That address'} is not an address of this machine. Leave "Listen on address" empty to listen on every interface.`,
    };
  }
  return { ok: false, message: `Port ${port} cannot be opened (${error.code ?? error.message}).` };
}

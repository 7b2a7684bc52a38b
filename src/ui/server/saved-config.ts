// What the saved settings (Homebridge's config.json) give this plugin's webhook listeners: the running ones were started from them.
import { readFile } from 'node:fs/promises';

import * as z from '../../util/zod.js';

import { PLATFORM_NAME } from '../../settings.js';

const webhookSchema = z.looseObject({
  port: z.missingIfNot(z.number()),
  tlsCertFile: z.missingIfNot(z.string()),
  apiKey: z.missingIfNot(z.string()),
});
const entrySchema = z.looseObject({ platform: z.missingIfNot(z.string()), webhook: z.missingIfNot(webhookSchema) });
const configSchema = z.looseObject({ platforms: z.missingIfNot(z.array(z.unknown())) });

export type SavedWebhook = z.infer<typeof webhookSchema>;

/** The webhook block of each saved entry of this plugin, as far as it reads; none when config.json cannot be read. */
export async function savedWebhooks(configPath: string | undefined): Promise<SavedWebhook[]> {
  if (configPath === undefined) {
    return [];
  }
  const text = await readFile(configPath, 'utf8').catch(() => undefined);
  let config: unknown;
  try {
    config = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = configSchema.safeParse(config);
  return (parsed.success ? (parsed.data.platforms ?? []) : []).flatMap((raw) => {
    const entry = entrySchema.safeParse(raw);
    return entry.success && entry.data.platform === PLATFORM_NAME && entry.data.webhook ? [entry.data.webhook] : [];
  });
}

/** The saved webhook keys: text the service's answers must not pass on to the page, as the access token must not. */
export async function savedWebhookKeys(configPath: string | undefined): Promise<string[]> {
  return (await savedWebhooks(configPath)).flatMap((webhook) => (webhook.apiKey?.trim() ? [webhook.apiKey.trim()] : []));
}

// The saved settings the settings server reads: the webhook blocks of this plugin's entries, and their keys to keep off the page.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { savedWebhookKeys } from '../../../../src/ui/server/saved-config.js';

const dir = mkdtempSync(join(tmpdir(), 'saved-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, content: string): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

describe('savedWebhookKeys', () => {
  it("gives the webhook key of each of this plugin's entries, trimmed, and no other plugin's", async () => {
    const file = configFile(
      'config.json',
      JSON.stringify({
        platforms: [
          { platform: 'AccessControl', webhook: { port: 8581, apiKey: ' key-one ' } },
          { platform: 'Other', webhook: { apiKey: 'not-ours' } },
          { platform: 'AccessControl', webhook: { port: 8582, apiKey: 'key-two' } },
          { platform: 'AccessControl' },
          'not an entry',
        ],
      }),
    );
    expect(await savedWebhookKeys(file)).toEqual(['key-one', 'key-two']);
  });

  it('gives none when there is no config.json or it cannot be read', async () => {
    expect(await savedWebhookKeys(undefined)).toEqual([]);
    expect(await savedWebhookKeys(join(dir, 'missing.json'))).toEqual([]);
    expect(await savedWebhookKeys(configFile('broken.json', '{"platforms": ['))).toEqual([]);
  });
});

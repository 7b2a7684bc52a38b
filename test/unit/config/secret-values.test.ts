// A secret is never a name or an id (issue 52 item 2): a door entry's id or name, or a person's name, holding the access
// token or the webhook key (or 10 characters of either, in any spelling the cleaning knows) is refused with a line naming
// the key, and the value is not kept.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';

const TOKEN = 'Xq7pLm2Rt9Vb4Nc8Zd1Kf6Hs3Wy5Ej0';
const KEY = '9fe0b44f0155e6fb7969120dd68e86a4a38ce7f14a6bdb6cf1136983483fc1fd751effdd53395bddff8af030e3b86a02';
const base = { platform: 'AccessControl', baseUrl: 'https://api.example.com', accessToken: TOKEN, webhook: { port: 8123, apiKey: KEY } };

describe('a secret written as a name or an id', () => {
  it("is refused as a door's name, with a line naming the key, and the door keeps its other settings", () => {
    for (const name of [TOKEN, `Gate ${TOKEN.slice(3, 14)}`, Buffer.from(TOKEN).toString('base64'), Array.from(TOKEN).join('-')]) {
      const parsed = parseConfig({ ...base, doors: [{ id: 'door-1', name, readOnly: true }] });
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      expect(parsed.config.doors[0]).toMatchObject({ id: 'door-1', readOnly: true });
      expect(parsed.config.doors[0]?.name).toBeUndefined();
      const said = parsed.ignored.join('\n');
      expect(said).toContain('doors.0.name holds the secret of accessToken');
      expect(said).not.toContain(TOKEN.slice(3, 13));
    }
  });

  it('refuses a door entry whose id is the webhook key, and a person named with it, never quoting it', () => {
    const parsed = parseConfig({
      ...base,
      doors: [{ id: KEY.slice(0, 51), readOnly: true }],
      people: [
        { name: KEY.slice(10, 61), user: 'grace@example.com' },
        { name: 'Grace Hopper', user: 'grace@example.com' },
      ],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.config.doors).toEqual([]);
    expect(parsed.config.people.map((person) => person.name)).toEqual(['Grace Hopper']);
    const said = parsed.ignored.join('\n');
    expect(said).toContain('doors.0.id holds the secret of webhook.apiKey');
    expect(said).toContain('people.0.name holds the secret of webhook.apiKey');
    expect(said).not.toContain(KEY.slice(12, 22));
  });

  it('keeps names that only share a few characters with a short token', () => {
    const parsed = parseConfig({ ...base, accessToken: 'tok', doors: [{ id: 'door-1', name: 'Dock' }] });
    expect(parsed.ok && parsed.config.doors[0]?.name).toBe('Dock');
  });
});

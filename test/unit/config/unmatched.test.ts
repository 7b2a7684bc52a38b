// An id of a door entry or a filter that names nothing in the account is said, with the closest id when one is near
// (issue 36): it protects nothing, and a door meant to stay closed would open without a word.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../src/config/index.js';
import type { PluginConfig } from '../../../src/config/index.js';
import { unmatchedIds } from '../../../src/config/unmatched.js';

const TOKEN = 'ac_live_4f9b8e2d7c1a6b3f5e9d0c8b';
const valid = { accessToken: TOKEN, baseUrl: 'https://api.example.com' };
const A = '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c';
const B = 'a7c9e1f3-5b2d-4c8e-9f1a-3b5d7e9f1a2c';
const account = { doorIds: [A, B], deviceIds: ['dev-1', 'dev-2'] };

const config = (raw: Record<string, unknown>): PluginConfig => {
  const result = parseConfig({ ...valid, ...raw });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
};

describe('unmatchedIds', () => {
  it('says nothing when every id names a door or controller, whatever its case', () => {
    const ids = { doors: [{ id: A.toUpperCase(), readOnly: true }], excludeDoorIds: [B], includeDeviceIds: ['DEV-1'] };
    expect(unmatchedIds(config(ids), account)).toEqual([]);
    expect(unmatchedIds(config(ids), { doorIds: [A.toUpperCase(), B], deviceIds: ['Dev-1'] })).toEqual([]);
  });

  it('names a read-only door that is not in the account, with the closest door id', () => {
    const typo = `${A.slice(0, -1)}d`;
    expect(unmatchedIds(config({ doors: [{ id: typo, readOnly: true }] }), account)).toEqual([
      {
        path: 'doors',
        sentence: `doors names door "${typo}", which the account does not have, so that entry's settings apply to no door; the account's closest door id is "${A}"`,
      },
    ]);
  });

  it('names each filter id that matches nothing, without a hint when nothing is near', () => {
    const found = unmatchedIds(config({ excludeDoorIds: ['gate'], includeDoorIds: [A, 'back'], excludeDeviceIds: ['dev-9'] }), account);
    expect(found.map((finding) => finding.path)).toEqual(['excludeDoorIds', 'includeDoorIds', 'excludeDeviceIds']);
    expect(found[0]?.sentence).toBe('excludeDoorIds names door "gate", which the account does not have, so it keeps no door out');
    expect(found[2]?.sentence).toMatch(/controller "dev-9".*it keeps no door out; the account's closest controller id is "dev-1"$/);
  });

  it('never quotes the token pasted as an id', () => {
    const found = unmatchedIds(config({ excludeDoorIds: [TOKEN] }), account);
    expect(found[0]?.sentence).toContain('[redacted]');
    expect(found[0]?.sentence).not.toContain(TOKEN.slice(8));
  });
});

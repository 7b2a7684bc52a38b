// Setup of a client test run on another undici (test/package/undici-range.config.ts): the client's undici parts are the ones
// src/client/undici.ts loads from that undici, the same narrow path with the same fallback, in place of the repo's.
import { vi } from 'vitest';

import { requireUndici, UNDICI_PREFIX } from '../unit/client/undici-under-test.js';

if (UNDICI_PREFIX === undefined) {
  throw new Error('UNDICI_UNDER_TEST names the npm prefix that holds the undici to test');
}

vi.mock(import('../../src/client/undici.js'), async (importOriginal) => {
  const original = await importOriginal();
  const parts = original.loadUndiciParts(requireUndici);
  return { ...original, undiciParts: () => parts };
});

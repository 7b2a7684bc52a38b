// The client tests (test/unit/client/) on another undici: UNDICI_UNDER_TEST=<npm prefix holding it>, run by
// test/package/undici-range.test.ts for the lowest and the newest undici the range in package.json allows.
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/unit/client/**/*.test.ts'],
    setupFiles: ['test/package/undici-under-test.setup.ts'],
  },
});

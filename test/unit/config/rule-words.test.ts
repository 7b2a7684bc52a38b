// The rule for a setting that names a door (issue 42) is stated once in the code and shown in the same words by the
// docs and the settings page: a change to one that the other does not follow fails here.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { COULD_MEAN_RULE, PROTECTIVE_RULE } from '../../../src/config/protection.js';

const doc = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
const page = readFileSync(new URL('../../../src/ui/page/page.ts', import.meta.url), 'utf8');

describe('the protective rule, in one set of words', () => {
  it('docs/configuration.md quotes it word for word', () => {
    expect(doc).toContain(`> ${PROTECTIVE_RULE}`);
    expect(doc).toContain(`> ${COULD_MEAN_RULE}`);
  });

  it('the settings page shows the same constants under "Before you save"', () => {
    expect(page).toMatch(/byId\('ac-check-rule'\)\.textContent = `\$\{PROTECTIVE_RULE\} \$\{COULD_MEAN_RULE\}`/);
  });
});

// The page draws what the plugin applies (issue 36): a key written as a near miss, a choice typed nearly right and a
// protective value the plugin cannot read show as the plugin applies them, and an edit of that setting rewrites that key.
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../../src/config/index.js';
import { doorOptions } from '../../../../src/config/door-options.js';
import { optionSpec } from '../../../../src/option-catalog.js';
import {
  applyKeyFix,
  appliedField,
  doorChoice,
  getField,
  globalChoice,
  keyFixes,
  filterOnPage,
  setDoorChoice,
  setField,
} from '../../../../src/ui/shared/block.js';
import type { Block } from '../../../../src/ui/shared/block.js';

const base: Block = { platform: 'AccessControl', accessToken: 't', baseUrl: 'https://api.example.com' };
const A = '3f2b8c1e-9d4a-4e6b-8a7c-1d2e3f4a5b6c';

/** What the plugin makes of the block: whether door A is read-only. */
const readOnlyAtRuntime = (block: Block): boolean => {
  const result = parseConfig(block);
  if (!result.ok) throw new Error(result.problems.join('; '));
  return doorOptions(result.config, A).readOnly;
};

describe('the page reads a setting as the plugin applies it', () => {
  it('"includeDoors": "Owned" shows "Only doors I own" chosen', () => {
    const block = { ...base, includeDoors: 'Owned' };
    expect(globalChoice(block, optionSpec('includeDoors'))).toBe('owned');
  });

  it('a top-level "readonly": true shows Read-only ticked, and unticking rewrites that key', () => {
    const block = { ...base, readonly: true };
    expect(getField(block, 'readOnly')).toBe(true);
    expect(appliedField(block, 'readOnly')).toBe(true);
    const unticked = setField(block, 'readOnly', undefined);
    expect(unticked).toEqual(base);
    expect(readOnlyAtRuntime(unticked)).toBe(false);
  });

  it('a readOnly the plugin cannot read shows ticked, as the plugin fails closed', () => {
    expect(appliedField({ ...base, readOnly: 'yes' }, 'readOnly')).toBe(true);
  });

  it('a door\'s "readonly": true shows On, and choosing Off rewrites that key only', () => {
    const block = { ...base, doors: [{ id: A.toUpperCase(), readonly: true, name: 'Gate' }] };
    expect(doorChoice(block, A, 'readOnly')).toBe('on');
    expect(readOnlyAtRuntime(block)).toBe(true);
    const off = setDoorChoice(block, A, 'readOnly', 'off');
    expect(off.doors).toEqual([{ id: A.toUpperCase(), name: 'Gate', readOnly: false }]);
    expect(readOnlyAtRuntime(off)).toBe(false);
    expect(doorChoice(off, A, 'readOnly')).toBe('off');
  });

  it("a door's readOnly the plugin cannot read shows On, as the plugin fails closed, not unset (issue 44)", () => {
    for (const written of ['yes', 1, 'maybe', 'on']) {
      const block = { ...base, doors: [{ id: A, readOnly: written }] };
      expect(readOnlyAtRuntime(block)).toBe(true);
      expect({ written, shown: doorChoice(block, A, 'readOnly') }).toEqual({ written, shown: 'on' });
    }
  });

  it('an exclusion written as one text shows both ids, as the plugin applies them', () => {
    expect(filterOnPage({ ...base, excludeDeviceIds: 'dev-1, DEV-2' }, 'excludeDeviceIds')).toEqual({
      ids: ['dev-1', 'dev-2'],
      editable: false,
    });
  });
});

describe('a near miss offers a fix that writes it under its key', () => {
  it('lists each near miss with where it is, and the fix changes nothing the plugin applies', () => {
    const block = { ...base, readonly: true, Webhook: { Port: 51828 }, doors: [{ id: A, hidden: false, readonly: true }] };
    const fixes = keyFixes(block);
    expect(fixes).toEqual([
      { parent: '', written: 'readonly', key: 'readOnly' },
      { parent: '', written: 'Webhook', key: 'webhook' },
      { parent: 'Webhook', written: 'Port', key: 'port' },
      { parent: 'doors.0', written: 'readonly', key: 'readOnly' },
    ]);
    const fixed = fixes.reduceRight((next, fix) => applyKeyFix(next, fix), block as Block);
    expect(fixed).toEqual({ ...base, readOnly: true, webhook: { port: 51828 }, doors: [{ id: A, hidden: false, readOnly: true }] });
    expect(keyFixes(fixed)).toEqual([]);
  });

  it('writes the most protective value where both spellings were written', () => {
    const block = { ...base, readOnly: false, readonly: true };
    const fixed = applyKeyFix(block, { parent: '', written: 'readonly', key: 'readOnly' });
    expect(fixed).toEqual({ ...base, readOnly: true });
  });
});

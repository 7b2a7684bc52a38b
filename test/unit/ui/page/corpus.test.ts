// Every shape of the shared corpus through the settings page's model: one edit changes one value of the block, and the
// runtime reads the block after it as before, but for that value (issue 29: lossless editing).
import { describe, expect, it } from 'vitest';

import { parseConfig } from '../../../../src/config/index.js';
import type { ConfigResult } from '../../../../src/config/index.js';
import { PLATFORM_NAME } from '../../../../src/settings.js';
import { setControllerIncluded, setDoorField, setField } from '../../../../src/ui/shared/block.js';
import type { Block } from '../../../../src/ui/shared/block.js';
import { CONFIG_CORPUS, withAccount } from '../../../support/config-corpus.js';
import type { CorpusEdit } from '../../../support/config-corpus.js';

const ACCOUNT = { baseUrl: 'https://api.example.com', accessToken: 'corpus-unit-token' };

/** The edit as the page's model makes it: what typing in the field or ticking the box calls. */
function applyEdit(block: Block, edit: CorpusEdit): Block {
  switch (edit.kind) {
    case 'field':
      return setField(block, edit.path, edit.value);
    case 'controller':
      return setControllerIncluded(block, edit.controllerId, edit.included);
    case 'door':
      return setDoorField(block, edit.doorId, edit.key, edit.value);
  }
}

/** The top-level key an edit writes. */
const keyOf = (edit: CorpusEdit): string =>
  edit.kind === 'field' ? (edit.path.split('.')[0] ?? edit.path) : edit.kind === 'controller' ? 'excludeDeviceIds' : 'doors';

/** The runtime's reading without the edited key: its value in the config, and every sentence naming it. */
function readingWithout(result: ConfigResult, key: string): unknown {
  if (!result.ok) return result;
  const names = (sentence: string): boolean => new RegExp(`\\b${key}\\b`).test(sentence);
  const config: Record<string, unknown> = { ...result.config };
  delete config[key];
  // How each id was written, wherever it stands: the edited key's ids are among them.
  delete config.spellings;
  return { config, ignored: result.ignored.filter((s) => !names(s)), warnings: result.warnings.filter((s) => !names(s)) };
}

describe('the settings page model on the shared corpus', () => {
  it.each(CONFIG_CORPUS.map((shape) => [shape.name, shape] as const))('%s: one edit changes one value', (_name, shape) => {
    const before: Block = { platform: PLATFORM_NAME, ...withAccount(shape.block, ACCOUNT) };
    const snapshot = structuredClone(before);
    const after = applyEdit(before, shape.edit);
    // The block handed in is never changed.
    expect(before).toEqual(snapshot);
    const key = keyOf(shape.edit);
    // Exactly one key differs, and everything else is deeply equal to what was written (numbers stay numbers, unknown keys stay).
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    expect(changed).toEqual([key]);
    const [restAfter, restBefore] = [{ ...after }, { ...before }];
    delete restAfter[key];
    delete restBefore[key];
    expect(restAfter).toStrictEqual(restBefore);
    if (shape.edit.kind === 'field') expect(after[key]).toBe(shape.edit.value);
    // The runtime reads the rest as before: the same config, the same ignored and warning sentences.
    const [was, is] = [parseConfig(before), parseConfig(after)];
    expect(is.ok).toBe(was.ok);
    expect(readingWithout(is, key)).toEqual(readingWithout(was, key));
  });

  it('a number id in excludeDeviceIds stays a number when another controller is unticked (finding 2)', () => {
    const shape = CONFIG_CORPUS.find((candidate) => candidate.finding === 2);
    if (!shape) throw new Error('the corpus lacks finding 2');
    const after = applyEdit(withAccount(shape.block, ACCOUNT), shape.edit);
    expect(after.excludeDeviceIds).toEqual([555, 'dev-b']);
    const parsed = parseConfig(after);
    expect(parsed.ok && parsed.config.excludeDeviceIds).toEqual(['555', 'dev-b']);
  });

  it('a door entry with a number id keeps its number and its other keys when the door is renamed (finding 1)', () => {
    const shape = CONFIG_CORPUS.find((candidate) => candidate.edit.kind === 'door');
    if (!shape) throw new Error('the corpus lacks a door edit');
    const before = withAccount(shape.block, ACCOUNT);
    const after = applyEdit(before, shape.edit);
    expect(after.doors).toEqual([
      { id: 424242, readOnly: true, name: 'Shed' },
      { id: 'gate-c', hide: true },
    ]);
    const [was, is] = [parseConfig(before), parseConfig(after)];
    if (!was.ok || !is.ok) throw new Error('the shape does not run');
    expect(is.config.doors).toEqual([{ ...was.config.doors[0], name: 'Shed' }, was.config.doors[1]]);
    expect([is.ignored, is.warnings]).toEqual([was.ignored, was.warnings]);
  });

  it('holds every shape the brief names', () => {
    const findings = new Set(CONFIG_CORPUS.map((shape) => shape.finding));
    for (const finding of [1, 2, 3, 4, 5, 6, 7, 9]) expect(findings.has(finding), `finding ${finding}`).toBe(true);
    expect(CONFIG_CORPUS.filter((shape) => shape.finding === 7)).toHaveLength(6);
    expect(new Set(CONFIG_CORPUS.map((shape) => shape.name)).size).toBe(CONFIG_CORPUS.length);
  });
});

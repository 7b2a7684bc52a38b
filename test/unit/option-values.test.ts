// An option is complete where it is read (issue 53): its default comes out of the one resolver (src/option-values.ts),
// under its catalog key, and generic code names no option of its own. These fail when a reader applies a default by hand
// or generic code grows a case for one option, so a new option stays one catalog entry.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { OPTIONS } from '../../src/option-catalog.js';
import type { OptionSpec } from '../../src/option-catalog.js';
import { defaultOf, OPTION_DEFAULTS, resolved } from '../../src/option-values.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const options: readonly OptionSpec[] = OPTIONS;

/** Every TypeScript file under src/, as a path from the repository. */
function sourceFiles(folder = join(ROOT, 'src')): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

const parsed = (file: string, text = readFileSync(join(ROOT, file), 'utf8')): ts.SourceFile =>
  ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);

/** Where a source reads a `default` (`x.default`, `x?.default`, `'default' in x`), as "file:line". */
function defaultReads(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const at = (node: ts.Node): string => `${source.fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'default') found.push(at(node));
    if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) && node.argumentExpression.text === 'default') {
      found.push(at(node));
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword && ts.isStringLiteral(node.left)) {
      if (node.left.text === 'default') found.push(at(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The string literals of a source that are a catalog key, as "key". */
function keysNamed(source: ts.SourceFile): string[] {
  const keys = new Set(options.map((option) => option.key));
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && keys.has(node.text)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The catalog words its defaults ("Off by default."), the resolver applies them: no other file reads one. */
const READS_DEFAULTS = ['src/option-catalog.ts', 'src/option-values.ts'];

/**
 * Generic code over every option, and the keys it may still name, each for a reason of its own: a special case of one
 * option belongs in its catalog entry, which the generic code reads.
 */
const GENERIC: Record<string, readonly string[]> = {
  // A kind that cannot be read keeps the cached one; the owned-doors filter is a rule of which doors show, not an option value.
  'src/config/door-options.ts': ['showAs', 'includeDoors'],
  // The door's own "Show in Home" box writes `hide`; `name` is a door entry's name in Home, not the platform's option.
  'src/ui/page/doors-view.ts': ['hide', 'name'],
  'src/door/extras/door-extras.ts': [],
};

describe('resolved, defaultOf and OPTION_DEFAULTS', () => {
  it("gives every option its catalog default when nothing sets it, a choice's false as the value it stands for", () => {
    for (const option of options) {
      const expected =
        option.kind === 'choice' && option.default === false ? option.booleans?.false : 'default' in option ? option.default : undefined;
      expect({ key: option.key, value: defaultOf(option), all: OPTION_DEFAULTS[option.key as keyof typeof OPTION_DEFAULTS] }).toEqual({
        key: option.key,
        value: expected,
        all: expected,
      });
    }
    // A number without a default means something else when empty (the controller's own alert time): it stays undefined.
    expect(OPTION_DEFAULTS).toMatchObject({ leftOpenAfter: undefined, leftOpenRepeat: 0, automationSwitch: 'off', eveHistory: true });
  });

  it('gives a value that is set, false and 0 included, and a choice read from a boolean as its value', () => {
    for (const option of options) {
      const value =
        option.kind === 'flag'
          ? !option.default
          : option.kind === 'number'
            ? option.min
            : option.kind === 'text'
              ? 'Gate'
              : option.values[0];
      expect({ key: option.key, value: resolved(option, value) }).toEqual({ key: option.key, value });
    }
    const withBooleans = options.filter((option) => option.kind === 'choice' && option.booleans !== undefined);
    expect(withBooleans.length).toBeGreaterThan(0);
    for (const option of withBooleans) {
      if (option.kind !== 'choice' || option.booleans === undefined) continue;
      expect([resolved(option, true), resolved(option, false)]).toEqual([option.booleans.true, option.booleans.false]);
    }
  });
});

describe('an option is complete where it is read', () => {
  it('has no file but the catalog and the resolver read an option’s default', () => {
    const reads = sourceFiles()
      .filter((file) => !READS_DEFAULTS.includes(file))
      .flatMap((file) => defaultReads(parsed(file)));
    expect(reads).toEqual([]);
  });

  it('finds a default applied by hand, when there is one', () => {
    const old =
      "const s = options?.accessAlertDurationS ?? optionSpec('accessAlertDuration').default;\nif ('default' in o) f(o['default']);";
    expect(defaultReads(parsed('src/door/extras/access-alert.ts', old))).toEqual([
      'src/door/extras/access-alert.ts:1',
      'src/door/extras/access-alert.ts:2',
      'src/door/extras/access-alert.ts:2',
    ]);
  });

  it('has generic code name no option but the ones it has a reason for', () => {
    for (const [file, allowed] of Object.entries(GENERIC)) {
      const named = keysNamed(parsed(file)).filter((key) => !allowed.includes(key));
      expect({ file, named }).toEqual({ file, named: [] });
    }
  });

  it('finds a special case of one option in generic code, when there is one', () => {
    const old = "if (event.target.dataset.flag === 'leftOpenSensor') redraw();\ntype T = O extends { key: 'automationSwitch' } ? M : V;";
    expect(keysNamed(parsed('src/ui/page/doors-view.ts', old))).toEqual(['leftOpenSensor', 'automationSwitch']);
  });

  it("offers a choice while a flag is on only for a flag a door's row draws", () => {
    const flags = new Set(options.filter((option) => option.kind === 'flag' && option.applies === 'both').map((option) => option.key));
    for (const option of options.filter((entry) => entry.offered === 'with-shown-with')) {
      expect({ key: option.key, shownWith: option.shownWith !== undefined && flags.has(option.shownWith) }).toEqual({
        key: option.key,
        shownWith: true,
      });
    }
  });
});

// The shape issue 53 item 5 left the config reader in: one file knows the block's secrets to redact what leaves
// (src/config/redacted.ts), one to refuse a name or an id that holds one (src/config/secret-values.ts). No other reader is
// handed them, so the threading of `secrets` through every reader cannot grow back; and a reader quotes a typed value
// only through the exit's `typed`, which keeps the whole value for the exit to tell (a quote may be cut before a secret).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const CONFIG = join(dirname(fileURLToPath(import.meta.url)), '../../../src/config');
const files = readdirSync(CONFIG).filter((name) => name.endsWith('.ts'));

/** The identifiers of a file (names, parameters, properties, imports), read with TypeScript's parser: comments are not code. */
function identifiersOf(name: string): string[] {
  const source = ts.createSourceFile(name, readFileSync(join(CONFIG, name), 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const using = (pattern: RegExp): string[] => files.filter((name) => identifiersOf(name).some((id) => pattern.test(id))).sort();

describe('the config reader redacts where its text leaves (issue 53 item 5)', () => {
  it('reads a file of its folder', () => {
    expect(files).toContain('redacted.ts');
    expect(identifiersOf('keys.ts')).toContain('readKeys');
  });

  it('names the secrets in two files only: the exit and the rule that refuses a name or an id holding one', () => {
    expect(using(/secrets/i)).toEqual(['redacted.ts', 'secret-values.ts']);
  });

  it('takes a secret out of a text only at the exit', () => {
    expect(using(/^(withoutSecrets|redactParsed|withoutSecretsIn|nearSecret)$/)).toEqual(['redacted.ts']);
  });

  it('quotes typed text only through the exit: quoted and quotableId are used by values.ts (which defines the one) and redacted.ts', () => {
    expect(using(/^(quoted|quotableId)$/)).toEqual(['redacted.ts', 'values.ts']);
  });
});

// The shape of src/ as a whole: each exported name means one thing, and its folders depend one way (issue 45). Read
// from the sources with TypeScript's own parser, so a name or an import is found however it is written.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = normalize(join(dirname(fileURLToPath(import.meta.url)), '../..'));
const SRC = join(ROOT, 'src');

/** Every TypeScript file under src/ (or another folder), as a path from the repository ("src/door/lock.ts"). */
function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

const parsed = (file: string): ts.SourceFile =>
  ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.ES2022, true);

const exported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/**
 * The names a file declares and exports. A re-export (`export { x } from`, `export { x }` of an import) passes on a name
 * declared elsewhere, the same thing under the same name, and is not a declaration.
 */
function declaredExports(source: ts.SourceFile): string[] {
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!exported(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.push(statement.name.text);
    }
  }
  return names;
}

/** Every relative module a file imports or re-exports, types and dynamic imports included, as a path from the repository. */
function importsOf(file: string, source: ts.SourceFile): string[] {
  const found: string[] = [];
  const add = (specifier: ts.Expression | undefined): void => {
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      found.push(join(dirname(file), specifier.text).split('\\').join('/'));
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The unit of the dependency rule a file belongs to: its folder, except the files directly in src/ (settings.ts,
 * option-catalog.ts, option-values.ts, platform.ts, index.ts), each a unit of its own: settings, the catalog and its
 * defaults are leaves every folder reads, the platform the wiring nothing but index.ts imports.
 */
const unitOf = (file: string): string => (dirname(file) === 'src' ? file.replace(/\.(d\.)?[jt]s$/, '') : dirname(file));

/** The units' edges, each with the imports that make it. */
function unitGraph(
  files: readonly string[],
  sources: (file: string) => ts.SourceFile,
  unit: (file: string) => string = unitOf,
): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    const from = unit(file);
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const target of importsOf(file, sources(file))) {
      const to = unit(target);
      if (to !== from) edges.set(to, [...(edges.get(to) ?? []), `${file} imports ${target}`]);
    }
  }
  return graph;
}

/** The edges that close a cycle: `from` imports `to`, and `to` reaches `from` again through other imports. */
function cycleEdges(graph: Map<string, Map<string, string[]>>): string[] {
  const reaches = (start: string, goal: string): boolean => {
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length > 0) {
      const unit = stack.pop() ?? '';
      if (unit === goal) return true;
      for (const next of graph.get(unit)?.keys() ?? []) {
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return false;
  };
  return [...graph].flatMap(([from, edges]) => [...edges].filter(([to]) => reaches(to, from)).flatMap(([, why]) => why));
}

const FILES = sourceFiles();
const SOURCES = new Map(FILES.map((file) => [file, parsed(file)]));
const sourceOf = (file: string): ts.SourceFile => SOURCES.get(file) ?? parsed(file);

describe('src/ as a whole', () => {
  it('declares each exported name in one file only: one name, one thing', () => {
    const files = new Map<string, string[]>();
    for (const file of FILES) {
      // A set: overloads and declaration merging declare one name more than once in one file, as one thing.
      for (const name of new Set(declaredExports(sourceOf(file)))) files.set(name, [...(files.get(name) ?? []), file]);
    }
    const twice = [...files].filter(([, where]) => where.length > 1).map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(twice).toEqual([]);
  });

  it('finds a name declared twice, and a cycle between folders, when there is one', () => {
    const a = ts.createSourceFile(
      'a.ts',
      'export interface DoorView { id: string }\nexport { other } from "./b.js";',
      ts.ScriptTarget.ES2022,
    );
    expect(declaredExports(a)).toEqual(['DoorView']);
    const fake: Record<string, string> = {
      'src/door/model/door.ts': "import type { Context } from '../context.js';",
      'src/door/context.ts': "import { Door } from './model/door.js';",
      'src/util/clock.ts': "import { SETTING } from '../settings.js';",
      'src/settings.ts': '',
    };
    const graph = unitGraph(Object.keys(fake), (file) => ts.createSourceFile(file, fake[file] ?? '', ts.ScriptTarget.ES2022));
    expect(cycleEdges(graph)).toEqual([
      'src/door/model/door.ts imports src/door/context.js',
      'src/door/context.ts imports src/door/model/door.js',
    ]);
  });

  it('has no folder that imports a folder above it or one that imports it back', () => {
    const graph = unitGraph(FILES, sourceOf);
    const upwards = [...graph].flatMap(([from, edges]) => [...edges].filter(([to]) => from.startsWith(`${to}/`)).flatMap(([, why]) => why));
    expect(upwards).toEqual([]);
    expect(cycleEdges(graph)).toEqual([]);
  });
});

/** The longest a class of src/ may be, in lines: past it, it does more than one job (issue 53, item 3). */
const MAX_CLASS_LINES = 250;

/** Each class a file declares, with its length in lines from `class` to its closing brace. */
function classLengths(source: ts.SourceFile): { name: string; lines: number }[] {
  const found: { name: string; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name: node.name?.text ?? '(anonymous)', lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the classes of src/', () => {
  it('measures a class from its first line to its closing brace', () => {
    const body = Array.from({ length: MAX_CLASS_LINES }, (_, i) => `  f${i}(): void {}`).join('\n');
    const source = ts.createSourceFile('long.ts', `// A long class.\nexport class Long {\n${body}\n}\n`, ts.ScriptTarget.ES2022, true);
    expect(classLengths(source)).toEqual([{ name: 'Long', lines: MAX_CLASS_LINES + 2 }]);
  });

  it(`has no class longer than ${MAX_CLASS_LINES} lines: a longer one does more than one job`, () => {
    const long = FILES.flatMap((file) =>
      classLengths(sourceOf(file))
        .filter(({ lines }) => lines > MAX_CLASS_LINES)
        .map(({ name, lines }) => `${file}: ${name}, ${lines} lines`),
    );
    expect(long).toEqual([]);
  });
});

/**
 * In dev/ each file is a unit of its own (issue 53): the bench's, the simulator's and the harness's modules import one
 * way, so a shared part can be read, moved or dropped without the file that uses it. An import names the built `.js`.
 */
const devFileOf = (file: string): string => file.replace(/\.js$/, '.ts');

/** Where a dev/ file is run from besides tests and other dev/ files: npm's scripts, CI's script and the test runner's. */
const ENTRY_POINTS = ['package.json', '.ci/run', 'test/run-all.sh', 'vitest.config.ts'];

/**
 * The files no text names: by its path, or by its name as an import or a preload writes it ("./memory-probe.js").
 * A name is enough, not an import: the bench loads some files by URL, and scripts name the ones they run.
 */
function unnamedFiles(files: readonly string[], texts: readonly string[]): string[] {
  const all = texts.join('\n');
  return files.filter((file) => {
    const built = file.replace(/\.ts$/, '.js');
    const [name = '', folder = ''] = built.split('/').reverse();
    return ![file, built, `${folder}/${name}`, `./${name}`].some((spelling) => all.includes(spelling));
  });
}

describe('dev/ as a whole', () => {
  it('finds a cycle between two files of one folder, when there is one', () => {
    const fake: Record<string, string> = {
      'dev/bench/probes.ts': "import type { Rig } from './rig.js';",
      'dev/bench/rig.ts': "import { sleep } from './probes.js';",
      'dev/bench/bench.ts': "import { sleep } from './probes.js';",
    };
    const graph = unitGraph(Object.keys(fake), (file) => ts.createSourceFile(file, fake[file] ?? '', ts.ScriptTarget.ES2022), devFileOf);
    expect(cycleEdges(graph)).toEqual(['dev/bench/probes.ts imports dev/bench/rig.js', 'dev/bench/rig.ts imports dev/bench/probes.js']);
  });

  it('finds a file that nothing names, when there is one', () => {
    const texts = ["import { x } from '../dev/bench/probes.js';", 'node --import ./memory-probe.js'];
    expect(unnamedFiles(['dev/bench/probes.ts', 'dev/bench/memory-probe.ts', 'dev/bench/old.ts'], texts)).toEqual(['dev/bench/old.ts']);
  });

  it('holds no file that nothing runs: each is named by a script, a test or another of its files', () => {
    const files = sourceFiles(join(ROOT, 'dev'));
    const others = [...sourceFiles(join(ROOT, 'test')), ...files, ...ENTRY_POINTS];
    const texts = files.map((file) =>
      others
        .filter((other) => other !== file)
        .map((other) => readFileSync(join(ROOT, other), 'utf8'))
        .join('\n'),
    );
    expect(files.filter((file, index) => unnamedFiles([file], [texts[index] ?? '']).length > 0)).toEqual([]);
  });

  it('has no import cycle between its files', () => {
    const files = sourceFiles(join(ROOT, 'dev'));
    const graph = unitGraph(files, (file) => parsed(file), devFileOf);
    expect(cycleEdges(graph)).toEqual([]);
  });
});

/** The fast projects' tests, which share each worker's modules (vitest.config.ts, FAST_ISOLATE). */
const FAST_TEST_FOLDERS = ['test/unit', 'test/dev', 'test/system', 'test/stress'];
/** What replaces a module or a global for every file after it in a worker that shares its modules. */
const REPLACES_SHARED_STATE = /\bvi\.(?:mock|doMock|stubGlobal|resetModules)\(/;

const testFilesUnder = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(folder, file));

describe('the fast projects’ tests', () => {
  it('finds a module replaced, when one is', () => {
    // Written in two pieces, so this file does not find itself.
    expect(REPLACES_SHARED_STATE.test(['vi.mock', "('node:fs', async () => ({}));"].join(''))).toBe(true);
    expect(REPLACES_SHARED_STATE.test('vi.fn(() => 1);')).toBe(false);
  });

  it('replace no module and no global: with their modules shared, a replacement would reach the files after it', () => {
    const replacing = FAST_TEST_FOLDERS.flatMap(testFilesUnder).filter((file) =>
      REPLACES_SHARED_STATE.test(readFileSync(join(ROOT, file), 'utf8')),
    );
    expect(replacing).toEqual([]);
  });
});

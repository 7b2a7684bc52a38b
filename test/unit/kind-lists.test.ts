// The door kinds are listed for a reader in one place each: the kinds' table (FACES in src/door/face.ts) with their words
// in the option catalog (`showAs`'s entry, read by the form, the page and docs/options.md), and the form's header that
// npm run generate writes from the table. Prose elsewhere (README, docs, CONTRIBUTING, the page, the package's
// description) says "each kind" in words that need no list, so a new kind edits none of it: a list of two kinds written
// by hand there fails here (issue 53).
import { readdirSync, readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { asEachKind } from '../../dev/generate/form-frame.js';
import { FACES } from '../../src/door/face.js';
import type { FaceTable } from '../../src/door/face.js';
import { optionSpec } from '../../src/option-catalog.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** docs/options.md is generated from the catalog: its list of `showAs`'s values is the catalog's. */
const GENERATED_DOCS = ['options.md'];

/** Where a reader reads prose about the doors. */
const PROSE: readonly string[] = [
  'README.md',
  'CONTRIBUTING.md',
  'src/ui/public/index.html',
  'package.json',
  ...readdirSync(new URL('../../docs/', import.meta.url))
    .filter((name) => name.endsWith('.md') && !GENERATED_DOCS.includes(name))
    .map((name) => `docs/${name}`),
];

/** The kinds as the table names them for a reader: its words without the article ("garage door"). */
const NAMES = Object.values(FACES).map(({ words }) => words.replace(/^an? /, ''));

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A kind's name as prose may write it: any case, wrapped at any space, singular or plural. */
const namePattern = (name: string): string => `${escape(name).replace(/ /g, '\\s+')}s?`;

/**
 * The lists of kinds in `text`: one kind's name, then another's after "or", "and" or a comma, maybe in bold or after a
 * bracket or a "with …," ("garage doors or locks", "a garage door, or as a lock", "**garage door** (the default) or, with
 * `showAs: "lock"`, as a **lock**"); a sentence that names one kind beside another thing is no list.
 */
function kindListsIn(text: string, names: readonly string[] = NAMES): string[] {
  return names.flatMap((first) =>
    names
      .filter((second) => second !== first)
      .flatMap((second) => {
        const list = new RegExp(
          `\\b${namePattern(first)}\\b\\**(?:\\s*\\([^)]*\\))?,?\\s+(?:(?:or|and),?\\s+)?(?:with\\s[^,]*,\\s+)?(?:as\\s+)?(?:an?\\s+)?\\**${namePattern(second)}\\b`,
          'gi',
        );
        return [...text.matchAll(list)].map(([found]) => found.replace(/\s+/g, ' '));
      }),
  );
}

describe('the lists of the door kinds', () => {
  it.each(PROSE)('%s lists no kinds by hand', (file) => {
    // Say "each kind" or "the kind `showAs` says" instead, or link docs/door-kinds.md: a list here misses the next kind.
    expect(kindListsIn(read(file))).toEqual([]);
  });

  it('finds a list of kinds however prose writes it, and no list in a sentence about one kind', () => {
    const names = ['garage door', 'lock', 'switch'];
    expect(kindListsIn('as garage doors or locks, with', names)).toEqual(['garage doors or locks']);
    expect(kindListsIn('as a **garage door** (the default) or, with `showAs: "lock"`, as a\n**lock**.', names)).toHaveLength(1);
    expect(kindListsIn('a garage door, or as a lock', names)).toEqual(['garage door, or as a lock']);
    expect(kindListsIn('Garage door, lock or switch', names)).toEqual(['Garage door, lock', 'lock or switch']);
    expect(kindListsIn('a garage door (`garage-door.ts`) or a lock', names)).toEqual(['garage door (`garage-door.ts`) or a lock']);
    expect(kindListsIn('an automation opens a garage door or unlocks a lock', names)).toEqual([]);
  });

  it("says each kind beside the `showAs` control: its title, its choice and its words in the option's help", () => {
    const showAs = optionSpec('showAs');
    expect(showAs.values).toEqual(Object.keys(FACES));
    for (const [kind, face] of Object.entries(FACES)) {
      const title = showAs.valueTitles[kind as keyof typeof showAs.valueTitles];
      // The log's words for the kind ("a lock") and the form's title ("Lock") name one thing.
      expect(face.words.replace(/^an? /, '')).toBe(title.toLowerCase());
      expect(showAs.page.valueLabels[kind as keyof typeof showAs.page.valueLabels]).toMatch(new RegExp(`^${escape(title)}: `));
      expect(showAs.help).toMatch(new RegExp(`(^|\\. )${escape(title)}( \\(the default\\))?: `));
    }
  });

  it("writes the form's header from the table: a kind added there is named there too", () => {
    // config.schema.json holds the header npm run generate writes: test/unit/generated-files.test.ts.
    const garage = FACES['garage-door'];
    const table = (...words: string[]) =>
      Object.fromEntries(words.map((each) => [each, { ...garage, words: each }])) as unknown as FaceTable;
    expect(asEachKind(table('a garage door', 'a lock', 'a switch'))).toBe('as a garage door, as a lock or as a switch');
    expect(asEachKind(table('a garage door'))).toBe('as a garage door');
  });
});

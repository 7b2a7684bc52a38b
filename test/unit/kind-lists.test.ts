// Every place that lists the door kinds for a reader (the README, the docs, the settings page, the package's
// description, CONTRIBUTING's table of folders; the form's header is written from the table) names exactly the kinds of
// their one table, FACES in src/door/face.ts, in its order: a kind added to the table, or a place edited by hand, fails
// here until the two agree.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { asEachKind } from '../../dev/generate/form-frame.js';
import { FACES } from '../../src/door/face.js';
import type { FaceTable } from '../../src/door/face.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** How a place writes the kinds: in words ("garage door or a lock"), in bold words, or as the values of `showAs`. */
type Reading = 'words' | 'bold' | 'values';

/** One list of the kinds: the file, the text around the list (its one group is the list), and how it writes them. */
interface Place {
  file: string;
  list: RegExp;
  reading: Reading;
}

const PLACES: readonly Place[] = [
  { file: 'README.md', list: /^- \*\*(.+?)\*\* \(`showAs`/m, reading: 'words' },
  { file: 'README.md', list: /^\| \[Door kinds\]\(docs\/door-kinds\.md\) \| (.+?): /m, reading: 'words' },
  { file: 'docs/door-kinds.md', list: /^# Door kinds: (.+)$/m, reading: 'words' },
  { file: 'docs/door-kinds.md', list: /^Every door appears in Apple Home as ([^]+?)\. This page/m, reading: 'bold' },
  { file: 'docs/configuration.md', list: /for `showAs`, ([^)]+)\)/, reading: 'values' },
  { file: 'docs/development.md', list: /`src\/door\/door-accessory\.ts` with\s+([^]+?) as its main service/, reading: 'words' },
  { file: 'src/ui/public/index.html', list: /appears in Apple Home as ([^.]+?) where "Show in Home as" says so/, reading: 'words' },
  { file: 'package.json', list: /in Apple Home, as (.+?), with real-time updates/, reading: 'words' },
  // Prose wrapped at any space.
  { file: 'CONTRIBUTING.md', list: /through\s+its\s+main\s+service,\s+([\s\S]+?)\s+as\s+`showAs`\s+says/, reading: 'words' },
];

/** The kinds as the table names them for a reader: its words without the article ("garage door"). */
const NAMES = Object.values(FACES).map(({ words }) => words.replace(/^an? /, ''));

/**
 * The kinds a list in words names: "A, B or C", "a B, or as a C", plural or not ("garage doors or locks"), each maybe
 * followed by its file in brackets ("a lock (`lock.ts`)").
 */
function namesIn(list: string): string[] {
  return list
    .replace(/\s+/g, ' ')
    .replace(/ \([^)]*\)/g, '')
    .split(/,? or |, /)
    .map((item) => item.trim().toLowerCase().replace(/^as /, '').replace(/^an? /, ''))
    .map((name) => (NAMES.includes(name) ? name : (NAMES.find((known) => name === `${known}s`) ?? name)));
}

function kindsAt(place: Place, text: string): string[] | undefined {
  const list = place.list.exec(text)?.[1];
  if (list === undefined) return undefined;
  if (place.reading === 'bold') return [...list.matchAll(/\*\*(.+?)\*\*/g)].map(([, name]) => name?.toLowerCase() ?? '');
  if (place.reading === 'values') return [...list.matchAll(/"([^"]+)"/g)].map(([, value]) => value ?? '');
  return namesIn(list);
}

describe('the lists of the door kinds', () => {
  it.each(PLACES)('$file lists exactly the kinds of the table ($list)', (place) => {
    const expected = place.reading === 'values' ? Object.keys(FACES) : NAMES;
    // Not found: the sentence was rewritten; say the kinds again there and update its pattern here.
    expect(kindsAt(place, read(place.file)), `${place.file} should name ${expected.join(', ')}`).toEqual(expected);
  });

  it('reads a list of three kinds in each way a place writes one, and sees one left out', () => {
    expect(namesIn('Garage door, lock or switch')).toEqual(['garage door', 'lock', 'switch']);
    expect(namesIn('a garage door, or as a lock')).toEqual(['garage door', 'lock']);
    expect(namesIn('garage doors or locks')).toEqual(['garage door', 'lock']);
    expect(namesIn('a garage door (`garage-door.ts`), a lock (`lock.ts`) or a door (`door.ts`)')).toEqual(['garage door', 'lock', 'door']);
    const readme = PLACES.find((place) => place.file === 'README.md');
    if (readme === undefined) throw new Error('no README place');
    expect(kindsAt(readme, '- **Garage door** (`showAs`, for all doors or per door).')).toEqual(['garage door']);
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

// Every relative link and #anchor in README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md resolves: the file exists and the anchor is a heading of it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The Markdown files whose links are checked, relative to the repository's root. */
function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...docs.sort()];
}

/** The lines of a Markdown text outside fenced code blocks (``` or ~~~, indented in a list item too). */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opener = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opener !== undefined) fence = opener.slice(0, 3);
    else if (fence !== undefined && line.trim().startsWith(fence)) fence = undefined;
    else if (fence === undefined) lines.push(line);
  }
  return lines;
}

/**
 * GitHub's anchor for a heading's text (as github-slugger makes it): the text as rendered (a link's text, no code
 * marks), lowercase, every character dropped that is not a letter, digit, `-`, `_` or space, and each space a `-`.
 */
function githubSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings; a heading that repeats gets -1, -2… as on GitHub. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const text = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (text === undefined) continue;
    const slug = githubSlug(text);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of a Markdown text's inline links and images, code spans left out (a link shown as code is no link). */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = match[1];
      if (target !== undefined) targets.push(target);
    }
  }
  return targets;
}

/** What a relative link reaches: a Markdown file's text, '' for any other file or a folder, undefined when nothing is there. */
type ReadTarget = (path: string) => string | undefined;

function readFromDisk(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  return statSync(path).isFile() && path.endsWith('.md') ? readFileSync(path, 'utf8') : '';
}

/** Each relative link of `markdown` (the file at `file`) that does not resolve, with why. */
function brokenLinks(file: string, markdown: string, read: ReadTarget = readFromDisk): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: and the like: not this check's business.
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const path = pathPart === '' ? file : resolve(dirname(file), pathPart);
    const text = pathPart === '' ? markdown : read(path);
    if (text === undefined) {
      broken.push(`${target}: ${relative(ROOT, path)} does not exist`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!path.endsWith('.md')) {
      broken.push(`${target}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!headingAnchors(text).has(anchor)) broken.push(`${target}: no heading of ${relative(ROOT, path)} has the anchor #${anchor}`);
  }
  return broken;
}

describe('links in the documentation', () => {
  for (const name of markdownFiles()) {
    it(`${name}: every relative link and anchor resolves`, () => {
      const path = join(ROOT, name);
      expect(brokenLinks(path, readFileSync(path, 'utf8'))).toEqual([]);
    });
  }

  it('checks links at all: README and the docs link to one another', () => {
    const readme = linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8'));
    expect(readme).toContain('docs/troubleshooting.md');
    expect(readme).toContain('docs/development.md#try-it-without-an-account');
  });

  it('makes anchors as GitHub does', () => {
    expect(githubSlug('Try it without an account: `npm run demo`')).toBe('try-it-without-an-account-npm-run-demo');
    expect(githubSlug('Real-time updates (webhooks)')).toBe('real-time-updates-webhooks');
    expect(githubSlug('[Unreleased]')).toBe('unreleased');
    expect(githubSlug('`doors[].hide` and snake_case')).toBe('doorshide-and-snake_case');
    expect([...headingAnchors('# A\n## B\n```\n# Not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('fails on a missing file, a missing anchor and an anchor in the same file, and ignores code and web links', () => {
    const docs: Record<string, string> = {
      [join(ROOT, 'docs/real.md')]: '# Real page\n\n## A section\n',
    };
    const read: ReadTarget = (path) => docs[path];
    const text = [
      '# Here',
      '[fine](real.md#a-section) [fine too](#here) [web](https://example.com/#nowhere)',
      '[no file](missing.md) [bad anchor](real.md#no-such-section) [bad here](#nowhere)',
      '`[shown as code](gone.md)`',
      '```',
      '[in a code block](gone.md)',
      '```',
    ].join('\n');
    expect(brokenLinks(join(ROOT, 'docs/here.md'), text, read)).toEqual([
      'missing.md: docs/missing.md does not exist',
      'real.md#no-such-section: no heading of docs/real.md has the anchor #no-such-section',
      '#nowhere: no heading of docs/here.md has the anchor #nowhere',
    ]);
  });
});

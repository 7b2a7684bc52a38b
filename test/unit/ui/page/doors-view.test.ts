// The door list's lines hold the service's names and ids each in its own <bdi>: no mark or right-to-left text in one can
// turn the page's own words around it (issue 38). A few lines of DOM stand in for the browser's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface DoorsView {
  controllerWords: (owner: string | undefined, controllerId: string, doors?: number) => (FakeElement | string)[];
  doorIdLine: (controller: readonly (FakeElement | string)[], doorId: string) => FakeElement;
}

/** Loaded by a path the type check does not follow: the page is checked with the DOM's types (src/ui/page/tsconfig.json), the tests without. */
const DOORS_VIEW = '../../../../src/ui/page/doors-view.js';
let controllerWords: DoorsView['controllerWords'];
let doorIdLine: DoorsView['doorIdLine'];

/** Just what the page's h() uses: createElement, setAttribute, append and textContent. */
class FakeElement {
  readonly childNodes: (FakeElement | { textContent: string })[] = [];
  readonly attributes = new Map<string, string>();
  constructor(readonly tagName: string) {}
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  append(...children: (FakeElement | string)[]): void {
    this.childNodes.push(...children.map((child) => (typeof child === 'string' ? { textContent: child } : child)));
  }
  get textContent(): string {
    return this.childNodes.map((child) => child.textContent).join('');
  }
}

const RLO = '\u202e';

beforeAll(async () => {
  (globalThis as { document?: unknown }).document = { createElement: (tag: string) => new FakeElement(tag.toUpperCase()) };
  ({ controllerWords, doorIdLine } = (await import(DOORS_VIEW)) as DoorsView);
});
afterAll(() => {
  delete (globalThis as { document?: unknown }).document;
});

/** Each child of the line: a <bdi>'s text as `<bdi>…</bdi>`, the page's own words as they are. */
const pieces = (element: FakeElement): string[] =>
  element.childNodes.map((child) =>
    child instanceof FakeElement
      ? `<${child.tagName.toLowerCase()}>${child.textContent}</${child.tagName.toLowerCase()}>`
      : child.textContent,
  );

describe('the door list, outside text isolated', () => {
  it("puts the owner, the controller's id and the door's id each in its own <bdi>", () => {
    const line = doorIdLine(controllerWords(`${RLO}Ana`, `c${RLO}1`), `d${RLO}2`);
    expect(pieces(line)).toEqual([
      'On ',
      `<bdi>${RLO}Ana</bdi>`,
      "'s controller",
      ' (id ',
      `<bdi>c${RLO}1</bdi>`,
      ')',
      ' · door id ',
      `<bdi>d${RLO}2</bdi>`,
    ]);
    expect(line.textContent).toBe(`On ${RLO}Ana's controller (id c${RLO}1) · door id d${RLO}2`);
  });

  it('says how many doors a controller has outside the isolated parts, and names a controller without owner in words', () => {
    const words = controllerWords(undefined, 'c1', 3);
    expect(words.map((part) => (typeof part === 'string' ? part : `<bdi>${part.textContent}</bdi>`))).toEqual([
      'Controller',
      ', 3 doors (id ',
      '<bdi>c1</bdi>',
      ')',
    ]);
  });
});

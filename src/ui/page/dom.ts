// A few DOM helpers for the settings page: elements built with textContent only, so outside text never becomes markup.

type Attributes = Record<string, string | boolean | undefined>;
type Child = Node | string | undefined | false;

/** `h('div', { class: 'row' }, 'text', child)`: attributes set as given, strings added as text. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) {
      element.setAttribute(name, '');
    } else if (typeof value === 'string') {
      element.setAttribute(name, value);
    }
  }
  for (const child of children) {
    if (child !== undefined && child !== false) {
      element.append(child);
    }
  }
  return element;
}

/**
 * Text of the service (a name, an id) in its own <bdi>: whatever direction its letters or marks take, it cannot turn the
 * page's words around it ("door id 12ab" stays in that order beside a right-to-left or reversed id).
 */
export function isolated(text: string): HTMLElement {
  return h('bdi', {}, text);
}

/** The pieces of a line as plain text (for searching), <bdi> and all. */
export function plainText(parts: readonly (Node | string)[]): string {
  return parts.map((part) => (typeof part === 'string' ? part : (part.textContent ?? ''))).join('');
}

/** The page's element `id`, checked to be a `kind` (an input, a select...) when one is asked for. */
export function byId(id: string): HTMLElement;
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T;
export function byId(id: string, kind: new () => HTMLElement = HTMLElement): HTMLElement {
  const element = document.getElementById(id);
  if (!element) {
    throw new Error(`The settings page lacks #${id}`);
  }
  const tag = element.tagName.toLowerCase();
  if (!(element instanceof kind)) {
    throw new Error(`The settings page's #${id} is a <${tag}>, not the element expected`);
  }
  return element;
}

/** Replaces an element's content. */
export function fill(element: HTMLElement, ...children: Child[]): void {
  element.replaceChildren(...children.filter((child): child is Node | string => child !== undefined && child !== false));
}

/** A status line: 'ok' green, 'warn' orange, 'error' red, 'info' muted. */
export function status(element: HTMLElement, kind: 'ok' | 'warn' | 'error' | 'info', text: string): void {
  element.className = `status status-${kind}`;
  element.textContent = text;
}

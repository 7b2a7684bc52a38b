// A few DOM helpers for the settings page: elements built with textContent only, so outside text never becomes markup.

type Attributes = Record<string, string | boolean | undefined>;
type Child = Node | string | undefined | false;

/** `h('div', { class: 'row' }, 'text', child)`: attributes set as given, strings added as text. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
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

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) {
    throw new Error(`The settings page lacks #${id}`);
  }
  return element as T;
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

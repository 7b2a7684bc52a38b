// Scripts run inside the settings page's frame (page.evaluate of a string): the project's Node type check has no DOM types,
// so the browser side is kept as plain JavaScript text here, small enough to read at a glance; and axe-core run in the frame.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Frame } from 'playwright-core';

/** axe-core's serious and critical findings, one line each: the rule, then the elements (axe must be loaded first). */
export const AXE_FAULTS = `(async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ')).join(' | '));
})()`;

/** Every visible control whose box, with its labels' boxes, is under MIN x MIN CSS px (0.5 px of sub-pixel layout allowed). */
export const smallTargets = (min: number): string => `(() => {
  const small = [];
  for (const control of document.querySelectorAll('input:not([type="hidden"]), select, textarea, button, summary, a[href]')) {
    if (!control.checkVisibility({ checkVisibilityCSS: true })) continue;
    const boxes = [control, ...(control.labels ? [...control.labels] : [])].map((element) => element.getBoundingClientRect());
    const width = Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left));
    const height = Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top));
    if (width < ${min} - 0.5 || height < ${min} - 0.5) {
      const name = control.id || control.dataset.door || (control.textContent || '').trim().slice(0, 30) || control.tagName;
      small.push(control.tagName.toLowerCase() + ' ' + name + ': ' + Math.round(width) + ' x ' + Math.round(height));
    }
  }
  return small;
})()`;

/** How far the document scrolls sideways (0: not at all). */
export const SIDEWAYS = `document.documentElement.scrollWidth - document.documentElement.clientWidth`;

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings in the settings page's frame, one line each: rule, then the elements. */
export async function axeFaults(frame: Frame): Promise<string[]> {
  await frame.addScriptTag({ content: await axeSource });
  return frame.evaluate<string[]>(AXE_FAULTS);
}

/** The language of the document. */
export const LANG = `document.documentElement.lang`;

/** Whether the keyboard is on the sign-in result or in the door list (not the page's body). */
export const FOCUS_ON_RESULT = `(() => {
  const focused = document.activeElement;
  return !!focused && (focused.id === 'ac-sign-in-status' || focused.closest('#ac-door-list') !== null);
})()`;

/** The heights of the door rows, in CSS px. */
export const ROW_HEIGHTS = `[...document.querySelectorAll('[data-door-row]')].map((row) => row.getBoundingClientRect().height)`;

/** The focused element's outline, as the user sees it: "solid 3px rgb(...)". */
export const FOCUS_RING = `(() => {
  const style = getComputedStyle(document.activeElement);
  return style.outlineStyle + ' ' + style.outlineWidth + ' ' + style.outlineColor;
})()`;

/**
 * Starts recording, in the frame, everything the page ever shows of the sign-in line, the door rows (their ids) and the
 * check's warnings, at every change of the page: what was on screen for a moment, between two checks of a test, counts.
 */
export const RECORD_WHAT_IS_SHOWN = `(() => {
  const seen = { signIn: new Set(), rows: new Set(), warnings: new Set() };
  const note = () => {
    seen.signIn.add(document.getElementById('ac-sign-in-status').textContent);
    for (const row of document.querySelectorAll('[data-door-row]')) seen.rows.add(row.dataset.doorRow);
    for (const item of document.querySelectorAll('#ac-check-warnings li')) seen.warnings.add(item.textContent);
  };
  note();
  new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  window.acShown = seen;
})()`;

/** What RECORD_WHAT_IS_SHOWN saw since it started: each text or id once. */
export const WHAT_WAS_SHOWN = `(() => {
  const seen = window.acShown;
  return { signIn: [...seen.signIn], rows: [...seen.rows], warnings: [...seen.warnings] };
})()`;

/** The focused element, as a test names it: its id, else its accessible name, else its tag. */
export const FOCUSED = `(() => {
  const focused = document.activeElement;
  return !focused ? '' : focused.id || focused.getAttribute('aria-label') || focused.tagName.toLowerCase();
})()`;

/** WCAG's least contrast for body text. */
export const TEXT_CONTRAST = 4.5;

/**
 * A script for `frame.evaluate`: WCAG's contrast of the text of the element `selector` finds, with the opacity it is
 * drawn at (its own and its ancestors'), on the first opaque background behind it.
 */
export const contrastOf = (selector: string): string => `(() => {
  const element = document.querySelector(${JSON.stringify(selector)});
  if (!element) return 0;
  const rgba = (color) => (color.match(/[\\d.]+/g) || []).map(Number);
  let behind = element;
  while (behind && (rgba(getComputedStyle(behind).backgroundColor)[3] ?? 1) === 0) behind = behind.parentElement;
  const back = rgba(behind ? getComputedStyle(behind).backgroundColor : 'rgb(255, 255, 255)');
  let alpha = rgba(getComputedStyle(element).color)[3] ?? 1;
  for (let node = element; node; node = node.parentElement) alpha *= Number(getComputedStyle(node).opacity);
  const text = rgba(getComputedStyle(element).color).slice(0, 3).map((c, i) => c * alpha + back[i] * (1 - alpha));
  const luminance = (rgb) => rgb
    .map((c) => c / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const [light, dark] = [luminance(text), luminance(back.slice(0, 3))].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
})()`;

/**
 * Every visible text field and select of the page whose text (its value, else its placeholder; a select's chosen option)
 * is wider than the room its box leaves for it: the words a user would see cut off. Measured with the control's own font.
 */
export const CLIPPED = `(() => {
  const canvas = document.createElement('canvas').getContext('2d');
  const cut = [];
  for (const control of document.querySelectorAll('#ac-page input[type="text"], #ac-page input:not([type]), #ac-page select')) {
    if (!control.checkVisibility({ checkVisibilityCSS: true })) continue;
    const style = getComputedStyle(control);
    canvas.font = style.font;
    const text = control.tagName === 'SELECT' ? (control.selectedOptions[0] ? control.selectedOptions[0].text : '') : control.value || control.placeholder;
    const room = control.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const width = canvas.measureText(text).width;
    if (width > room + 0.5) cut.push((control.getAttribute('aria-label') || control.id) + ': "' + text + '" needs ' + Math.ceil(width) + ' px, has ' + Math.floor(room));
  }
  return cut;
})()`;

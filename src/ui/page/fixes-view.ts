// The one-click fixes of keys written as near misses: a line and a button each, and the keyboard kept on them as they go.
import { quoted } from '../../util/quoted.js';
import { byId, fill, h } from './dom.js';
import { fixAfter, fixKey } from './fix-order.js';
import type { KeyFix } from '../shared/messages.js';

/** "doors.2" as the page names it: "door entry 3"; "" is the settings for all doors. */
function placeOf(parent: string): string {
  if (parent === '') return 'for all doors';
  const door = /^doors\.(\d+)$/.exec(parent);
  return door ? `in door entry ${Number(door[1]) + 1}` : `in ${parent}`;
}

const buttonOf = (list: HTMLElement, key: string): HTMLElement | null => list.querySelector(`[data-fix="${CSS.escape(key)}"]`);

/**
 * One line per key written as a near miss (the warnings above say how each is read), with a button that writes it under
 * its key and nothing else; its accessible name says which, as several read "Write it as readOnly". `apply` writes one
 * and answers the fixes left; the keyboard then goes to the next fix, or to the check's summary when none is left.
 * A redraw with the same fixes changes nothing (the keyboard stays where it is); another keeps it on the fix it was on
 * while that one is still offered.
 */
export function renderFixes(fixes: readonly KeyFix[], apply: (fix: KeyFix) => readonly KeyFix[]): void {
  const list = byId('ac-check-fixes');
  const keys = fixes.map(fixKey);
  if (list.dataset.fixes === JSON.stringify(keys)) return;
  list.dataset.fixes = JSON.stringify(keys);
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.fix : undefined;
  fill(
    list,
    ...fixes.map((fix, index) => {
      const written = quoted(fix.written);
      const button = h(
        'button',
        {
          class: 'btn btn-secondary btn-sm',
          type: 'button',
          'data-fix': keys[index],
          'aria-label': `Write it as ${fix.key}: ${written} ${placeOf(fix.parent)}`,
        },
        `Write it as ${fix.key}`,
      );
      button.addEventListener('click', () => {
        const next = fixAfter(fixes, fix, apply(fix));
        const target = next === undefined ? null : buttonOf(list, fixKey(next));
        (target ?? byId('ac-check-status')).focus();
      });
      return h('li', {}, `${written} ${placeOf(fix.parent)}, read as ${fix.key}. `, button);
    }),
  );
  // A fix that was on the keyboard and is still offered keeps it; one just applied is gone, and its click moves it on.
  if (focused !== undefined) buttonOf(list, focused)?.focus();
}

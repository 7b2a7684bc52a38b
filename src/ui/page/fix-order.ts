// Which one-click fix the keyboard goes on to once one is applied: pure, so it is tested without a browser.
import type { KeyFix } from '../shared/messages.js';

/** A fix's identity across checks: where the key is, how it was written, and the key it is read as. */
export const fixKey = (fix: KeyFix): string => JSON.stringify([fix.parent, fix.written, fix.key]);

/**
 * The fix the keyboard goes on to once `done` was applied: the first after it in the list as it was (`before`) that is
 * still offered (`after`), else the nearest before it, else any fix still offered; undefined when none is left (the
 * check's summary takes the keyboard then).
 */
export function fixAfter(before: readonly KeyFix[], done: KeyFix, after: readonly KeyFix[]): KeyFix | undefined {
  const left = new Map(after.map((fix) => [fixKey(fix), fix]));
  left.delete(fixKey(done));
  const at = before.findIndex((fix) => fixKey(fix) === fixKey(done));
  const order = at < 0 ? before : [...before.slice(at + 1), ...before.slice(0, at).reverse()];
  for (const fix of order) {
    const still = left.get(fixKey(fix));
    if (still !== undefined) return still;
  }
  return left.values().next().value;
}

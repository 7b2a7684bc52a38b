// The words of the settings page's sign-in status line, from where the sign-in stands for the entry on screen.
import type { SignInState } from './store.js';

export interface SignInLine {
  kind: 'ok' | 'warn' | 'error' | 'info';
  text: string;
  /** The raw reason (a code, an HTTP status), shown only behind "Details". */
  detail: string | undefined;
}

export const SIGNING_IN_TEXT = 'Signing in…';
export const EDITED_TEXT = 'The Service address or Access token changed: press Sign in to check them.';
/** Also for an entry with the same address and token: a sign-in speaks for the entry it was made in only. */
export const OTHER_ENTRY_TEXT = 'The last sign-in was for another entry: press Sign in to check this one.';
export const ABANDONED_EDIT_TEXT =
  'The Service address or Access token changed while signing in, so that sign-in no longer counts: press Sign in to check them.';
export const ABANDONED_ENTRY_TEXT =
  'Another entry was chosen while signing in, so that sign-in no longer counts: press Sign in to check this entry.';

const plural = (count: number, one: string): string => `${count} ${one}${count === 1 ? '' : 's'}`;

/**
 * The line under "Sign in": "Signed in" only for an answer to the address and token on screen, in the entry they were
 * tried for; a sign-in the user overtook (an edit, another entry) says it no longer counts. `cached`: the list shows the
 * doors Homebridge showed last. Undefined: nothing to say (never pressed).
 */
export function signInLine(state: SignInState, cached: boolean): SignInLine | undefined {
  const info = (text: string): SignInLine => ({ kind: 'info', text, detail: undefined });
  switch (state.kind) {
    case 'signing-in':
      return info(SIGNING_IN_TEXT);
    case 'abandoned':
      return info(state.by === 'edit' ? ABANDONED_EDIT_TEXT : ABANDONED_ENTRY_TEXT);
    case 'stale':
      return info(state.by === 'edit' ? EDITED_TEXT : OTHER_ENTRY_TEXT);
    case 'none':
      return undefined;
    case 'answered':
      break;
  }
  const { result } = state;
  if (result.ok) {
    const { controllers, doors, unreadable } = result.account;
    const partly = unreadable.length > 0 ? ` Part of the account could not be read: ${unreadable.join('; ')}.` : '';
    return {
      kind: 'ok',
      text: `Signed in: ${plural(controllers.length, 'controller')}, ${plural(doors.length, 'door')}.${partly}`,
      detail: undefined,
    };
  }
  const cache = cached ? ' The doors below are the ones Homebridge showed last.' : '';
  // A field to fix is an error; the service refusing or not answering is a warning (saving stays possible).
  return { kind: result.kind === 'fields' ? 'error' : 'warn', text: `${result.message}${cache}`, detail: result.detail };
}

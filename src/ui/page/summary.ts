// The words of the settings page's "Before you save" summary: the parser's findings and the sign-in with the current address and token.
import type { ConfigCheck, SignInFailure, SignInAnswer } from '../shared/messages.js';

export interface Summary {
  kind: 'ok' | 'warn' | 'error' | 'info';
  text: string;
  /** The findings listed under it, each naming its field by the page's label. */
  lines: string[];
  /** The parser's warnings (near misses read as what they nearly are, unknown keys): listed apart, Save stays on. */
  warnings: string[];
  /** The raw reason (a code, an HTTP status), shown only behind "Details". */
  detail: string | undefined;
  /** Save stays off while the plugin would ignore part of the settings or sync nothing. */
  saveOff: boolean;
}

export const FRESH_TEXT = 'Type the Service address and Access token, then press Sign in.';
export const ACCEPTED_TEXT =
  'The plugin accepts these settings, and they signed in. Press Save, then restart Homebridge (or the child bridge).';
/** Said above the warnings: the settings run as read, so they do not keep Save off. */
export const WARNINGS_TEXT = 'The plugin reads these settings as follows, and logs each line as a warning (Save stays on):';
export const UNTRIED_TEXT =
  'The plugin can read these settings, but this Service address and Access token have not signed in yet: press Sign in to check them before you save.';

/** What the plugin does when it runs with settings that do not sign in: what saving them now leads to. */
const THEN: Record<SignInFailure, string> = {
  refused: 'If you save these settings, the plugin shows no door updates and retries with back-off until the token works, logging why.',
  'not-found': 'If you save these settings, the plugin keeps trying with back-off and logs why; no door updates until the address answers.',
  'no-answer': 'If you save these settings, the plugin keeps trying with back-off and logs why; no door updates until the service answers.',
  timeout: 'If you save these settings, the plugin keeps trying with back-off and logs why; no door updates until the service answers.',
  'bad-answer':
    'If you save these settings, the plugin keeps trying with back-off and logs why; no door updates until the service answers as it should.',
  redirect:
    'If you save these settings, the plugin keeps trying with back-off and logs why; no door updates until the address is the service’s own.',
  fields: 'Fix the fields of section 1 first.',
  server: 'Reload the page and press Sign in again to know whether these settings work.',
};

/** The first sentence of the sign-in's message: what went wrong, without what to do (the sign-in line says that). */
const firstSentence = (message: string): string => /^.*?[.!?](?=\s|$)/.exec(message)?.[0] ?? message;

/**
 * What keeps Save off for these settings, in words that follow "and": the one rule for the entry on screen and for the
 * others changed here (Save writes every entry). What the page keeps as written it cannot fix, and Save keeps it as it
 * is: only what can be fixed here counts.
 */
function saveOffBy(check: ConfigCheck): string | undefined {
  if (check.problems.length > 0) return 'the plugin would sync no door with it';
  return check.ignored.length > check.ignoredKept ? 'the plugin would ignore part of it' : undefined;
}

/**
 * The line under the summary for the entries changed here that are not on screen, by name: Save writes them too, so
 * one that would keep Save off on screen keeps it off from any entry. Empty when none does.
 */
export function othersText(others: readonly { name: string; check: ConfigCheck }[]): string {
  const stopping = others.flatMap(({ name, check }) => {
    const why = saveOffBy(check);
    return why === undefined ? [] : [`${name} also changed here, and ${why}`];
  });
  if (stopping.length === 0) return '';
  return `${stopping.join('; ')}: choose ${stopping.length === 1 ? 'it' : 'each'} above and fix it. Save stays off until then.`;
}

/**
 * The summary: problems only once the user touched something (never on a fresh page); green only when the parser
 * accepts the settings and their address and token signed in; a failed sign-in is a warning in words, Save still on.
 */
export function summarize(check: ConfigCheck, signIn: SignInAnswer | undefined, touched: boolean): Summary {
  const summary = summaryOf(check, signIn, touched);
  // Warnings never keep Save off; they turn a green summary amber, so a near miss is not read as "all fine".
  const { warnings } = check;
  return { ...summary, kind: summary.kind === 'ok' && warnings.length > 0 ? 'warn' : summary.kind, warnings };
}

function summaryOf(check: ConfigCheck, signIn: SignInAnswer | undefined, touched: boolean): Omit<Summary, 'warnings'> {
  const lines = [...check.problems, ...check.ignored];
  const saveOff = saveOffBy(check) !== undefined;
  if (check.problems.length > 0) {
    return touched
      ? {
          kind: 'error',
          text: 'The plugin would sync no door with these settings. Save stays off until this is fixed:',
          lines,
          detail: undefined,
          saveOff,
        }
      : { kind: 'info', text: FRESH_TEXT, lines: [], detail: undefined, saveOff };
  }
  if (check.ignored.length > 0) {
    return {
      kind: 'warn',
      text: saveOff
        ? 'The plugin would ignore these parts (and log each). Save stays off until they are fixed or cleared:'
        : 'The plugin reads these parts as said below (and logs each). This page cannot edit them and keeps them as written, so Save changes only what you change here; fix them in config.json:',
      lines,
      detail: undefined,
      saveOff,
    };
  }
  if (signIn === undefined) {
    return { kind: 'info', text: UNTRIED_TEXT, lines: [], detail: undefined, saveOff };
  }
  if (signIn.ok) {
    return { kind: 'ok', text: ACCEPTED_TEXT, lines: [], detail: undefined, saveOff };
  }
  return {
    kind: 'warn',
    text: `${firstSentence(signIn.message)} ${THEN[signIn.kind]}`,
    lines: [],
    detail: signIn.detail,
    saveOff,
  };
}
